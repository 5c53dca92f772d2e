#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""rvscope on etcd when etcd's answer to a write is lost: a proxy between them lets the
write's Txn reach etcd and cuts the connection before the answer comes back (etcd_proxy.py).
etcd applied the write, rvscope cannot know it. It must not send the Txn again blindly, nor
report a failure for a write that landed: it re-reads the key and answers as etcd decided.
Each write is applied exactly once, its answer names the revision etcd gave it, and a watch
sees every write once, in order, across the cut connections."""
import json
import os
import shutil
import unittest

from etcd_cluster import EtcdCluster
from etcd_clients import PATH, Watch, call, rv
from etcd_proxy import CuttingProxy
from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
ETCD = shutil.which("etcd")
WRITES = 5


@unittest.skipUnless(ETCD, "etcd is not installed (Debian etcd-server)")
class LostAnswers(unittest.TestCase):
    def setUp(self):
        # Cleanups run even when setUp or tearDown fails: nothing started is left running.
        self.etcd = EtcdCluster(1)
        self.addCleanup(self.etcd.stop)
        port = int(self.etcd.members[0].client_url.rsplit(":", 1)[1])
        self.proxy = CuttingProxy(port)
        self.addCleanup(self.proxy.close)
        self.server = RvscopeServer(BINARY, "--storage", "etcd", "--etcd-endpoints", self.proxy.url,
                                    "--etcd-prefix", "/faults")
        self.addCleanup(self.server.stop)

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)

    def watch_from(self, revision):
        watch = Watch(self.server.port, revision)
        watch.start()
        self.assertTrue(watch.opened.wait(10))
        return watch

    def test_a_put_whose_answer_is_lost_lands_once_and_is_answered(self):
        status, created = call(self.server.port, "POST", PATH, {"metadata": {"name": "settings"}, "data": {"n": "0"}})
        self.assertEqual(status, 201)
        watch = self.watch_from(rv(created))
        answered = []
        for n in range(1, WRITES + 1):
            status, current = call(self.server.port, "GET", f"{PATH}/settings")
            self.assertEqual(status, 200)
            current["data"]["n"] = str(n)
            self.proxy.arm()
            status, body = call(self.server.port, "PUT", f"{PATH}/settings", current, timeout=30)
            self.assertEqual(self.proxy.cuts, n, "the proxy did not cut the write's answer")
            self.assertEqual(status, 200, body)
            self.assertEqual(body["data"]["n"], str(n))
            answered.append(rv(body))
        self.assertTrue(watch.wait_for(answered[-1]), f"the watch stopped: {watch.ended}")
        watch.close()
        self.assertEqual([(r, t, n) for r, t, _, n in watch.events],
                         [(r, "MODIFIED", str(n)) for n, r in enumerate(answered, start=1)])

    def test_a_json_patch_whose_answer_is_lost_is_applied_once(self):
        # Appending to a list is not idempotent: applied twice, an entry would show twice.
        status, created = call(self.server.port, "POST", PATH,
                               {"metadata": {"name": "log", "annotations": {}}, "data": {}})
        self.assertEqual(status, 201)
        watch = self.watch_from(rv(created))
        for n in range(1, WRITES + 1):
            patch = [{"op": "add", "path": f"/data/entry-{n}", "value": "x"},
                     {"op": "add", "path": "/metadata/finalizers", "value": []} if n == 1 else
                     {"op": "test", "path": "/metadata/finalizers", "value": [f"example.com/f{i}" for i in range(1, n)]},
                     {"op": "add", "path": "/metadata/finalizers/-", "value": f"example.com/f{n}"}]
            self.proxy.arm()
            status, body = call(self.server.port, "PATCH", f"{PATH}/log", patch,
                                content_type="application/json-patch+json", timeout=30)
            self.assertEqual(self.proxy.cuts, n, "the proxy did not cut the write's answer")
            self.assertEqual(status, 200, json.dumps(body))
            self.assertEqual(body["metadata"]["finalizers"], [f"example.com/f{i}" for i in range(1, n + 1)])
        status, final = call(self.server.port, "GET", f"{PATH}/log")
        self.assertEqual(final["metadata"]["finalizers"], [f"example.com/f{i}" for i in range(1, WRITES + 1)])
        self.assertTrue(watch.wait_for(rv(final)), f"the watch stopped: {watch.ended}")
        watch.close()
        self.assertEqual(len(watch.events), WRITES)


if __name__ == "__main__":
    unittest.main()
