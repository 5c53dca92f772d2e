#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Soak (issue 19): `rvscope serve` under mixed clients for SOAK_SECONDS (90 in CI; `./dev.sh
soak [SECONDS]` runs it longer), with watches that disconnect at random and resume from the
last resourceVersion they saw, and a watch history small enough (--watch-history) that resumes
regularly meet 410 Expired and relist: rvscope's compaction of the memory store.

The load, all at once and seeded: `rvscope client` processes of five strategies that lose no
update (retry-default, merge-patch-rv, json-patch-test, lease, raw-put), each on ConfigMaps of
its own and run again and again; a raw HTTP writer and a python3-kubernetes writer creating,
updating (PUT and merge PATCH) and deleting other ConfigMaps; three raw chunked-HTTP watchers
and one python3-kubernetes watcher (soak_clients.py).

It shows:
- every watcher's guarantees, checked by the watcher as it goes (resourceVersions strictly
  increase in a stream, a resumed stream starts after its resume point, ADDED/MODIFIED/DELETED
  agree with the state it holds) and at the end (after a sentinel write, the state each watcher
  holds is what a final LIST returns, as are each writer's last acknowledged writes and the
  counters, which hold exactly the increments the client processes were told landed);
- memory: the server's RSS, sampled every second from /proc/PID/status, is flat after warm-up:
  the highest sample of the last third of the run is within max(RSS_SLACK_MIB, 10%) of the
  highest sample of the warm-up. The warm-up is the first third, or longer until the history
  journal is full, since until then it grows by design (the test dates that from lower bounds:
  the commits made, the events its watchers read);
- the recorded history passes `rvscope check` (linearizability, lost updates, watch
  guarantees) after a SIGTERM wrote it (--export). A journal that kept a whole soak would grow
  all along, so it is bounded: it keeps the newest SOAK_JOURNAL_SIZE operations and as many
  watch deliveries (200 per second of soak, at most 250000; in CI the last ten seconds or so),
  and the check covers those and says how much came before."""
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import unittest

from rvscope_server import RvscopeServer
from soak_clients import ClientLoop, PythonWatcher, PythonWriter, RawWatcher, RawWriter, RssSampler, list_state, request

BINARY = os.environ["RVSCOPE_BINARY"]
SOAK_SECONDS = float(os.environ.get("SOAK_SECONDS", "90"))
SEED = int(os.environ.get("SOAK_SEED", "19"))
WATCH_HISTORY = 200
# The journal must fill before the last third (the test knows only lower bounds of its fill,
# about a third of the truth), and covers the end of the run: 200 records per second of soak,
# up to --journal-size's own default.
JOURNAL_SIZE = int(os.environ.get("SOAK_JOURNAL_SIZE", str(min(250_000, int(200 * SOAK_SECONDS)))))
RSS_SLACK_MIB = 8
SENTINEL = "soak-end"

# strategy, object prefix, objects, clients per process, increments per client and run, think time
CLIENT_LOOPS = [("retry-default", "soak-retry", 2, 3, 40, "5-20ms"),
                ("merge-patch-rv", "soak-mprv", 1, 2, 40, "5-20ms"),
                ("json-patch-test", "soak-jpt", 2, 2, 40, "5-20ms"),
                ("lease", "soak-lease", 1, 2, 20, "5-20ms"),
                ("raw-put", "soak-rawput", 1, 2, 40, "5-20ms")]


def mib(kib):
    return kib / 1024


def current_revision(port):
    return int(request(port, "GET", "/api/v1/namespaces/default/configmaps?limit=1")[1]["metadata"]["resourceVersion"])


class Soak(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rvscope-soak-")
        self.export = os.path.join(self.dir, "history.jsonl")
        self.server = RvscopeServer(BINARY, "--watch-history", str(WATCH_HISTORY), "--journal-size", str(JOURNAL_SIZE),
                                    "--export", self.export)

    def tearDown(self):
        if self.server.process.poll() is None:
            self.server.process.kill()
            self.server.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_soak(self):
        port = self.server.port
        stop_load, stop_watch, stop_rss = threading.Event(), threading.Event(), threading.Event()
        watchers = [RawWatcher(f"raw-watch-{i}", port, stop_watch, SEED * 100 + i) for i in range(3)]
        watchers.append(PythonWatcher("py-watch", port, stop_watch, SEED * 100 + 3))
        # With each RSS sample, lower bounds of what the journal holds by then: every commit is
        # one journaled operation, every event a watcher read one journaled delivery.
        first_revision = current_revision(port)
        rss = RssSampler(self.server.process.pid, stop_rss, lambda: (
            current_revision(port) - first_revision, sum(w.events + w.expired for w in watchers)))
        writers = [RawWriter("raw-writer", port, stop_load, SEED * 10, [f"soak-raw-{i}" for i in range(6)]),
                   PythonWriter("py-writer", port, stop_load, SEED * 10 + 1, [f"soak-py-{i}" for i in range(4)])]
        loops = [ClientLoop(BINARY, self.server.url, stop_load, SEED * 1000 + 100 * i, *spec)
                 for i, spec in enumerate(CLIENT_LOOPS)]
        everyone = watchers + writers + loops

        started = time.monotonic()
        rss.start()
        for thread in everyone:
            thread.start()
        while time.monotonic() - started < SOAK_SECONDS:
            failed = [t.error for t in everyone if t.error]
            self.assertEqual(failed, [], "a client failed during the soak")
            time.sleep(1)
        stop_load.set()
        for thread in writers + loops:
            thread.join(120)
            self.assertFalse(thread.is_alive(), f"{thread.name} did not stop")
        load_ended = time.monotonic()

        # The last write: every watcher reads on until its ADDED, then holds the final state.
        for watcher in watchers:
            watcher.sentinel = SENTINEL
        self.assertEqual(request(port, "POST", "/api/v1/namespaces/default/configmaps",
                                 {"metadata": {"name": SENTINEL}})[0], 201)
        stop_watch.set()
        for watcher in watchers:
            watcher.join(60)
            self.assertFalse(watcher.is_alive(), f"{watcher.name} did not catch up")
        final_rv, final = list_state(port)
        stop_rss.set()
        rss.join(5)

        self.assertEqual([t.error for t in everyone + [rss] if t.error], [])
        violations = [v for w in watchers for v in w.violations]
        self.assertEqual(violations, [], "watch guarantees broken")
        for watcher in watchers:
            self.assertEqual(watcher.state, final, f"{watcher.name}: the state it holds is not the final LIST")
        for writer in writers:
            for name, data in writer.acked.items():
                self.assertEqual(final.get(name, (0, None))[1], data, f"{writer.name}: {name}'s last acknowledged write")
        for loop in loops:
            counted = sum(int((data or {}).get("counter", 0)) for name, (_, data) in final.items()
                          if name.startswith(loop.prefix + "-"))
            self.assertEqual(counted, loop.landed, f"{loop.name}: the counters against the increments reported")
        self.assertGreater(sum(w.expired for w in watchers), 0, "no resume met 410: --watch-history is too large")
        self.assertGreater(sum(w.resumes for w in watchers), 0)

        # A clean stop writes the journal; the checkers must pass what it kept.
        self.server.process.terminate()
        out, err = self.server.process.communicate(timeout=120)
        self.assertEqual(self.server.process.returncode, 0, err)
        self.assertIn(f"history written to {self.export}", out)
        check = subprocess.run([BINARY, "check", self.export], capture_output=True, text=True, timeout=120)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

        # The figures first, so that a failure below comes with them.
        flat, rss_report, journal = self.rss_flat(rss.samples, started, load_ended)
        self.print_summary(started, load_ended, final_rv, watchers, writers, loops, rss_report, journal, check.stdout)
        self.assertTrue(flat, "RSS grew after warm-up: " + rss_report)

    def rss_flat(self, samples, started, load_ended):
        """Whether the RSS stayed within its bound after warm-up, and the figures."""
        with open(self.export) as handle:
            first = json.loads(handle.readline())
        self.assertEqual(first["record"], "journal", "the journal never filled: lower SOAK_JOURNAL_SIZE")
        full = [next((t for t, _, counts in samples if counts[kind] >= JOURNAL_SIZE), None) for kind in (0, 1)]
        fill = (f"--journal-size {JOURNAL_SIZE}, full after "
                f"{', '.join('?' if t is None else f'{t - started:.0f} s' for t in full)} (operations, deliveries), "
                f"then dropped {first['droppedOperations']} operations and {first['droppedWatchDeliveries']} deliveries")
        last_third = started + SOAK_SECONDS * 2 / 3
        self.assertTrue(None not in full and max(full) < last_third,
                        f"the journal did not fill before the last third ({fill}): lower SOAK_JOURNAL_SIZE")
        warm_end = max(started + SOAK_SECONDS / 3, max(full))
        warm = [kib for t, kib, _ in samples if t <= warm_end]
        late = [kib for t, kib, _ in samples if last_third <= t <= load_ended]
        self.assertTrue(warm and late, f"too few RSS samples: {samples}")
        level, peak = max(warm), max(late)
        bound = level + max(RSS_SLACK_MIB * 1024, level // 10)
        report = (f"RSS {mib(samples[0][1]):.1f} MiB at start, {mib(level):.1f} MiB at most in warm-up (to "
                  f"{warm_end - started:.0f} s; journal {fill}), last third ({last_third - started:.0f}-"
                  f"{load_ended - started:.0f} s) max {mib(peak):.1f} MiB, bound {mib(bound):.1f} MiB "
                  f"(+max({RSS_SLACK_MIB} MiB, 10%)), final {mib(samples[-1][1]):.1f} MiB; {len(samples)} samples")
        return peak <= bound, report, first

    def print_summary(self, started, load_ended, final_rv, watchers, writers, loops, rss_report, journal,
                      check_output):
        lines = [f"soak: {load_ended - started:.0f} s of load (seed {SEED}), {time.monotonic() - started:.0f} s in all; "
                 f"final resourceVersion {final_rv}; the server journaled "
                 f"{journal['droppedOperations'] + JOURNAL_SIZE} operations and "
                 f"{journal['droppedWatchDeliveries'] + JOURNAL_SIZE} watch deliveries, the export holds the newest "
                 f"{JOURNAL_SIZE} of each"]
        for loop in loops:
            lines.append(f"  rvscope client {loop.strategy}: {loop.runs} runs, {loop.landed} increments landed of "
                         f"{loop.attempts} write attempts, {loop.conflicts} x 409")
        for writer in writers:
            lines.append(f"  {writer.name}: {writer.writes} acknowledged writes, {writer.conflicts} creates of an "
                         "existing object (409)")
        for watcher in watchers:
            lines.append(f"  {watcher.name}: {watcher.events} events in {watcher.streams} streams, {watcher.resumes} "
                         f"resumes from the last event, {watcher.expired} x 410, {watcher.relists} lists")
        lines.append("  " + rss_report)
        lines += ["  check: " + line for line in check_output.splitlines() if line.strip()]
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    unittest.main()
