#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The built-in types a controller touches, through kubectl 1.32 and Debian's
python3-kubernetes against `rvscope serve`: `kubectl apply -f DIR` over a directory of mixed
types, `kubectl get` of each type with the apiserver's columns (and -o wide, and get -w),
kubectl's imperative creates (protobuf bodies), and the Python client's create_from_yaml over
a multi-document file, conflicts reported per object."""
import os
import re
import shutil
import tempfile
import unittest

from kubernetes import client, utils

from rvscope_server import KubectlTestCase, LineReader

POD_TEMPLATE = """
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1"}]"""

DAEMON_SET = f"""apiVersion: apps/v1
kind: DaemonSet
metadata: {{name: web-ds}}
spec:
  selector: {{matchLabels: {{app: web}}}}
  template:{POD_TEMPLATE}
"""

REPLICATION_CONTROLLER = f"""apiVersion: v1
kind: ReplicationController
metadata: {{name: web-rc}}
spec:
  replicas: 1
  template:{POD_TEMPLATE}
"""

MANIFESTS = {
    "apps.yaml": f"""apiVersion: apps/v1
kind: ReplicaSet
metadata: {{name: web-rs}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: web}}}}
  template:{POD_TEMPLATE}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {{name: web-sts}}
spec:
  serviceName: web
  selector: {{matchLabels: {{app: web}}}}
  template:{POD_TEMPLATE}
---
{DAEMON_SET}""",
    "core.yaml": f"""apiVersion: v1
kind: ServiceAccount
metadata: {{name: robot}}
---
{REPLICATION_CONTROLLER}---
apiVersion: v1
kind: ResourceQuota
metadata: {{name: quota}}
spec: {{hard: {{pods: "10"}}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {{name: disk}}
spec:
  capacity: {{storage: 1Gi}}
  accessModes: [ReadWriteOnce]
  hostPath: {{path: /tmp/disk}}
""",
    "batch.yaml": """apiVersion: batch/v1
kind: Job
metadata: {name: once}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: job, image: busybox, command: [echo, hi]}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: job, image: busybox}]
""",
    "rbac.yaml": """apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "system:aggregate-to-widgets"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader-binding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: ServiceAccount, name: robot, namespace: default}
""",
    "cluster.yaml": """apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: front}
spec:
  rules:
  - host: web.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web-hpa}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: example.com/disk
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: important}
value: 1000
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all}
spec: {podSelector: {}}
""",
}

