#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates KubectlCreateBodies.h: real kubectl request bodies for the protobuf decode tests.

kubectl 1.32's imperative `create` commands send Kubernetes protobuf. This script runs each
command of CASES twice against a throwaway stub apiserver on 127.0.0.1 (it answers discovery,
serves the CronJob that `create job --from` reads, records every POST and refuses it):
  * as given, to record the protobuf body kubectl POSTs;
  * with `--dry-run=client -o json`, which prints the same typed Go object with encoding/json,
    i.e. the JSON body the command would have sent as JSON.
Not run by ctest (it needs kubectl); run it by hand after changing CASES:
    python3 tests/api/protobuf/capture_kubectl_bodies.py [--kubectl PATH]
"""
import argparse
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "KubectlCreateBodies.h")
PROTOBUF = "application/vnd.kubernetes.protobuf"

# Served for `create job --from=cronjob/nightly`: kubectl copies jobTemplate.spec into the Job,
# so the Job's protobuf then carries most JobSpec fields and the PodSpec fields set here.
NIGHTLY_CRONJOB = {
    "kind": "CronJob", "apiVersion": "batch/v1",
    "metadata": {"name": "nightly", "namespace": "default", "uid": "5b1f7a3c-1111-4222-8333-444455556666",
                 "resourceVersion": "17", "creationTimestamp": "2025-01-02T03:04:05Z"},
    "spec": {
        "schedule": "0 3 * * *",
        "jobTemplate": {
            "metadata": {"labels": {"team": "data"}, "annotations": {"owner": "ops"}},
            "spec": {
                "parallelism": 2, "completions": 4, "activeDeadlineSeconds": 3600, "backoffLimit": 3,
                "backoffLimitPerIndex": 1, "maxFailedIndexes": 2, "completionMode": "Indexed",
                "suspend": False, "ttlSecondsAfterFinished": 0, "manualSelector": False,
                "podReplacementPolicy": "Failed", "managedBy": "example.com/batch",
                "selector": {"matchExpressions": [{"key": "team", "operator": "Exists"}]},
                "podFailurePolicy": {"rules": [
                    {"action": "FailJob",
                     "onExitCodes": {"containerName": "main", "operator": "In", "values": [42, 43]}},
                    {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                    {"action": "Count", "onExitCodes": {"operator": "NotIn", "values": [0]}}]},
                "successPolicy": {"rules": [{"succeededIndexes": "0-2", "succeededCount": 1}, {"succeededCount": 3}]},
                "template": {
                    "metadata": {"labels": {"team": "data"}},
                    "spec": {
                        "restartPolicy": "Never", "serviceAccountName": "batch", "terminationGracePeriodSeconds": 10,
                        "volumes": [{"name": "scratch", "emptyDir": {}}],
                        "containers": [{
                            "name": "main", "image": "busybox:1.36", "command": ["sh", "-c"], "args": ["date; sleep 1"],
                            "env": [{"name": "MODE", "value": "nightly"}],
                            "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}},
                            "volumeMounts": [{"name": "scratch", "mountPath": "/scratch"}],
                            "imagePullPolicy": "IfNotPresent"}]}}}}},
    "status": {}}

CASES = [
    ["create", "job", "hello", "--image=busybox"],
    ["create", "job", "hello-cmd", "--image=busybox", "-n", "team-a", "--", "sh", "-c", "echo hi"],
    ["create", "job", "nightly-manual", "--from=cronjob/nightly"],
    ["create", "cronjob", "ticker", "--image=busybox", "--schedule=*/5 * * * *", "--restart=OnFailure", "--", "date"],
    ["create", "cronjob", "hourly", "--image=busybox", "--schedule=@hourly"],
    ["create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods,deployments.apps,pods/log",
     "--resource-name=a", "--resource-name=b"],
    ["create", "clusterrole", "node-reader", "--verb=get,list", "--resource=nodes"],
    ["create", "clusterrole", "health", "--verb=get", "--non-resource-url=/healthz", "--non-resource-url=/logs/*"],
    ["create", "clusterrole", "monitoring", "--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true,tier=x"],
    ["create", "rolebinding", "readers", "--role=pod-reader", "--user=alice", "--group=devs",
     "--serviceaccount=default:robot"],
    ["create", "rolebinding", "viewers", "--clusterrole=view", "--user=bob"],
    ["create", "clusterrolebinding", "admins", "--clusterrole=cluster-admin", "--user=root",
     "--group=system:masters", "--serviceaccount=kube-system:default"],
    ["create", "serviceaccount", "robot"],
    ["create", "quota", "compute", "--hard=cpu=1,memory=1G,pods=2,services=3", "--scopes=BestEffort,NotTerminating"],
    ["create", "quota", "empty"],
    ["create", "priorityclass", "high", "--value=1000", "--description=high priority", "--global-default",
     "--preemption-policy=Never"],
    ["create", "priorityclass", "low", "--value=0"],
    ["create", "ingress", "simple", "--rule=foo.com/bar=svc1:8080,tls=my-cert"],
    ["create", "ingress", "multi", "--class=nginx", "--default-backend=defsvc:http",
     "--rule=foo.com/path*=svc:8080", "--rule=bar.com/admin*=svc2:http,tls", "--rule=/exact=svc3:80",
     "--annotation=ingress.kubernetes.io/rewrite-target=/"],
    ["create", "poddisruptionbudget", "web-min", "--selector=app=web", "--min-available=50%"],
    ["create", "poddisruptionbudget", "web-max", "--selector=app=web,tier in (a,b)", "--max-unavailable=1"],
    ["create", "pdb", "web-two", "--selector=app=web", "--min-available=2"],
    ["create", "service", "clusterip", "headless", "--clusterip=None"],
    ["create", "service", "clusterip", "multi", "--tcp=80:8080,443:https"],
    ["create", "service", "nodeport", "np", "--tcp=80:8080", "--node-port=30080"],
    ["create", "service", "loadbalancer", "lb", "--tcp=443:8443"],
    ["create", "service", "externalname", "ext", "--external-name=example.com", "--tcp=80"],
    ["create", "service", "externalname", "ext-bare", "--external-name=db.example.com"],
]


def resource(name, kind, namespaced):
    return {"name": name, "singularName": kind.lower(), "namespaced": namespaced, "kind": kind,
            "verbs": ["create", "get", "list"]}


DISCOVERY = {
    "v1": [resource("pods", "Pod", True), resource("services", "Service", True),
           resource("serviceaccounts", "ServiceAccount", True), resource("resourcequotas", "ResourceQuota", True),
           resource("namespaces", "Namespace", False), resource("nodes", "Node", False)],
    "apps/v1": [resource("deployments", "Deployment", True)],
    "batch/v1": [resource("jobs", "Job", True), resource("cronjobs", "CronJob", True)],
    "rbac.authorization.k8s.io/v1": [resource("roles", "Role", True), resource("clusterroles", "ClusterRole", False),
                                     resource("rolebindings", "RoleBinding", True),
                                     resource("clusterrolebindings", "ClusterRoleBinding", False)],
    "scheduling.k8s.io/v1": [resource("priorityclasses", "PriorityClass", False)],
    "networking.k8s.io/v1": [resource("ingresses", "Ingress", True)],
    "policy/v1": [resource("poddisruptionbudgets", "PodDisruptionBudget", True)],
}


class StubApiServer(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    posts = []

    def log_message(self, *args):
        pass

    def answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0].rstrip("/")
        if path == "/api":
            return self.answer(200, {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
                {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]})
        if path == "/apis":
            groups = [{"name": gv.split("/")[0], "versions": [{"groupVersion": gv, "version": gv.split("/")[1]}],
                       "preferredVersion": {"groupVersion": gv, "version": gv.split("/")[1]}}
                      for gv in DISCOVERY if gv != "v1"]
            return self.answer(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
        for gv, resources in DISCOVERY.items():
            if path == ("/api/v1" if gv == "v1" else "/apis/" + gv):
                return self.answer(200, {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv,
                                         "resources": resources})
        if path == "/apis/batch/v1/namespaces/default/cronjobs/nightly":
            return self.answer(200, NIGHTLY_CRONJOB)
        self.answer(404, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        StubApiServer.posts.append((self.headers.get("Content-Type"), body))
        self.answer(422, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": "recorded",
                          "reason": "Invalid", "code": 422})


def with_dry_run(args):
    flags = ["--dry-run=client", "-o", "json"]
    if "--" in args:
        at = args.index("--")
        return args[:at] + flags + args[at:]
    return args + flags


def capture(kubectl, environment, args):
    StubApiServer.posts.clear()
    subprocess.run([kubectl] + args, env=environment, capture_output=True, check=False)
    if len(StubApiServer.posts) != 1:
        sys.exit(f"{' '.join(args)}: expected one POST, saw {len(StubApiServer.posts)}")
    content_type, body = StubApiServer.posts[0]
    if content_type != PROTOBUF:
        sys.exit(f"{' '.join(args)}: body was {content_type}, not protobuf")
    printed = subprocess.run([kubectl] + with_dry_run(args), env=environment, capture_output=True, check=True)
    expected = json.dumps(json.loads(printed.stdout), separators=(",", ":"))
    return body.hex(), expected


def cpp_string_lines(text, width, indent):
    # Plain literals (moc does not parse raw strings), one chunk each; adjacent literals join.
    return "\n".join(indent + json.dumps(text[i:i + width]) for i in range(0, len(text), width))


def shell_words(args):
    return " ".join(a if a and all(c.isalnum() or c in "-_=.,:/%@" for c in a) else "'" + a + "'" for a in args)


def write_header(rows, version):
    out = ["// SPDX-License-Identifier: MIT",
           "// Generated by capture_kubectl_bodies.py from " + version + "; do not edit, rerun the script.",
           "// Each row: a kubectl imperative create command, the protobuf body it POSTed (hex), and the",
           "// JSON the same command prints with --dry-run=client -o json (the JSON body it would send).",
           "#pragma once", "", "namespace protobuf_test {", "",
           "struct KubectlCreateBody final {",
           "    const char *command;",
           "    const char *hex;",
           "    const char *expectedJson;",
           "};", "",
           "inline constexpr KubectlCreateBody KUBECTL_CREATE_BODIES[] = {"]
    for command, hex_body, expected in rows:
        out.append("    {" + json.dumps("kubectl " + command) + ",")
        out.append(cpp_string_lines(hex_body, 96, "     ") + ",")
        out.append(cpp_string_lines(expected, 96, "     ") + "},")
    out += ["};", "", "} // namespace protobuf_test", ""]
    with open(OUTPUT, "w") as f:
        f.write("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubectl", default="kubectl")
    kubectl = parser.parse_args().kubectl
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StubApiServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as home:
        config = os.path.join(home, "kubeconfig")
        with open(config, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "Config", "current-context": "stub",
                       "clusters": [{"name": "stub", "cluster": {"server": f"http://127.0.0.1:{server.server_port}"}}],
                       "contexts": [{"name": "stub", "context": {"cluster": "stub", "user": "stub",
                                                                 "namespace": "default"}}],
                       "users": [{"name": "stub", "user": {}}]}, f)
        environment = dict(os.environ, KUBECONFIG=config, HOME=home)
        version = subprocess.run([kubectl, "version", "--client", "-o", "json"], env=environment,
                                 capture_output=True, check=True)
        version = "kubectl " + json.loads(version.stdout)["clientVersion"]["gitVersion"]
        rows = [(shell_words(args),) + capture(kubectl, environment, args) for args in CASES]
    server.shutdown()
    write_header(rows, version)
    print(f"wrote {len(rows)} bodies to {OUTPUT}")


if __name__ == "__main__":
    main()
