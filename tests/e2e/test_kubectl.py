#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""kubectl 1.32 against a real `rvscope serve` (wire contract §9.3 commands)."""
import json
import os
import unittest

from rvscope_server import KubectlTestCase, LineReader


class KubectlEndToEnd(KubectlTestCase):
    def test_api_resources(self):
        out = self.k("api-resources").stdout
        for line in ("configmaps", "cm", "deployments", "deploy", "leases", "customresourcedefinitions"):
            self.assertIn(line, out)

    def test_create_get_json_and_yaml(self):
        path = self.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\ndata:\n  a: '1'\n")
        self.assertIn("configmap/foo created", self.k("create", "-f", path).stdout)
        obj = json.loads(self.k("get", "cm", "foo", "-o", "json").stdout)
        self.assertEqual(obj["data"], {"a": "1"})
        self.assertTrue(obj["metadata"]["resourceVersion"].isdigit())
        self.assertIn("name: foo", self.k("get", "configmap", "foo", "-o", "yaml").stdout)
        self.assertIn("foo", self.k("get", "configmaps").stdout)

    def test_imperative_creates_send_protobuf(self):
        self.k("create", "configmap", "pb", "--from-literal=a=1")
        self.k("create", "secret", "generic", "s", "--from-literal=p=secret")
        self.k("create", "namespace", "team")
        self.k("create", "deployment", "web", "--image=nginx:1.27", "-n", "team")
        self.k("run", "p1", "--image=nginx")
        self.assertEqual(json.loads(self.k("get", "cm", "pb", "-o", "json").stdout)["data"], {"a": "1"})
        self.assertEqual(json.loads(self.k("get", "secret", "s", "-o", "json").stdout)["data"], {"p": "c2VjcmV0"})
        deploy = json.loads(self.k("get", "deploy", "web", "-n", "team", "-o", "json").stdout)
        self.assertEqual(deploy["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.27")
        self.assertIn("p1", self.k("get", "pods").stdout)

    def test_replace_with_stale_resource_version_conflicts(self):
        self.k("create", "configmap", "foo", "--from-literal=a=1")
        stale = self.k("get", "cm", "foo", "-o", "json").stdout
        self.k("patch", "cm", "foo", "--type", "merge", "-p", '{"data":{"a":"2"}}')
        path = self.write(stale)
        result = self.k("replace", "-f", path, check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("the object has been modified; please apply your changes to the latest version", result.stderr)

    def test_apply_twice_and_unchanged(self):
        manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  x: '1'\n  y: '2'\n"
        self.assertIn("created", self.k("apply", "-f", self.write(manifest)).stdout)
        changed = manifest.replace("  y: '2'\n", "  z: '3'\n")
        self.assertIn("configured", self.k("apply", "-f", self.write(changed)).stdout)
        self.assertIn("unchanged", self.k("apply", "-f", self.write(changed)).stdout)
        self.assertEqual(json.loads(self.k("get", "cm", "app", "-o", "json").stdout)["data"], {"x": "1", "z": "3"})

    def test_unknown_fields_refused_warned_or_failing_apply(self):
        """A typo in a manifest, as kubectl 1.32 meets it on a real apiserver: create (it sends
        fieldValidation=Strict) refuses it, --validate=warn prints each field and stores the
        object without them, a server-side apply fails in its typed conversion (1.32's 500)."""
        manifest = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: typo\nspec:\n  replica: 3\n"
                    "  selector: {matchLabels: {app: t}}\n  template:\n    metadata: {labels: {app: t}}\n"
                    "    spec:\n      containers: [{name: c, image: nginx, imagePullPolicyy: Always}]\n")
        path = self.write(manifest)
        refused = self.k("create", "-f", path, check=False)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: '
                      'unknown field "spec.replica", unknown field "spec.template.spec.containers[0].imagePullPolicyy"',
                      refused.stderr)
        self.assertNotEqual(self.k("get", "deploy", "typo", check=False).returncode, 0)

        warned = self.k("create", "-f", path, "--validate=warn")
        self.assertIn('Warning: unknown field "spec.replica"', warned.stderr)
        self.assertIn('Warning: unknown field "spec.template.spec.containers[0].imagePullPolicyy"', warned.stderr)
        stored = json.loads(self.k("get", "deploy", "typo", "-o", "json").stdout)
        self.assertNotIn("replica", stored["spec"])
        self.assertEqual(stored["spec"]["replicas"], 1)  # defaulted: the typo set nothing
        self.assertNotIn("imagePullPolicyy", stored["spec"]["template"]["spec"]["containers"][0])

        applied = self.k("apply", "--server-side", "-f", path, "--validate=false", check=False)
        self.assertNotEqual(applied.returncode, 0)
        self.assertIn(".spec.replica: field not declared in schema", applied.stderr)

    def test_custom_resource_pruned_by_its_schema(self):
        """A custom resource keeps what its CRD's schema declares (and what it marks
        x-kubernetes-preserve-unknown-fields), as apiextensions prunes it."""
        crd = ("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n"
               "spec:\n  group: example.com\n  scope: Namespaced\n"
               "  names: {plural: widgets, singular: widget, kind: Widget}\n"
               "  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n"
               "        type: object\n        properties:\n          spec:\n            type: object\n"
               "            properties:\n              size: {type: integer}\n"
               "              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}\n")
        self.k("create", "-f", self.write(crd))
        widget = ("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
                  "spec: {size: 3, colour: red, extra: {anything: goes}}\n")
        path = self.write(widget)
        for _ in range(50):  # the new type is served once the CRD is established
            refused = self.k("create", "-f", path, check=False)
            if "the server doesn't have a resource type" not in refused.stderr and "no matches" not in refused.stderr:
                break
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn('strict decoding error: unknown field "spec.colour"', refused.stderr)
        warned = self.k("create", "-f", path, "--validate=warn")
        self.assertIn('Warning: unknown field "spec.colour"', warned.stderr)
        stored = json.loads(self.k("get", "widget", "w", "-o", "json").stdout)
        self.assertEqual(stored["spec"], {"size": 3, "extra": {"anything": "goes"}})

    def test_patch_types(self):
        self.k("create", "configmap", "foo", "--from-literal=a=1")
        self.k("patch", "cm", "foo", "--type", "merge", "-p", '{"data":{"m":"1"}}')
        self.k("patch", "cm", "foo", "--type", "json", "-p", '[{"op":"add","path":"/data/j","value":"2"}]')
        self.k("patch", "cm", "foo", "--type", "strategic", "-p", '{"data":{"s":"3"}}')
        data = json.loads(self.k("get", "cm", "foo", "-o", "json").stdout)["data"]
        self.assertEqual(data, {"a": "1", "m": "1", "j": "2", "s": "3"})

    def test_edit_with_scripted_editor(self):
        self.k("create", "configmap", "foo", "--from-literal=a=before")
        editor = self.write("#!/bin/sh\nsed -i 's/a: before/a: edited/' \"$1\"\n")
        os.chmod(editor, 0o755)
        self.k("edit", "cm", "foo", env={"EDITOR": editor, "KUBE_EDITOR": editor})
        self.assertEqual(json.loads(self.k("get", "cm", "foo", "-o", "json").stdout)["data"], {"a": "edited"})

    def test_diff_shows_pending_change(self):
        self.k("create", "configmap", "foo", "--from-literal=a=1")
        path = self.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\ndata:\n  a: '2'\n")
        result = self.k("diff", "-f", path, check=False)
        self.assertEqual(result.returncode, 1, result.stderr)  # 1: differences found
        self.assertIn("+  a: \"2\"", result.stdout)
        self.assertEqual(json.loads(self.k("get", "cm", "foo", "-o", "json").stdout)["data"], {"a": "1"})

    def test_delete_and_scale(self):
        self.k("create", "deployment", "web", "--image=nginx")
        self.assertIn("scaled", self.k("scale", "deploy", "web", "--replicas=3").stdout)
        self.assertEqual(self.k("get", "deploy", "web", "-o", "jsonpath={.spec.replicas}").stdout, "3")
        self.assertIn('deployment.apps "web" deleted', self.k("delete", "deploy", "web").stdout)
        self.assertNotEqual(self.k("get", "deploy", "web", check=False).returncode, 0)

    def test_get_watch_output_watch_events(self):
        self.k("create", "configmap", "foo", "--from-literal=a=1")
        watcher = self.start_kubectl("get", "cm", "foo", "-w", "--output-watch-events", "-o", "json")
        # Barriers instead of sleeps: the first event says the watch is open, the DELETED
        # one that everything before it arrived.
        reader = LineReader(watcher)
        lines = reader.until('"type":"ADDED"')
        self.k("patch", "cm", "foo", "--type", "merge", "-p", '{"data":{"a":"2"}}')
        self.k("delete", "cm", "foo")
        lines += reader.until('"type":"DELETED"')  # kubectl prints each event on one line
        watcher.terminate()
        _, err = watcher.communicate(timeout=10)
        out = "\n".join(lines)
        decoder = json.JSONDecoder()
        events, index = [], 0
        while index < len(out.strip()):
            event, end = decoder.raw_decode(out, index)
            events.append(event["type"])
            index = end
            while index < len(out) and out[index].isspace():
                index += 1
        self.assertEqual(events[-2:], ["MODIFIED", "DELETED"], out + err.decode())


if __name__ == "__main__":
    unittest.main(verbosity=2)
