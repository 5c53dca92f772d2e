#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Two `rvscope serve --storage etcd` instances on one real etcd behave as one apiserver:
a PUT on A with a resourceVersion read from B conflicts exactly when it should, a watch on B
sees A's writes in order with no gaps, and the counters incremented through both lose no
update (their watched values go up by one, every one of them acknowledged or seen once)."""
import os
import subprocess
import threading
import unittest
import uuid

from etcd_cluster import EtcdCluster
from etcd_clients import PATH, Counter, Watch, call, list_rv, rv
from rvscope_server import RvscopeServer, kubectl

BINARY = os.environ["RVSCOPE_BINARY"]


class TwoInstances(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.etcd = EtcdCluster(1)

    @classmethod
    def tearDownClass(cls):
        cls.etcd.stop()

    def setUp(self):
        storage = ["--storage", "etcd", "--etcd-endpoints", self.etcd.endpoints,
                   "--etcd-prefix", f"/two-{uuid.uuid4().hex[:8]}"]
        self.a = RvscopeServer(BINARY, storage=storage)
        self.addCleanup(self.a.stop)
        self.b = RvscopeServer(BINARY, storage=storage)
        self.addCleanup(self.b.stop)

    def tearDown(self):
        self.assertEqual([self.a.stop(), self.b.stop()], [0, 0])

    def test_a_put_with_a_version_read_elsewhere_conflicts_exactly_when_it_should(self):
        status, created = call(self.a.port, "POST", PATH, {"metadata": {"name": "shared"}, "data": {"v": "0"}})
        self.assertEqual(status, 201, created)
        status, read_on_b = call(self.b.port, "GET", f"{PATH}/shared")
        self.assertEqual(status, 200, read_on_b)
        self.assertEqual(rv(read_on_b), rv(created))

        on_a = dict(read_on_b, data={"v": "a"})
        status, written_on_a = call(self.a.port, "PUT", f"{PATH}/shared", on_a)
        self.assertEqual(status, 200, written_on_a)

        stale = dict(read_on_b, data={"v": "b"})
        status, refused = call(self.b.port, "PUT", f"{PATH}/shared", stale)
        self.assertEqual(status, 409, refused)
        self.assertEqual(refused["reason"], "Conflict")
        self.assertIn("the object has been modified; please apply your changes to the latest version",
                      refused["message"])

        fresh = dict(written_on_a, data={"v": "b"})
        status, written_on_b = call(self.b.port, "PUT", f"{PATH}/shared", fresh)
        self.assertEqual(status, 200, written_on_b)
        self.assertGreater(rv(written_on_b), rv(written_on_a))
        status, final = call(self.a.port, "GET", f"{PATH}/shared")
        self.assertEqual((final["data"], rv(final)), ({"v": "b"}, rv(written_on_b)))

    def test_a_watch_on_b_sees_the_writes_through_both_in_order(self):
        start = list_rv(self.b.port)
        watch_b = Watch(self.b.port, start)
        watch_a = Watch(self.a.port, start)
        for watch in (watch_a, watch_b):
            watch.start()
            self.assertTrue(watch.opened.wait(10))
        stop = threading.Event()
        counters = [Counter(f"counter-{i}", [self.a.port, self.b.port][i % 2:] + [self.a.port, self.b.port][:i % 2],
                            stop) for i in range(4)]
        for counter in counters:
            counter.start()
        threading.Event().wait(3)
        stop.set()
        for counter in counters:
            counter.join(30)
        acked = sorted(r for counter in counters for r, _ in counter.acked)
        self.assertGreater(len(acked), 20)
        for watch in (watch_a, watch_b):
            self.assertTrue(watch.wait_for(acked[-1]), watch.ended)
        watch_a.close()
        watch_b.close()

        self.assertEqual(watch_a.events[:len(watch_b.events)], watch_b.events[:len(watch_a.events)],
                         "the two instances' watches disagree")
        revisions = [event[0] for event in watch_b.events]
        self.assertEqual(revisions, sorted(set(revisions)), "not in increasing order, or a revision twice")
        self.assertTrue(set(acked) <= set(revisions), "an acknowledged write never reached B's watch")
        for counter in counters:
            values = [int(n) for _, kind, name, n in watch_b.events if name == counter.name_]
            self.assertEqual(values, list(range(len(values))), f"{counter.name_}: an update lost or repeated")
            self.assertEqual(values[-1], counter.acked[-1][1])

    def test_kubectl_on_one_sees_what_kubectl_wrote_on_the_other(self):
        kubectl(self.a, "create", "configmap", "settings", "--from-literal=mode=fast")
        got = kubectl(self.b, "get", "configmap", "settings", "-o", "jsonpath={.data.mode}")
        self.assertEqual(got.stdout, "fast")
        kubectl(self.b, "delete", "configmap", "settings")
        missing = kubectl(self.a, "get", "configmap", "settings", check=False)
        self.assertNotEqual(missing.returncode, 0)
        self.assertIn("NotFound", missing.stderr)


class TypeOnItsOwnCluster(unittest.TestCase):
    """--etcd-servers-overrides events#URL: events live on a second etcd, in a revision series
    of their own (as kube-apiserver puts events on another etcd)."""

    def setUp(self):
        self.main = EtcdCluster(1)
        self.addCleanup(self.main.stop)
        self.events = EtcdCluster(1)
        self.addCleanup(self.events.stop)
        self.server = RvscopeServer(BINARY, storage=[
            "--storage", "etcd", "--etcd-endpoints", self.main.endpoints,
            "--etcd-servers-overrides", f"events#{self.events.endpoints}"])
        self.addCleanup(self.server.stop)

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)

    def test_events_count_their_own_revisions_on_their_own_cluster(self):
        for i in range(6):
            status, body = call(self.server.port, "POST", PATH, {"metadata": {"name": f"cm-{i}"}})
            self.assertEqual(status, 201, body)
        last_configmap = rv(body)
        status, event = call(self.server.port, "POST", "/api/v1/namespaces/default/events",
                             {"metadata": {"name": "e1"}, "involvedObject": {"kind": "ConfigMap", "name": "cm-0"},
                              "reason": "Test", "message": "on its own etcd"})
        self.assertEqual(status, 201, event)
        # The events cluster has seen nothing but this event: its first revision after start.
        self.assertLess(rv(event), last_configmap)
        self.assertEqual(rv(event), 2)
        # And the keys are where they belong.
        for cluster, key, present in ((self.events, "/registry/events/default/e1", True),
                                      (self.main, "/registry/events/default/e1", False),
                                      (self.main, "/registry/configmaps/default/cm-0", True)):
            got = subprocess.run(["etcdctl", "--endpoints", cluster.endpoints, "get", key, "--keys-only"],
                                 capture_output=True, text=True, env=dict(os.environ, ETCDCTL_API="3"), check=True)
            self.assertEqual(key in got.stdout, present, (cluster.endpoints, key))


if __name__ == "__main__":
    unittest.main()
