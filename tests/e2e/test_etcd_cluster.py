#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""rvscope on a real 3-member etcd cluster, under load: counters incremented by GET + PUT
through two instances, and a watch on each. One member is killed (the first endpoint both
instances were given) and later restarted. Writes and watches go on throughout; afterwards
nothing acknowledged is lost, each counter's watched values go up by exactly one (no lost
or repeated update: the optimistic-concurrency history is linearizable per key), and both
watches saw the same gap-free sequence."""
import os
import signal
import threading
import time
import unittest
import uuid

from etcd_cluster import EtcdCluster
from etcd_clients import PATH, Counter, Watch, call, list_rv
from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]


class ThreeMembers(unittest.TestCase):
    def setUp(self):
        # Cleanups run even when setUp or tearDown fails: nothing started is left running.
        self.etcd = EtcdCluster(3)
        self.addCleanup(self.etcd.stop)
        storage = ["--storage", "etcd", "--etcd-endpoints", self.etcd.endpoints,
                   "--etcd-prefix", f"/cluster-{uuid.uuid4().hex[:8]}"]
        self.servers = []
        for _ in range(2):
            self.servers.append(RvscopeServer(BINARY, storage=storage))
            self.addCleanup(self.servers[-1].stop)

    def tearDown(self):
        self.assertEqual([server.stop() for server in self.servers], [0, 0])

    def acked_count(self, counters):
        return sum(len(counter.acked) for counter in counters)

    def test_a_member_stops_and_comes_back_under_load(self):
        ports = [server.port for server in self.servers]
        start = list_rv(ports[0])
        watches = [Watch(port, start) for port in ports]
        for watch in watches:
            watch.start()
            self.assertTrue(watch.opened.wait(10))
        stop = threading.Event()
        counters = [Counter(f"counter-{i}", ports[i % 2:] + ports[:i % 2], stop) for i in range(4)]
        for counter in counters:
            counter.start()
        time.sleep(1.0)
        before_stop = self.acked_count(counters)
        self.assertGreater(before_stop, 10, "no progress before the member stopped")

        victim = self.etcd.members[0]
        killed_at = time.monotonic()
        victim.stop(signal.SIGKILL)
        # Writes resume once rvscope has failed over and, when the victim led, the others have
        # elected a leader (etcd's election timeout is 1-2 s by default): wait for that, bounded.
        deadline = killed_at + 15
        while self.acked_count(counters) - before_stop < 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        during_stop = self.acked_count(counters) - before_stop
        resumed = min((t for counter in counters for t in counter.acked_at if t > killed_at), default=None)
        outage = f"{resumed - killed_at:.2f} s" if resumed else "no write"
        self.etcd.restart(victim)
        time.sleep(1.0)
        stop.set()
        for counter in counters:
            counter.join(30)
            self.assertFalse(counter.is_alive())
        self.assertGreaterEqual(during_stop, 50, f"writes stopped while one member of three was down ({outage})")

        last = max(r for counter in counters for r, _ in counter.acked)
        for watch in watches:
            self.assertTrue(watch.wait_for(last), f"a watch stopped: {watch.ended}")
            watch.close()
        self.assertEqual(watches[0].events[:len(watches[1].events)], watches[1].events[:len(watches[0].events)])
        for watch in watches:
            revisions = [event[0] for event in watch.events]
            self.assertEqual(revisions, sorted(set(revisions)))
        for counter in counters:
            values = [int(n) for _, _, name, n in watches[0].events if name == counter.name_]
            self.assertEqual(values, list(range(len(values))), f"{counter.name_}: an update lost or repeated")
            self.assertTrue({value for _, value in counter.acked} <= set(values),
                            f"{counter.name_}: an acknowledged update is missing")
            status, final = call(ports[1], "GET", f"{PATH}/{counter.name_}")
            self.assertEqual(status, 200)
            self.assertEqual(int(final["data"]["n"]), values[-1])
        print(f"{self.acked_count(counters)} acknowledged updates, {during_stop} while a member was down (the first {outage} after the kill); "
              f"{sum(c.conflicts for c in counters)} conflicts, {sum(c.failures for c in counters)} failed "
              f"or unanswered requests; {len(watches[0].events)} watch events on each instance")


if __name__ == "__main__":
    unittest.main()
