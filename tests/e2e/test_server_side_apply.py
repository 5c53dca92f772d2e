#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Server-side apply and managedFields through kubectl 1.32 and the Python client against
`rvscope serve`: each kubectl command leaves its manager; apply creates, updates, conflicts
with another field manager (409, the apiserver's message) and takes fields with
--force-conflicts; a field the applier stops sending goes unless someone else owns it; two
managers share a Deployment's container field by field."""
import json
import os
import unittest

import kubernetes
from kubernetes.client.rest import ApiException

from manifests import WIDGET_CRD
from rvscope_server import KubectlTestCase

CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: shared
  namespace: default
data:
{data}
"""

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  selector:
    matchLabels: {{app: web}}
  template:
    metadata:
      labels: {{app: web}}
    spec:
      containers:
      - name: app
{container}
"""


def configmap(**data):
    return CONFIGMAP.format(data="\n".join(f"  {key}: {json.dumps(value)}" for key, value in data.items()))


class ServerSideApply(KubectlTestCase):
    def managers(self, *args):
        return self.k("get", *args, "-o", "jsonpath={.metadata.managedFields[*].manager}").stdout.split()

    def apply(self, manager, manifest, *flags, check=True):
        return self.k("apply", "--server-side", f"--field-manager={manager}", *flags, "-f", self.write(manifest),
                      check=check)

    def entries(self, *args):
        obj = json.loads(self.k("get", *args, "-o", "json", "--show-managed-fields").stdout)
        return {(e["manager"], e["operation"]): e for e in obj["metadata"]["managedFields"]}

    def test_each_kubectl_command_leaves_its_manager(self):
        self.k("create", "configmap", "settings", "--from-literal=a=1")
        self.assertEqual(self.managers("configmap", "settings"), ["kubectl-create"])
        self.k("label", "configmap", "settings", "env=prod")
        self.k("annotate", "configmap", "settings", "note=x")
        self.k("patch", "configmap", "settings", "-p", '{"data":{"b":"2"}}')
        replaced = json.loads(self.k("get", "configmap", "settings", "-o", "json").stdout)
        replaced["data"]["c"] = "3"
        self.k("replace", "-f", self.write(json.dumps(replaced)))
        self.k("edit", "configmap", "settings", env={"KUBE_EDITOR": "sed -i -e s/prod/staging/"})
        self.assertEqual(sorted(self.managers("configmap", "settings")),
                         ["kubectl-annotate", "kubectl-create", "kubectl-edit", "kubectl-label", "kubectl-patch",
                          "kubectl-replace"])
        entries = self.entries("configmap", "settings")
        self.assertEqual(entries[("kubectl-create", "Update")]["fieldsV1"], {"f:data": {".": {}, "f:a": {}}})
        # The label's value changed by edit: now kubectl-edit's; kubectl-label keeps only the
        # labels map it created.
        self.assertEqual(entries[("kubectl-edit", "Update")]["fieldsV1"], {"f:metadata": {"f:labels": {"f:env": {}}}})
        self.assertEqual(entries[("kubectl-label", "Update")]["fieldsV1"], {"f:metadata": {"f:labels": {}}})
        self.assertEqual(entries[("kubectl-replace", "Update")]["apiVersion"], "v1")
        self.assertTrue(entries[("kubectl-replace", "Update")]["time"].endswith("Z"))
        # kubectl hides managedFields unless asked.
        self.assertNotIn("managedFields", self.k("get", "configmap", "settings", "-o", "yaml").stdout)

    def test_apply_creates_conflicts_and_forces(self):
        created = self.apply("alice", configmap(owner="alice", color="red"))
        self.assertIn("configmap/shared serverside-applied", created.stdout)
        self.assertEqual(self.managers("configmap", "shared"), ["alice"])
        self.assertEqual(self.entries("configmap", "shared")[("alice", "Apply")]["fieldsV1"],
                         {"f:data": {"f:color": {}, "f:owner": {}}})

        refused = self.apply("bob", configmap(owner="bob"), check=False)
        self.assertEqual(refused.returncode, 1)
        self.assertIn('error: Apply failed with 1 conflict: conflict with "alice": .data.owner', refused.stderr)
        self.assertIn("--force-conflicts", refused.stderr)
        data = json.loads(self.k("get", "configmap", "shared", "-o", "json").stdout)["data"]
        self.assertEqual(data, {"owner": "alice", "color": "red"})

        self.apply("bob", configmap(owner="bob"), "--force-conflicts")
        entries = self.entries("configmap", "shared")
        self.assertEqual(entries[("bob", "Apply")]["fieldsV1"], {"f:data": {"f:owner": {}}})
        self.assertEqual(entries[("alice", "Apply")]["fieldsV1"], {"f:data": {"f:color": {}}})

    def test_a_field_the_applier_stops_sending(self):
        self.apply("alice", configmap(a="1", b="2"))
        self.apply("bob", configmap(b="2"))  # the same value: shared, no conflict
        self.apply("alice", configmap(c="3"))
        data = json.loads(self.k("get", "configmap", "shared", "-o", "json").stdout)["data"]
        self.assertEqual(data, {"b": "2", "c": "3"})  # a went (alice's alone); b stays (bob's too)

    def test_client_side_apply_migrates_to_server_side(self):
        # kubectl 1.32's csaupgrade: after an apply, a JSON patch moves the client-side
        # applier's fields to the server-side manager (objects keep fieldsV1 as raw text,
        # which a JSON patch of managedFields must still reach).
        manifest = self.write(configmap(a="1", b="2"))
        self.k("apply", "-f", manifest)
        self.assertEqual(self.managers("configmap", "shared"), ["kubectl-client-side-apply"])
        self.k("apply", "--server-side", "-f", manifest)
        entries = self.entries("configmap", "shared")
        self.assertEqual(set(entries), {("kubectl", "Apply"), ("kubectl-last-applied", "Apply")})
        self.assertEqual(entries[("kubectl", "Apply")]["fieldsV1"], {"f:data": {"f:a": {}, "f:b": {}}})
        # Now a field kubectl stops applying goes, as it would on a real apiserver.
        self.k("apply", "--server-side", "-f", self.write(configmap(a="1")))
        data = json.loads(self.k("get", "configmap", "shared", "-o", "json").stdout)["data"]
        self.assertEqual(data, {"a": "1"})

    def test_a_custom_resources_keyed_list_merges_item_by_item(self):
        # The CRD's schema marks spec.parts as a map keyed by name: two managers each own
        # their item, and a third's different value for alice's item is a conflict on it.
        self.k("apply", "-f", self.write(WIDGET_CRD))
        widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w, namespace: default}}\n" \
                 "spec:\n  parts: [{part}]\n"
        self.apply("alice", widget.format(part="{name: a, size: 1}"))
        self.apply("bob", widget.format(part="{name: b, size: 2}"))
        parts = json.loads(self.k("get", "widget", "w", "-o", "json").stdout)["spec"]["parts"]
        self.assertEqual(parts, [{"name": "a", "size": 1}, {"name": "b", "size": 2}])
        entries = self.entries("widget", "w")
        self.assertEqual(entries[("bob", "Apply")]["fieldsV1"],
                         {"f:spec": {"f:parts": {'k:{"name":"b"}': {".": {}, "f:name": {}, "f:size": {}}}}})
        refused = self.apply("carol", widget.format(part="{name: a, size: 9}"), check=False)
        self.assertIn('conflict with "alice": .spec.parts[name="a"].size', refused.stderr)

    def test_cleared_managed_fields_and_the_first_apply(self):
        # The documented way to clear managedFields leaves the object untracked; its first
        # apply finds everything owned by "before-first-apply".
        self.k("create", "configmap", "shared", "--from-literal=owner=ops")
        self.k("patch", "configmap", "shared", "--type=json",
               "-p", '[{"op":"replace","path":"/metadata/managedFields","value":[{}]}]')
        self.assertEqual(self.managers("configmap", "shared"), [])
        self.k("label", "configmap", "shared", "tier=web")  # an update of an untracked object
        self.assertEqual(self.managers("configmap", "shared"), [])
        refused = self.apply("alice", configmap(owner="alice"), check=False)
        self.assertIn('conflict with "before-first-apply" using v1: .data.owner', refused.stderr)
        self.apply("alice", configmap(owner="alice"), "--force-conflicts")
        entries = self.entries("configmap", "shared")
        self.assertEqual(entries[("alice", "Apply")]["fieldsV1"], {"f:data": {"f:owner": {}}})
        self.assertIn("f:labels", entries[("before-first-apply", "Update")]["fieldsV1"]["f:metadata"])

    def test_a_scale_write_is_recorded_under_its_subresource(self):
        self.k("create", "deployment", "web", "--image=nginx")
        self.k("scale", "deployment", "web", "--replicas=3")
        entries = json.loads(self.k("get", "deployment", "web", "-o", "json", "--show-managed-fields").stdout)
        scaled = [e for e in entries["metadata"]["managedFields"] if e.get("subresource") == "scale"]
        self.assertEqual(len(scaled), 1)
        self.assertEqual((scaled[0]["operation"], scaled[0]["apiVersion"]), ("Update", "apps/v1"))
        self.assertEqual(scaled[0]["fieldsV1"], {"f:spec": {"f:replicas": {}}})

    def test_two_managers_share_a_container_field_by_field(self):
        self.apply("alice", DEPLOYMENT.format(container="        image: nginx:1"))
        self.apply("bob", DEPLOYMENT.format(container="        env: [{name: MODE, value: fast}]"))
        deployment = json.loads(self.k("get", "deployment", "web", "-o", "json").stdout)
        container = deployment["spec"]["template"]["spec"]["containers"][0]
        self.assertEqual((container["image"], container["env"]), ("nginx:1", [{"name": "MODE", "value": "fast"}]))
        refused = self.apply("bob", DEPLOYMENT.format(container="        image: nginx:2"), check=False)
        self.assertIn('conflict with "alice": .spec.template.spec.containers[name="app"].image', refused.stderr)

    def test_the_python_client_applies_yaml_and_gets_the_conflict(self):
        configuration = kubernetes.client.Configuration()
        configuration.host = self.server.url
        client = kubernetes.client.ApiClient(configuration)
        path = "/api/v1/namespaces/default/configmaps/shared"

        def apply(manager, body, force=None):
            query = [("fieldManager", manager)] + ([("force", force)] if force is not None else [])
            return client.call_api(path, "PATCH", query_params=query, body=body, response_type="object",
                                   header_params={"Content-Type": "application/apply-patch+yaml"},
                                   _return_http_data_only=True)

        created = apply("alice", configmap(owner="alice"))
        self.assertEqual(created["data"], {"owner": "alice"})
        with self.assertRaises(ApiException) as refused:
            apply("bob", json.dumps({"apiVersion": "v1", "kind": "ConfigMap",
                                     "metadata": {"name": "shared", "namespace": "default"}, "data": {"owner": "bob"}}))
        self.assertEqual(refused.exception.status, 409)
        status = json.loads(refused.exception.body)
        self.assertEqual(status["reason"], "Conflict")
        self.assertEqual(status["details"]["causes"],
                         [{"reason": "FieldManagerConflict", "message": 'conflict with "alice"', "field": ".data.owner"}])
        forced = apply("bob", configmap(owner="bob"), force=True)  # sent as force=True
        self.assertEqual(forced["data"], {"owner": "bob"})

    def test_a_status_write_is_recorded_under_its_subresource(self):
        import urllib.request
        self.k("create", "deployment", "web", "--image=nginx")
        request = urllib.request.Request(
            self.server.url + "/apis/apps/v1/namespaces/default/deployments/web/status", method="PATCH",
            data=b'{"status":{"replicas":1}}',
            headers={"Content-Type": "application/merge-patch+json", "User-Agent": "kube-controller-manager/v1.32.0"})
        with urllib.request.urlopen(request, timeout=10) as response:
            entries = json.loads(response.read())["metadata"]["managedFields"]
        status = [e for e in entries if e["manager"] == "kube-controller-manager"]
        self.assertEqual([(e["operation"], e.get("subresource"), e["fieldsV1"]) for e in status],
                         [("Update", "status", {"f:status": {"f:replicas": {}}})])

    def test_apply_needs_a_field_manager(self):
        import urllib.request
        request = urllib.request.Request(self.server.url + "/api/v1/namespaces/default/configmaps/shared", method="PATCH",
                                         data=configmap(a="1").encode(),
                                         headers={"Content-Type": "application/apply-patch+yaml"})
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        self.assertEqual(refused.exception.code, 422)
        status = json.loads(refused.exception.read())
        self.assertEqual(status["message"], 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: '
                                            'is required for apply patch')


if __name__ == "__main__":
    unittest.main()
