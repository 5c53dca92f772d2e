#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`rvscope serve --export FILE` and `rvscope check FILE` through the binary: a clean stop
writes the journal, `check` passes a good history and fails a doctored one (and a real lost
update), says what a bounded journal dropped, and refuses unreadable files with exit 2."""
import http.client
import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
PATH = "/api/v1/namespaces/default/configmaps"


def request(server, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def check(path, *args):
    return subprocess.run([BINARY, "check", path, *args], capture_output=True, text=True, timeout=60)


def read_lines(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def write_lines(path, lines):
    with open(path, "w") as handle:
        for line in lines:
            handle.write(json.dumps(line) + "\n")


class HistoryExport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rvscope-export-")
        self.file = os.path.join(self.dir, "history.jsonl")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def stop(self, server):
        """SIGTERM; returns the server's stdout after the ready line."""
        server.process.terminate()
        out, err = server.process.communicate(timeout=30)
        self.assertEqual(server.process.returncode, 0, err)
        return out

    def record_traffic(self, server):
        """Creates, reads, updates (one 409), deletes and a watch that sees them all."""
        status, listed = request(server, "GET", PATH)
        self.assertEqual(status, 200)
        events = []
        watching = threading.Event()

        def watch():
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("GET", f"{PATH}?watch=1&resourceVersion={listed['metadata']['resourceVersion']}")
            response = conn.getresponse()
            watching.set()
            while len(events) < 8:
                events.append(json.loads(response.readline()))
            conn.close()

        thread = threading.Thread(target=watch)
        thread.start()
        watching.wait(5)
        for name in ("a", "b"):
            self.assertEqual(request(server, "POST", PATH, {"metadata": {"name": name}, "data": {"v": "0"}})[0], 201)
        for i in range(3):
            status, current = request(server, "GET", f"{PATH}/a")
            current["data"]["v"] = str(i + 1)
            self.assertEqual(request(server, "PUT", f"{PATH}/a", current)[0], 200)
        current["data"]["v"] = "stale"
        self.assertEqual(request(server, "PUT", f"{PATH}/a", current)[0], 409)
        self.assertEqual(request(server, "DELETE", f"{PATH}/b")[0], 200)
        self.assertEqual(request(server, "POST", "/api/v1/namespaces/default/secrets",
                                 {"metadata": {"name": "s"}, "stringData": {"password": "hunter2"}})[0], 201)
        self.assertEqual(request(server, "POST", PATH, {"metadata": {"name": "c"}})[0], 201)
        self.assertEqual(request(server, "PUT", f"{PATH}/c", {"metadata": {"name": "c"}, "data": {"x": "1"}})[0], 200)
        thread.join(10)
        self.assertEqual(len(events), 8, events)

    def test_clean_stop_writes_the_journal_and_check_passes_it(self):
        server = RvscopeServer(BINARY, "--export", self.file)
        self.record_traffic(server)
        out = self.stop(server)
        self.assertEqual(out, f"history written to {self.file}\n")
        lines = read_lines(self.file)
        operations = [line for line in lines if line["record"] == "operation"]
        deliveries = [line for line in lines if line["record"] == "watch"]
        self.assertEqual([op["verb"] for op in operations][:3], ["list", "watch", "create"])
        self.assertIn(409, [op["code"] for op in operations])
        self.assertEqual(len(deliveries), 8)
        self.assertNotIn("hunter2", open(self.file).read())  # Secrets' values redacted
        self.assertNotIn("aHVudGVyMg==", open(self.file).read())

        result = check(self.file)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn(f"history: {len(operations)} operations, 8 watch deliveries ({self.file})", result.stdout)
        self.assertIn("verdicts:\n", result.stdout)
        self.assertIn("  linearizability: PASS (expected pass) - linearizable: ", result.stdout)
        self.assertIn("  watch: PASS (expected pass) - watch guarantees hold: 1 watch streams, 8 deliveries",
                      result.stdout)
        self.assertNotIn("dropped", result.stdout)

        report = json.loads(check(self.file, "--json").stdout)
        self.assertTrue(report["passed"])
        self.assertEqual(report["droppedOperations"], 0)
        self.assertEqual({v["checker"]: v["outcome"] for v in report["verdicts"]},
                         {"linearizability": "pass", "watch": "pass"})

    def test_check_fails_a_doctored_history(self):
        server = RvscopeServer(BINARY, "--export", self.file)
        self.record_traffic(server)
        self.stop(server)
        lines = read_lines(self.file)
        operations = [line for line in lines if line["record"] == "operation"]

        # A read long after everything that returns configmap a's first revision: stale.
        created = next(op for op in operations if op["verb"] == "create" and op["key"].endswith("/a"))
        last = max(op["endNs"] for op in operations)
        stale = dict(created, id=max(op["id"] for op in operations) + 1, verb="get", code=200, client="doctor",
                     startNs=last + 1000, endNs=last + 2000)
        stale_file = os.path.join(self.dir, "stale.jsonl")
        write_lines(stale_file, operations + [stale] + [line for line in lines if line["record"] == "watch"])
        result = check(stale_file)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("  linearizability: FAIL (expected pass) [UNEXPECTED] - not linearizable: 1 of", result.stdout)
        self.assertIn(f"op {stale['id']} (doctor get", result.stdout)

        # A watch that skipped an event: a gap.
        deliveries = [line for line in lines if line["record"] == "watch"]
        skipped = deliveries.pop(3)
        gap_file = os.path.join(self.dir, "gap.jsonl")
        write_lines(gap_file, operations + deliveries)
        result = check(gap_file)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("  watch: FAIL (expected pass) [UNEXPECTED] - 1 watch guarantee violations", result.stdout)
        self.assertIn(f"gap: missed {skipped['type']} rv {skipped['rv']}", result.stdout)

    def test_check_finds_a_lost_update_the_server_allowed(self):
        server = RvscopeServer(BINARY, "--export", self.file)
        self.assertEqual(request(server, "POST", PATH, {"metadata": {"name": "n"}, "data": {"counter": "0"}})[0], 201)
        first = request(server, "GET", f"{PATH}/n")[1]
        second = request(server, "GET", f"{PATH}/n")[1]
        for writer, copy in (("first", first), ("second", second)):
            # Both write 1 without a resourceVersion: one increment is lost.
            copy["data"] = {"counter": "1", "by": writer}
            del copy["metadata"]["resourceVersion"]
            self.assertEqual(request(server, "PUT", f"{PATH}/n", copy)[0], 200)
        self.stop(server)
        result = check(self.file)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("  lost-update configmaps/default/n: FAIL (expected pass) [UNEXPECTED] - lost updates on "
                      "configmaps/default/n", result.stdout)
        self.assertIn("  linearizability: PASS", result.stdout)

    def test_bounded_journal_says_what_it_dropped(self):
        server = RvscopeServer(BINARY, "--export", self.file, "--journal-size", "12")
        self.record_traffic(server)
        self.stop(server)
        lines = read_lines(self.file)
        self.assertEqual(lines[0]["record"], "journal")
        dropped = lines[0]["droppedOperations"]
        self.assertGreater(dropped, 0)
        self.assertEqual(len([line for line in lines if line["record"] == "operation"]), 12)
        result = check(self.file)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn(f"the journal dropped its oldest {dropped} operations: the checks cover what it kept",
                      result.stdout)
        self.assertIn(f"(the journal dropped its oldest {dropped} operations: each key checked from its first write",
                      result.stdout)
        self.assertEqual(json.loads(check(self.file, "--json").stdout)["droppedOperations"], dropped)

    def test_unreadable_files_and_bad_arguments(self):
        missing = os.path.join(self.dir, "missing.jsonl")
        result = check(missing)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, f"rvscope check: cannot read {missing}: No such file or directory\n")
        garbage = os.path.join(self.dir, "garbage.jsonl")
        with open(garbage, "w") as handle:
            handle.write('{"record":"operation","id":1,"verb":"get","key":"configmaps/default/a","startNs":1}\nnot json\n')
        result = check(garbage)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, f"rvscope check: {garbage} is not a history: history line 2: not valid JSON\n")
        empty = os.path.join(self.dir, "empty.jsonl")
        open(empty, "w").close()
        result = check(empty)
        self.assertEqual(result.returncode, 1)
        self.assertIn("holds no operation and no watch delivery: nothing to check", result.stderr)

        for args, words in ((["check"], "check needs a history file"),
                            (["check", "a", "b"], "check takes one history file, got 'b' too"),
                            (["serve", "--export", self.file, "--journal-size", "0"],
                             "--export writes the history journal, which --journal-size 0 turns off"),
                            (["serve", "--export-secrets"], "--export-secrets needs --export FILE")):
            result = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=30)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn(words, result.stderr)
        self.assertFalse(os.path.exists(self.file))

    def test_client_processes_race_on_objects_of_their_own(self):
        server = RvscopeServer(BINARY)
        try:
            for prefix in ("left", "right"):
                result = subprocess.run([BINARY, "client", "--server", server.url, "--object-prefix", prefix,
                                         "--clients", "2", "--operations", "5", "--think", "0ms", "--json"],
                                        capture_output=True, text=True, timeout=60)
                self.assertEqual(result.returncode, 0, result.stderr)
                landed = json.loads(result.stdout.strip().splitlines()[-1])["succeeded"]
                self.assertEqual(request(server, "GET", f"{PATH}/{prefix}-0")[1]["data"]["counter"], str(landed))
            self.assertEqual(request(server, "GET", f"{PATH}/counter-0")[0], 404)
        finally:
            self.stop(server)


if __name__ == "__main__":
    unittest.main()
