#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Access control end to end: `rvscope serve` over TLS with a token file and a policy, kubectl
with bearer tokens, and the node authorizer closing a kubelet's secret watch (ERROR 403)
when the pod that referenced the secret goes away."""
import json
import os
import ssl
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from rvscope_server import BulkSession, RvscopeServer, kubectl

BINARY = os.environ["RVSCOPE_BINARY"]

TOKENS = '''admin-token,admin,1,"system:masters"
alice-token,alice,2,devs
node-token,system:node:n1,3,system:nodes
'''

POLICY = {"rules": [
    {"users": ["admin"], "verbs": ["*"], "resources": ["*"]},
    {"groups": ["devs"], "verbs": ["get", "list", "watch"], "resources": ["configmaps"], "namespaces": ["default"]},
]}

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
       "spec": {"nodeName": "n1", "containers": [{"name": "app", "image": "nginx"}],
                "volumes": [{"name": "creds", "secret": {"secretName": "s1"}}]}}


class AccessEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="rvscope-access-")
        cls.cert = os.path.join(cls.dir, "cert.pem")
        cls.key = os.path.join(cls.dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", cls.key, "-out",
                        cls.cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        cls.tokens = os.path.join(cls.dir, "tokens.csv")
        with open(cls.tokens, "w") as handle:
            handle.write(TOKENS)
        cls.policy = os.path.join(cls.dir, "policy.json")
        with open(cls.policy, "w") as handle:
            json.dump(POLICY, handle)

    def setUp(self):
        self.server = RvscopeServer(BINARY, "--tls-cert", self.cert, "--tls-key", self.key, "--token-file",
                                    self.tokens, "--policy-file", self.policy, "--no-anonymous",
                                    "--acl-recheck", "200ms")
        self.assertTrue(self.server.url.startswith("https://"))

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)

    def k(self, token, *args, check=True, input=None):
        extra = ["--insecure-skip-tls-verify"] + ([f"--token={token}"] if token else [])
        return kubectl(self.server, *extra, *args, check=check, input=input)

    def test_no_token_and_bad_token_are_401(self):
        # Without credentials kubectl would prompt for a user name: ask directly.
        try:
            urllib.request.urlopen(self.server.url + "/api/v1/namespaces/default/configmaps", context=self.insecure(),
                                   timeout=10)
            self.fail("no 401")
        except urllib.error.HTTPError as error:
            self.assertEqual(error.code, 401)
            status = json.loads(error.read())
            self.assertEqual((status["kind"], status["reason"], status["message"]), ("Status", "Unauthorized", "Unauthorized"))
        result = self.k("wrong-token", "get", "configmaps", check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("error: You must be logged in to the server", result.stderr)

    @staticmethod
    def insecure():
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context

    def test_policy_allows_reads_and_forbids_writes_with_the_apiserver_text(self):
        self.k("admin-token", "create", "configmap", "foo", "--from-literal=a=1")
        self.assertIn("foo", self.k("alice-token", "get", "configmaps").stdout)
        result = self.k("alice-token", "create", "configmap", "bar", "--from-literal=a=1", check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn('configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" '
                      'in the namespace "default"', result.stderr)
        result = self.k("alice-token", "get", "secrets", check=False)
        self.assertIn('User "alice" cannot list resource "secrets"', result.stderr)

    def test_node_reads_only_secrets_of_its_pods_and_loses_the_watch(self):
        self.k("admin-token", "create", "secret", "generic", "s1", "--from-literal=p=1")
        self.k("admin-token", "create", "secret", "generic", "s2", "--from-literal=p=2")
        self.k("admin-token", "apply", "-f", "-", input=json.dumps(POD))
        self.assertIn("s1", self.k("node-token", "get", "secret", "s1").stdout)
        result = self.k("node-token", "get", "secret", "s2", check=False)
        self.assertIn('secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets"', result.stderr)

        # The kubelet's watch of the one secret its pod uses.
        context = self.insecure()
        request = urllib.request.Request(
            self.server.url + "/api/v1/namespaces/default/secrets?watch=1&fieldSelector=metadata.name%3Ds1",
            headers={"Authorization": "Bearer node-token"})
        stream = urllib.request.urlopen(request, context=context, timeout=10)
        first = json.loads(stream.readline())
        self.assertEqual(first["type"], "ADDED")
        self.assertEqual(first["object"]["metadata"]["name"], "s1")
        started = time.monotonic()
        self.k("admin-token", "delete", "pod", "web")
        closing = json.loads(stream.readline())
        self.assertEqual(closing["type"], "ERROR")
        self.assertEqual(closing["object"]["code"], 403)
        self.assertIn('User "system:node:n1" cannot watch resource "secrets"', closing["object"]["message"])
        # Within two recheck periods (plus kubectl's own start-up time).
        self.assertLess(time.monotonic() - started, 5.0)
        self.assertEqual(stream.readline(), b"")  # the stream ended
        result = self.k("node-token", "get", "secret", "s1", check=False)
        self.assertIn("forbidden", result.stderr)

    def test_bulk_get_is_all_or_nothing_and_bulk_channels_are_rejected_and_closed_per_channel(self):
        import websocket  # python3-websocket, a dependency of python3-kubernetes
        self.k("admin-token", "create", "configmap", "cm1", "--from-literal=a=1")
        self.k("admin-token", "create", "secret", "generic", "s1", "--from-literal=p=1")
        self.k("admin-token", "create", "secret", "generic", "s2", "--from-literal=p=2")
        self.k("admin-token", "apply", "-f", "-", input=json.dumps(POD))
        bulk = self.server.url + "/apis/bulk.k8s.io/v1/bulkgetoperations"

        def bulk_get(token, resources):
            body = json.dumps({"operations": [{"resource": {"group": "", "version": "v1", "resource": r},
                                               "options": {"namespace": "default"}} for r in resources]}).encode()
            request = urllib.request.Request(bulk, data=body, method="POST", headers={
                "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            try:
                return 200, json.loads(urllib.request.urlopen(request, context=self.insecure(), timeout=10).read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read())

        code, listed = bulk_get("alice-token", ["configmaps"])
        self.assertEqual(code, 200)
        self.assertEqual(listed["kind"], "List")
        self.assertIn("cm1", [item["metadata"]["name"] for item in listed["items"]])
        code, refused = bulk_get("alice-token", ["configmaps", "secrets"])
        self.assertEqual((code, refused["reason"]), (403, "Forbidden"))

        socket = websocket.create_connection(bulk.replace("https://", "wss://"), header=["Authorization: Bearer node-token"],
                                             sslopt={"cert_reqs": ssl.CERT_NONE, "check_hostname": False}, timeout=10)

        session = BulkSession(socket)

        def watch(request_id, name):
            session.watch(request_id, "secrets", name)

        receive = session.receive

        watch(1, "s1")
        opened = receive(lambda f: f.get("requestId") == 1)
        channel = opened["channel"]
        added = receive(lambda f: f.get("channel") == channel)
        self.assertEqual(added["event"]["type"], "ADDED")
        watch(2, "s2")  # partial rejection: this channel only
        rejected = receive(lambda f: f.get("requestId") == 2)
        self.assertEqual(rejected["error"]["code"], 403)
        self.k("admin-token", "delete", "pod", "web")
        closing = receive(lambda f: f.get("channel") == channel and f["event"]["type"] == "ERROR")
        self.assertEqual(closing["event"]["object"]["code"], 403)
        watch(3, "s1")  # the session goes on; access is gone
        self.assertEqual(receive(lambda f: f.get("requestId") == 3)["error"]["code"], 403)
        socket.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
