#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What a new user meets first, with kubectl 1.32 and raw sockets against `rvscope serve`:
set-based label selectors (a query's '+' is a space), the system namespaces that may not
be deleted, Status bodies byte for byte as Go writes them, upstream's decode and patch
error texts, and the bound on a request's head."""
import json
import os
import socket
import unittest
import urllib.error
import urllib.request

from rvscope_server import KubectlTestCase, LineReader

VALID_POD = """apiVersion: v1
kind: Pod
metadata:
  name: valid-pod
  labels:
    name: valid-pod
spec:
  containers:
  - name: kubernetes-serve-hostname
    image: registry.k8s.io/serve_hostname
"""


class KubectlWire(KubectlTestCase):
    def raw(self, method, path, body=None, content_type="application/json"):
        request = urllib.request.Request(self.server.url + path, method=method, data=body,
                                         headers={"Content-Type": content_type} if body is not None else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def labelled_configmaps(self):
        for name, labels in (("a", ["name=valid-pod", "tier=web"]), ("b", ["name=other", "tier=db"]), ("c", [])):
            self.k("create", "configmap", name, "--from-literal=x=1")
            if labels:
                self.k("label", "configmap", name, *labels)

    def names(self, *selector_args):
        out = self.k("get", "configmaps", *selector_args, "-o", "jsonpath={.items[*].metadata.name}").stdout
        return sorted(out.split())

    # --- 2. set-based selectors -------------------------------------------------------------

    def test_set_based_selectors_on_get(self):
        self.labelled_configmaps()
        # kubectl sends labelSelector=name+in+%28valid-pod%29: '+' is a space in a query.
        self.assertEqual(self.names("-l", "name in (valid-pod)"), ["a"])
        self.assertEqual(self.names("-l", "name in (valid-pod,other)"), ["a", "b"])
        self.assertEqual(self.names("-l", "name notin (valid-pod)"), ["b", "c"])
        self.assertEqual(self.names("-l", "tier"), ["a", "b"])
        self.assertEqual(self.names("-l", "!tier"), ["c"])
        self.assertEqual(self.names("-l", "tier in (web, db),name notin (other)"), ["a"])
        self.assertEqual(self.names("--field-selector", "metadata.name=b"), ["b"])

    def test_set_based_selector_on_pods_as_in_the_issue(self):
        self.k("create", "-f", self.write(VALID_POD))
        out = self.k("get", "pods", "-l", "name in (valid-pod)", "-o", "name").stdout
        self.assertEqual(out.strip(), "pod/valid-pod")

    def test_set_based_selectors_on_delete(self):
        self.labelled_configmaps()
        out = self.k("delete", "configmaps", "-l", "name notin (valid-pod),tier").stdout
        self.assertIn('configmap "b" deleted', out)
        self.assertNotIn('"a"', out)
        self.assertIn('configmap "a" deleted', self.k("delete", "configmaps", "-l", "name in (valid-pod)").stdout)
        self.assertEqual(self.names("-l", "tier"), [])
        self.assertIn("c", self.names())

    def test_set_based_selector_on_get_watch(self):
        watcher = self.start_kubectl("get", "configmaps", "-w", "-l", "name in (valid-pod),!excluded", "-o", "name")
        try:
            reader = LineReader(watcher)
            # Objects the selector leaves out come first; the one it selects is the barrier:
            # once it arrives, nothing left out may have.
            self.k("create", "configmap", "other", "--from-literal=x=1")
            self.k("label", "configmap", "other", "name=other")
            self.k("create", "configmap", "excluded", "--from-literal=x=1")
            self.k("label", "configmap", "excluded", "name=valid-pod", "excluded=yes")
            self.k("create", "configmap", "selected", "--from-literal=x=1")
            self.k("label", "configmap", "selected", "name=valid-pod")
            lines = reader.until("configmap/selected")
            self.assertEqual([line for line in lines if line.strip()], ["configmap/selected"])
        finally:
            watcher.terminate()
            watcher.communicate(timeout=10)

    # --- 3. the system namespaces -----------------------------------------------------------

    def test_system_namespaces_may_not_be_deleted(self):
        self.k("create", "namespace", "scratch")
        self.k("create", "configmap", "keep", "-n", "default", "--from-literal=x=1")
        result = self.k("delete", "namespace", "--all", check=False)
        self.assertNotEqual(result.returncode, 0)
        for name in ("default", "kube-system", "kube-public"):
            self.assertIn(f'Error from server (Forbidden): namespaces "{name}" is forbidden: '
                          f'this namespace may not be deleted', result.stderr)
        self.assertIn('namespace "scratch" deleted', result.stdout)
        remaining = self.k("get", "namespaces", "-o", "jsonpath={.items[*].metadata.name}").stdout.split()
        for name in ("default", "kube-system", "kube-public"):
            self.assertIn(name, remaining)
        self.assertNotIn("scratch", remaining)
        # What was in them is still there.
        self.assertEqual(self.k("get", "configmap", "keep", "-n", "default", "-o", "name").stdout.strip(),
                         "configmap/keep")
        status, body = self.raw("DELETE", "/api/v1/namespaces/kube-system")
        self.assertEqual(status, 403)
        self.assertEqual(json.loads(body)["details"], {"name": "kube-system", "kind": "namespaces"})

    # --- 4. bodies as Go writes them ----------------------------------------------------------

    def test_status_bodies_in_go_field_order_with_newline(self):
        status, body = self.raw("GET", "/api/v1/namespaces/default/configmaps/nope")
        self.assertEqual(status, 404)
        self.assertEqual(body, b'{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",'
                               b'"message":"configmaps \\"nope\\" not found","reason":"NotFound",'
                               b'"details":{"name":"nope","kind":"configmaps"},"code":404}\n')
        self.k("create", "configmap", "foo", "--from-literal=x=1")
        stale = b'{"metadata":{"name":"foo","resourceVersion":"1"},"data":{"x":"2"}}'
        status, body = self.raw("PUT", "/api/v1/namespaces/default/configmaps/foo", stale)
        self.assertEqual(status, 409)
        self.assertTrue(body.startswith(b'{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",'
                                        b'"message":"Operation cannot be fulfilled on configmaps \\"foo\\": '), body)
        self.assertTrue(body.endswith(b'"reason":"Conflict","details":{"name":"foo","kind":"configmaps"},'
                                      b'"code":409}\n'), body)
        status, body = self.raw("DELETE", "/api/v1/namespaces/default/configmaps/foo")
        self.assertEqual(status, 200)
        self.assertRegex(body, rb'^\{"kind":"Status","apiVersion":"v1","metadata":\{\},"status":"Success",'
                               rb'"details":\{"name":"foo","kind":"configmaps","uid":"[0-9a-f-]+"\}\}\n$')

    def test_list_and_object_bodies_end_with_newline(self):
        self.k("create", "configmap", "foo", "--from-literal=x=1")
        status, body = self.raw("GET", "/api/v1/namespaces/default/configmaps?limit=1")
        self.assertEqual(status, 200)
        self.assertTrue(body.startswith(b'{"kind":"ConfigMapList","apiVersion":"v1","metadata":'
                                        b'{"resourceVersion":"'), body)
        self.assertTrue(body.endswith(b"]}\n"), body[-40:])
        status, body = self.raw("GET", "/api/v1/namespaces/default/configmaps/foo")
        self.assertEqual(status, 200)
        self.assertTrue(body.endswith(b"}\n") and not body.endswith(b"\n\n"))

    def test_decode_errors_as_upstream_words_them(self):
        # test-cmd's "Posting a pod to namespaces should fail": the YAML goes as it is.
        result = self.k("create", "--raw", "/api/v1/namespaces", "-f", self.write(VALID_POD), check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; "
                      "json parse error: invalid character 'a' looking for beginning of value "
                      "(61706956657273696f6e3a2076310a6b696e643a20506f640a6d65746164 ...)", result.stderr)
        status, body = self.raw("POST", "/api/v1/namespaces", b'["a"]')
        self.assertEqual(status, 400)
        self.assertEqual(json.loads(body)["message"],
                         "the object provided is unrecognized (must be of type Namespace): couldn't get "
                         "version/kind; json parse error: json: cannot unmarshal array into Go value of type "
                         'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string '
                         '"json:\\"kind,omitempty\\"" } (5b2261225d)')

    def test_patch_type_errors_as_upstream_words_them(self):
        self.k("create", "-f", self.write(VALID_POD))
        # test-cmd: "Patch fails with type restore error and exit code 1".
        result = self.k("patch", "pod", "valid-pod", "-p", '{"metadata":{"labels":"invalid"}}', check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("cannot restore map from string", result.stderr)
        status, body = self.raw("PATCH", "/api/v1/namespaces/default/pods/valid-pod",
                                b'{"metadata":{"labels":"invalid"}}', "application/strategic-merge-patch+json")
        self.assertEqual(status, 422)
        self.assertEqual(json.loads(body)["message"],
                         ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": '
                         'cannot restore map from string')
        status, body = self.raw("PATCH", "/api/v1/namespaces/default/pods/valid-pod",
                                b'{"metadata":{"labels":"invalid"}}', "application/merge-patch+json")
        self.assertEqual(status, 422)
        self.assertIn("json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels",
                      json.loads(body)["message"])
        status, body = self.raw("PATCH", "/api/v1/namespaces/default/pods/valid-pod", b"{nope",
                                "application/strategic-merge-patch+json")
        self.assertEqual((status, json.loads(body)["message"]),
                         (400, "invalid character 'n' looking for beginning of object key string"))
        # Nothing was lost: the pod is as it was.
        self.assertEqual(self.k("get", "pod", "valid-pod", "-o", "jsonpath={.metadata.labels.name}").stdout,
                         "valid-pod")

    # --- 5. the request head ------------------------------------------------------------------

    def exchange(self, data):
        """Sends `data` on a fresh connection; returns everything until the server closes it."""
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=10) as connection:
            connection.sendall(data)
            received = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    return received
                received += chunk

    def test_request_head_is_bounded_as_go_bounds_it(self):
        long_line = b"GET /api/v1/namespaces/" + b"a" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n"
        answer = self.exchange(long_line)
        self.assertTrue(answer.startswith(b"HTTP/1.1 414 "), answer[:200])
        self.assertIn(b'"reason":"RequestURITooLong"', answer)
        big_headers = b"GET /version HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * (200 << 10) + b"\r\n\r\n"
        answer = self.exchange(big_headers)
        self.assertTrue(answer.startswith(b"HTTP/1.1 431 "), answer[:200])
        self.assertIn(b'"reason":"RequestHeaderFieldsTooLarge"', answer)
        # The server goes on serving, and kept what it had.
        self.k("create", "configmap", "after", "--from-literal=x=1")
        self.assertEqual(self.k("get", "configmap", "after", "-o", "name").stdout.strip(), "configmap/after")


if __name__ == "__main__":
    unittest.main(verbosity=2)
