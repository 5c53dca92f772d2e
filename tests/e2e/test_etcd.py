#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`rvscope serve --storage etcd`: kubectl against two rvscope instances on one real etcd
(started here on free loopback ports). What one instance writes the other serves, with the
same resourceVersions; a replace carrying a stale resourceVersion is 409 on either; a watch
on one sees the other's writes; a restarted instance finds everything again."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

from etcd_cluster import EtcdCluster, free_port
from manifests import WIDGET_CRD
from rvscope_server import LineReader, RvscopeServer, kubectl

BINARY = os.environ["RVSCOPE_BINARY"]
ETCD = shutil.which("etcd")


CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
  resourceVersion: "{rv}"
data:
  mode: {mode}
"""


WIDGET = """apiVersion: example.com/v1
kind: Widget
metadata: {name: gear, namespace: default}
spec: {size: 3}
"""


@unittest.skipUnless(ETCD, "etcd is not installed (Debian etcd-server)")
class EtcdEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.etcd = EtcdCluster(1)
        cls.count = 0

    @classmethod
    def tearDownClass(cls):
        cls.etcd.stop()

    def setUp(self):
        EtcdEndToEnd.count += 1
        self.prefix = f"/e2e-{os.getpid()}-{EtcdEndToEnd.count}"
        self.servers = []
        self.files = []

    def tearDown(self):
        codes = [server.stop() for server in self.servers]
        for path in self.files:
            os.unlink(path)
        self.assertEqual(codes, [0] * len(codes))

    def start(self, *args):
        server = RvscopeServer(BINARY, "--storage", "etcd", "--etcd-endpoints", self.etcd.endpoints,
                               "--etcd-prefix", self.prefix, *args)
        self.servers.append(server)
        return server

    def write(self, text):
        handle = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        handle.write(text)
        handle.close()
        self.files.append(handle.name)
        return handle.name

    def get_json(self, server, *args):
        return json.loads(kubectl(server, "get", *args, "-o", "json").stdout)

    # A watch's start waits for etcd. Watches still starting count against
    # --max-watches-per-user as open ones do (twenty opened at once past a bound of two were
    # all let in), and none counts against --max-requests-inflight, which the apiserver
    # leaves long-running requests out of (about half of a thousand got 429 before).
    def test_watches_opened_at_once_meet_the_watch_bounds_only(self):
        def open_watches(server, count):
            sockets = []
            for _ in range(count):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
                sock.sendall(b"GET /api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=3 HTTP/1.1\r\n"
                             b"Host: 127.0.0.1\r\n\r\n")
                sockets.append(sock)
            statuses = sorted(int(sock.recv(4096)[9:12]) for sock in sockets)
            for sock in sockets:
                sock.close()
            return statuses

        self.assertEqual(open_watches(self.start("--max-watches-per-user", "2"), 20), [200] * 2 + [429] * 18)
        self.assertEqual(open_watches(self.start("--max-requests-inflight", "2"), 20), [200] * 20)

    def test_two_instances_serve_one_state(self):
        a, b = self.start(), self.start()
        kubectl(a, "create", "configmap", "settings", "--from-literal=mode=fast")
        from_a = self.get_json(a, "configmap", "settings")
        from_b = self.get_json(b, "configmap", "settings")
        self.assertEqual(from_b["data"], {"mode": "fast"})
        self.assertEqual(from_b["metadata"]["resourceVersion"], from_a["metadata"]["resourceVersion"])
        self.assertEqual(from_b["metadata"]["uid"], from_a["metadata"]["uid"])
        names = [item["metadata"]["name"] for item in self.get_json(b, "namespaces")["items"]]
        self.assertEqual(names, ["default", "kube-node-lease", "kube-public", "kube-system"])

    def test_stale_replace_conflicts_across_instances(self):
        a, b = self.start(), self.start()
        kubectl(a, "create", "configmap", "settings", "--from-literal=mode=fast")
        read_from_b = self.get_json(b, "configmap", "settings")["metadata"]["resourceVersion"]
        # A replace on A carrying the resourceVersion read from B: nobody wrote since, it wins.
        kubectl(a, "replace", "-f", self.write(CONFIGMAP.format(rv=read_from_b, mode="safe")))
        # B still holds the old resourceVersion: its replace must conflict, not overwrite.
        stale = kubectl(b, "replace", "-f", self.write(CONFIGMAP.format(rv=read_from_b, mode="lost")), check=False)
        self.assertNotEqual(stale.returncode, 0)
        self.assertIn("Conflict", stale.stderr)
        self.assertIn("the object has been modified; please apply your changes to the latest version", stale.stderr)
        self.assertEqual(self.get_json(b, "configmap", "settings")["data"], {"mode": "safe"})

    def test_watch_on_one_instance_sees_the_others_writes(self):
        a, b = self.start(), self.start()
        # The barrier: once B's list shows it, the watch runs from that list's revision, so
        # every write made after it must arrive (a watcher slow to start would otherwise list
        # after the writes and never see them as events).
        kubectl(a, "create", "configmap", "barrier")
        watcher = subprocess.Popen(["kubectl", f"--server={b.url}", "get", "configmaps", "--watch",
                                    "--output-watch-events", "-o", "jsonpath={.type} {.object.metadata.name}{\"\\n\"}"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            lines = LineReader(watcher)
            self.assertEqual(lines.until("barrier"), ["ADDED barrier"])
            kubectl(a, "create", "configmap", "first")
            kubectl(a, "create", "configmap", "second")
            kubectl(a, "delete", "configmap", "first")
            seen = lines.until("DELETED")
            events = [line.split() for line in seen if line.strip()]
            self.assertEqual(events, [["ADDED", "first"], ["ADDED", "second"], ["DELETED", "first"]])
        finally:
            watcher.terminate()
            watcher.wait(timeout=10)
            watcher.stdout.close()
            watcher.stderr.close()

    def test_a_custom_type_defined_on_one_instance_is_served_by_the_other(self):
        a, b = self.start(), self.start()
        self.assertNotEqual(kubectl(b, "get", "widgets", check=False).returncode, 0)
        kubectl(a, "create", "-f", self.write(WIDGET_CRD))
        # B follows the definitions in etcd by watch, as the apiserver's CRD handler does.
        deadline = time.monotonic() + 10
        while kubectl(b, "get", "widgets", check=False).returncode != 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        kubectl(b, "create", "-f", self.write(WIDGET))
        self.assertEqual(self.get_json(a, "widgets", "gear")["spec"], {"size": 3})
        kubectl(a, "delete", "crd", "widgets.example.com")
        deadline = time.monotonic() + 10
        while kubectl(b, "get", "widgets", check=False).returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        gone = kubectl(b, "get", "widgets", check=False)
        self.assertNotEqual(gone.returncode, 0)
        self.assertIn("the server doesn't have a resource type \"widgets\"", gone.stderr)

    def test_a_restarted_instance_finds_everything(self):
        a = self.start()
        kubectl(a, "create", "configmap", "settings", "--from-literal=mode=fast")
        before = self.get_json(a, "configmap", "settings")
        self.assertEqual(a.stop(), 0)
        self.servers.remove(a)
        again = self.start()
        after = self.get_json(again, "configmap", "settings")
        self.assertEqual(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"])
        self.assertEqual(after["data"], {"mode": "fast"})

    def test_unreachable_etcd_refuses_to_serve(self):
        process = subprocess.run([BINARY, "serve", "--listen", "127.0.0.1:0", "--storage", "etcd",
                                  "--etcd-endpoints", f"http://127.0.0.1:{free_port()}"],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(process.returncode, 1)
        self.assertIn("etcd is unavailable", process.stderr)


def running(pid):
    """True while `pid` runs (a zombie left for the reaper has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@unittest.skipUnless(ETCD, "etcd is not installed (Debian etcd-server)")
class NothingOutlivesItsTest(unittest.TestCase):
    def test_a_test_killed_mid_run_leaves_no_etcd_or_rvscope_running(self):
        # What a ctest timeout does to a suite: SIGKILL, so no cleanup or finally runs.
        script = ("import os, signal\n"
                  "from etcd_cluster import EtcdCluster\n"
                  "from rvscope_server import RvscopeServer\n"
                  "etcd = EtcdCluster(1)\n"
                  f"server = RvscopeServer({BINARY!r}, storage=['--storage', 'etcd', '--etcd-endpoints', etcd.endpoints])\n"
                  "print(etcd.members[0].process.pid, server.process.pid, etcd.root, flush=True)\n"
                  "os.kill(os.getpid(), signal.SIGKILL)\n")
        process = subprocess.run(["/usr/bin/python3", "-c", script], capture_output=True, text=True, timeout=60,
                                 cwd=os.path.dirname(os.path.abspath(__file__)))
        self.assertEqual(process.returncode, -9, process.stderr)
        *pids, root = process.stdout.split()
        self.addCleanup(shutil.rmtree, root, ignore_errors=True)  # etcd's data (its write-ahead log: 64 MB)
        pids = [int(pid) for pid in pids]
        self.assertEqual(len(pids), 2)
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual([pid for pid in pids if running(pid)], [])


if __name__ == "__main__":
    unittest.main()