# (resource, name): the header kubectl prints and the first cells of the object's row.
EXPECTED = {
    ("replicasets", "web-rs"): (["NAME", "DESIRED", "CURRENT", "READY", "AGE"], ["web-rs", "2", "0", "0"]),
    ("statefulsets", "web-sts"): (["NAME", "READY", "AGE"], ["web-sts", "0/1"]),
    ("daemonsets", "web-ds"): (["NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR",
                                "AGE"], ["web-ds", "0", "0", "0", "0", "0", "<none>"]),
    ("serviceaccounts", "robot"): (["NAME", "SECRETS", "AGE"], ["robot", "0"]),
    ("replicationcontrollers", "web-rc"): (["NAME", "DESIRED", "CURRENT", "READY", "AGE"], ["web-rc", "1", "0", "0"]),
    ("resourcequotas", "quota"): (["NAME", "AGE", "REQUEST", "LIMIT"], ["quota"]),
    ("persistentvolumes", "disk"): (["NAME", "CAPACITY", "ACCESS MODES", "RECLAIM POLICY", "STATUS", "CLAIM",
                                     "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "REASON", "AGE"],
                                    ["disk", "1Gi", "RWO", "Retain", "Pending"]),
    ("jobs", "once"): (["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"], ["once", "Running", "0/1"]),
    ("cronjobs", "nightly"): (["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"],
                              ["nightly", "0 3 * * *", "<none>", "False", "0", "<none>"]),
    ("clusterroles", "system:aggregate-to-widgets"): (["NAME", "CREATED AT"], ["system:aggregate-to-widgets"]),
    ("roles", "reader"): (["NAME", "CREATED AT"], ["reader"]),
    ("rolebindings", "reader-binding"): (["NAME", "ROLE", "AGE"], ["reader-binding", "Role/reader"]),
    ("ingresses", "front"): (["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"],
                             ["front", "<none>", "web.example.com", "80"]),
    ("poddisruptionbudgets", "web-pdb"): (["NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"],
                                          ["web-pdb", "1", "N/A", "0"]),
    ("horizontalpodautoscalers", "web-hpa"): (["NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS",
                                               "AGE"], ["web-hpa", "Deployment/web", "cpu: <unknown>/80%", "1", "5", "0"]),
    ("storageclasses", "fast"): (["NAME", "PROVISIONER", "RECLAIMPOLICY", "VOLUMEBINDINGMODE",
                                  "ALLOWVOLUMEEXPANSION", "AGE"], ["fast", "example.com/disk", "Delete", "Immediate",
                                                                   "false"]),
    ("priorityclasses", "important"): (["NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"],
                                       ["important", "1000", "false"]),
    ("networkpolicies", "deny-all"): (["NAME", "POD-SELECTOR", "AGE"], ["deny-all", "<none>"]),
}


def columns(output):
    """The header's column names and the rows, split on runs of two or more spaces."""
    lines = [line for line in output.splitlines() if line.strip()]
    return [re.split(r"\s{2,}", line.strip()) for line in lines]


class BuiltinTypes(KubectlTestCase):
    def manifest_dir(self):
        directory = tempfile.mkdtemp(prefix="rvscope-manifests-")
        self.addCleanup(shutil.rmtree, directory, ignore_errors=True)
        for name, text in MANIFESTS.items():
            with open(os.path.join(directory, name), "w") as handle:
                handle.write(text)
        return directory

    def test_apply_a_directory_then_get_each_type(self):
        directory = self.manifest_dir()
        applied = self.k("apply", "-f", directory).stdout
        for (resource, name) in EXPECTED:
            self.assertIn(f"/{name} created", applied)
        for (resource, name), (header, cells) in EXPECTED.items():
            table = columns(self.k("get", resource, name).stdout)
            self.assertEqual(table[0], header, resource)
            self.assertEqual(table[1][:len(cells)], cells, resource)
        # Applying again changes nothing. kubectl still sends a PodDisruptionBudget's selector:
        # its patchStrategy is "replace", which strategicpatch's diff puts in every patch, so
        # kubectl says "configured" against a real apiserver too.
        again = self.k("apply", "-f", directory).stdout
        self.assertEqual(again.count("unchanged"), len(EXPECTED) - 1, again)
        self.assertIn("poddisruptionbudget.policy/web-pdb configured", again)
        # Wide columns of a workload.
        wide = columns(self.k("get", "replicasets", "-o", "wide").stdout)
        self.assertEqual(wide[0][5:], ["CONTAINERS", "IMAGES", "SELECTOR"])
        self.assertEqual(wide[1][5:], ["web", "nginx:1", "app=web"])
        # `kubectl get all` lists the "all" category's new members too.
        everything = self.k("get", "all").stdout
        for kind in ("replicaset.apps/web-rs", "statefulset.apps/web-sts", "daemonset.apps/web-ds",
                     "replicationcontroller/web-rc", "job.batch/once", "cronjob.batch/nightly",
                     "horizontalpodautoscaler.autoscaling/web-hpa"):
            self.assertIn(kind, everything)
        # Short names resolve through discovery.
        self.assertIn("web-sts", self.k("get", "sts").stdout)
        self.assertIn("deny-all", self.k("get", "netpol").stdout)

    def test_create_of_a_directory_reports_conflicts_per_object(self):
        directory = self.manifest_dir()
        self.k("create", "serviceaccount", "robot")
        result = self.k("create", "-f", directory, check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn('serviceaccounts "robot" already exists', result.stderr)
        self.assertIn("role.rbac.authorization.k8s.io/reader created", result.stdout)
        self.assertIn("web-ds", self.k("get", "ds").stdout)

    def test_imperative_creates(self):
        creates = [
            ("job", "hello", "--image=busybox"),
            ("cronjob", "tick", "--image=busybox", "--schedule=*/5 * * * *"),
            ("role", "pod-reader", "--verb=get,list", "--resource=pods"),
            ("rolebinding", "pod-reader", "--role=pod-reader", "--user=alice", "--serviceaccount=default:robot"),
            ("clusterrole", "node-reader", "--verb=get", "--resource=nodes"),
            ("clusterrolebinding", "node-reader", "--clusterrole=node-reader", "--group=ops"),
            ("serviceaccount", "robot"),
            ("quota", "small", "--hard=pods=3,cpu=1"),
            ("priorityclass", "high", "--value=1000", "--description=important"),
            ("ingress", "front", "--rule=web.example.com/=web:80"),
            ("poddisruptionbudget", "web", "--selector=app=web", "--min-available=50%"),
            ("service", "externalname", "outside", "--external-name=example.com"),
        ]
        for args in creates:
            out = self.k("create", *args).stdout
            self.assertIn("created", out, args)
        job = self.k("get", "job", "hello", "-o", "jsonpath={.spec.template.spec.containers[0].image} "
                     "{.spec.template.spec.restartPolicy} {.spec.selector.matchLabels}").stdout
        self.assertTrue(job.startswith("busybox Never "), job)
        self.assertIn("batch.kubernetes.io/controller-uid", job)
        binding = columns(self.k("get", "rolebinding", "pod-reader", "-o", "wide").stdout)
        self.assertEqual(binding[0], ["NAME", "ROLE", "AGE", "USERS", "GROUPS", "SERVICEACCOUNTS"])
        self.assertEqual(binding[1][1], "Role/pod-reader")
        self.assertEqual(binding[1][3:], ["alice", "default/robot"])
        self.assertEqual(self.k("get", "pdb", "web", "-o", "jsonpath={.spec.minAvailable}").stdout, "50%")
        self.assertEqual(self.k("get", "pc", "high", "-o", "jsonpath={.value}").stdout, "1000")
        # kubectl autoscale writes an autoscaling/v1 HPA (protobuf), stored as autoscaling/v2.
        self.k("create", "deployment", "web", "--image=nginx")
        self.assertIn("autoscaled", self.k("autoscale", "deployment", "web", "--max=5", "--cpu-percent=70").stdout)
        hpa = columns(self.k("get", "hpa", "web").stdout)
        self.assertEqual(hpa[1][1:6], ["Deployment/web", "cpu: <unknown>/70%", "1", "5", "0"])
        self.assertEqual(self.k("get", "horizontalpodautoscalers.v2.autoscaling", "web", "-o",
                                "jsonpath={.spec.metrics[0].resource.target.averageUtilization}").stdout, "70")
        self.assertEqual(self.k("get", "horizontalpodautoscalers.v1.autoscaling", "web", "-o",
                                "jsonpath={.spec.targetCPUUtilizationPercentage}").stdout, "70")
        # From a CronJob: a Job owned by it.
        self.k("create", "job", "manual", "--from=cronjob/tick")
        owner = self.k("get", "job", "manual", "-o", "jsonpath={.metadata.ownerReferences[0].kind}").stdout
        self.assertEqual(owner, "CronJob")

    def test_refused_objects_get_the_apiserver_messages(self):
        bad_job = self.write("""apiVersion: batch/v1
kind: Job
metadata: {name: bad}
spec:
  template:
    spec:
      containers: [{name: job, image: busybox}]
""")
        result = self.k("apply", "-f", bad_job, check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn('spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: '
                      '"OnFailure", "Never"', result.stderr)
        self.k("create", "deployment", "web", "--image=nginx")
        self.k("create", "-f", self.write(MANIFESTS["apps.yaml"]))
        patched = self.k("patch", "rs", "web-rs", "--type=merge", "-p",
                         '{"spec":{"selector":{"matchLabels":{"app":"other"}}}}', check=False)
        self.assertNotEqual(patched.returncode, 0)
        self.assertIn("field is immutable", patched.stderr)

    def test_scale_and_watch_a_replicaset(self):
        self.k("create", "-f", self.write(MANIFESTS["apps.yaml"]))
        watch = self.start_kubectl("get", "replicasets", "-w")
        try:
            reader = LineReader(watch)
            first = reader.until("web-rs")
            self.k("scale", "rs", "web-rs", "--replicas=4")
            seen = first + reader.until(" 4 ")
        finally:
            watch.terminate()
            watch.wait()
        rows = columns("\n".join(seen))
        self.assertEqual(rows[0], ["NAME", "DESIRED", "CURRENT", "READY", "AGE"])
        self.assertEqual(sum(1 for row in rows if row[0] == "NAME"), 1)
        self.assertEqual(self.k("get", "rs", "web-rs", "-o", "jsonpath={.spec.replicas}").stdout, "4")
        self.k("scale", "statefulset", "web-sts", "--replicas=3")
        self.assertEqual(self.k("get", "sts", "web-sts", "-o", "jsonpath={.spec.replicas}").stdout, "3")


class PythonCreateFromYaml(unittest.TestCase):
    DOCUMENTS = f"""apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  selector: {{matchLabels: {{app: web}}}}
  template:{POD_TEMPLATE}
---
apiVersion: v1
kind: Service
metadata: {{name: web}}
spec:
  selector: {{app: web}}
  ports: [{{port: 80}}]
---
{REPLICATION_CONTROLLER}---
{DAEMON_SET}---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: reader}}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get]
"""

    def setUp(self):
        from rvscope_server import RvscopeServer
        self.server = RvscopeServer(os.environ["RVSCOPE_BINARY"])
        configuration = client.Configuration()
        configuration.host = self.server.url
        self.api = client.ApiClient(configuration)
        handle = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        handle.write(self.DOCUMENTS)
        handle.close()
        self.path = handle.name

    def tearDown(self):
        os.unlink(self.path)
        self.assertEqual(self.server.stop(), 0)

    def test_multi_document_file(self):
        created = utils.create_from_yaml(self.api, self.path, namespace="default")
        kinds = [objects[0].kind for objects in created]
        self.assertEqual(kinds, ["Deployment", "Service", "ReplicationController", "DaemonSet", "Role"])
        self.assertEqual(client.AppsV1Api(self.api).read_namespaced_daemon_set("web-ds", "default")
                         .spec.update_strategy.type, "RollingUpdate")
        self.assertEqual(client.RbacAuthorizationV1Api(self.api).read_namespaced_role("reader", "default")
                         .rules[0].verbs, ["get"])
        # Again: every object conflicts, and each conflict is reported on its own.
        with self.assertRaises(utils.FailToCreateError) as failed:
            utils.create_from_yaml(self.api, self.path, namespace="default")
        statuses = [error.status for error in failed.exception.api_exceptions]
        self.assertEqual(statuses, [409] * 5)

    def test_autoscaling_v1_and_v2_are_one_object(self):
        autoscaling_v1 = client.AutoscalingV1Api(self.api)
        body = client.V1HorizontalPodAutoscaler(
            metadata=client.V1ObjectMeta(name="web"),
            spec=client.V1HorizontalPodAutoscalerSpec(
                scale_target_ref=client.V1CrossVersionObjectReference(kind="Deployment", name="web"),
                max_replicas=4, target_cpu_utilization_percentage=60))
        autoscaling_v1.create_namespaced_horizontal_pod_autoscaler("default", body)
        # Debian's client predates autoscaling/v2: read it untyped.
        v2 = self.api.call_api("/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web", "GET",
                               response_type="object", _return_http_data_only=True)
        self.assertEqual(v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], 60)
        read = autoscaling_v1.read_namespaced_horizontal_pod_autoscaler("web", "default")
        self.assertEqual((read.spec.target_cpu_utilization_percentage, read.status.current_replicas), (60, 0))


if __name__ == "__main__":
    unittest.main()
