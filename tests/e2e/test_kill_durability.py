#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`rvscope serve --data-dir` killed with SIGKILL again and again under concurrent creates,
updates (PUT and PATCH), deletes, reads and a watch. After every kill the restarted server
must show that durable came before visible (DESIGN.md, Storage.h):

- nothing acknowledged is lost: every write's reply names a revision that the restored history
  holds with the same object;
- nothing seen is lost: every event the watcher got and every object a GET returned before
  the kill is in the restored history, identical;
- no resourceVersion is handed out twice: the restored revision is at least every revision any
  client saw, and the first write after the restart gets a newer one;
- the watch history survives: a watch from the revision the round started at is served (no
  410) and is gap-free up to the restored revision.

RVSCOPE_KILLS sets the number of kills (100 by default: what CI runs)."""
import http.client
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import unittest

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
KILLS = int(os.environ.get("RVSCOPE_KILLS", "100"))
WRITERS = 6
NAMES_PER_WRITER = 3
PATH = "/api/v1/namespaces/default/configmaps"


def request(conn, method, path, body=None, content_type="application/json"):
    headers = {"Content-Type": content_type} if body is not None else {}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def rv(obj):
    return int(obj["metadata"]["resourceVersion"])


class Round:
    """What the clients of one round were told before the kill."""

    def __init__(self):
        self.lock = threading.Lock()
        self.acked = []    # (rv, name, data): a create, PUT or PATCH answered 2xx
        self.deleted = []  # name: a DELETE answered 200
        self.read = []     # (rv, name, data): a GET answered 200
        self.watched = []  # (rv, type, name, data)
        self.last_acked = {}  # name -> data or None (deleted): its writer's last answered write
        self.in_flight = {}   # name -> data or None: the write that was sent and not answered
        self.watch_error = None


def writer(server, index, stop, round_):
    rnd = random.Random(index * 7919 + int(time.monotonic() * 1000))
    names = [f"w{index}-{i}" for i in range(NAMES_PER_WRITER)]
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    counter = 0
    try:
        while not stop.is_set():
            name = rnd.choice(names)
            counter += 1
            value = f"{index}-{counter}-{rnd.random():.6f}"
            choice = rnd.random()
            if choice < 0.25:
                data = {"v": value}
                round_.in_flight[name] = data
                status, body = request(conn, "POST", PATH, {"metadata": {"name": name}, "data": data})
                if status == 201:
                    with round_.lock:
                        round_.acked.append((rv(body), name, body.get("data")))
                        round_.last_acked[name] = body.get("data")
            elif choice < 0.55:
                status, current = request(conn, "GET", f"{PATH}/{name}")
                if status != 200:
                    continue
                with round_.lock:
                    round_.read.append((rv(current), name, current.get("data")))
                current["data"] = {"v": value}
                round_.in_flight[name] = current["data"]
                status, body = request(conn, "PUT", f"{PATH}/{name}", current)
                if status == 200:
                    with round_.lock:
                        round_.acked.append((rv(body), name, body.get("data")))
                        round_.last_acked[name] = body.get("data")
            elif choice < 0.8:
                data = {"v": value}
                round_.in_flight[name] = data
                status, body = request(conn, "PATCH", f"{PATH}/{name}", {"data": data},
                                       "application/merge-patch+json")
                if status == 200:
                    with round_.lock:
                        round_.acked.append((rv(body), name, body.get("data")))
                        round_.last_acked[name] = body.get("data")
            else:
                round_.in_flight[name] = None
                status, _ = request(conn, "DELETE", f"{PATH}/{name}")
                if status == 200:
                    with round_.lock:
                        round_.deleted.append(name)
                        round_.last_acked[name] = None
            round_.in_flight.pop(name, None)
    except (OSError, http.client.HTTPException, json.JSONDecodeError):
        pass  # the server was killed
    finally:
        conn.close()


def watcher(server, from_rv, round_, started):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", f"{PATH}?watch=1&resourceVersion={from_rv}&allowWatchBookmarks=false")
        response = conn.getresponse()
        started.set()
        if response.status != 200:
            round_.watch_error = f"watch answered {response.status}"
            return
        while True:
            line = response.readline()
            if not line:
                return
            event = json.loads(line)
            obj = event["object"]
            if event["type"] == "ERROR":
                round_.watch_error = f"watch error: {obj}"
                return
            with round_.lock:
                round_.watched.append((rv(obj), event["type"], obj["metadata"]["name"], obj.get("data")))
    except (OSError, http.client.HTTPException, json.JSONDecodeError, ValueError):
        pass  # the server was killed
    finally:
        started.set()
        conn.close()


def list_state(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        status, body = request(conn, "GET", PATH)
        assert status == 200, body
        return int(body["metadata"]["resourceVersion"]), {
            item["metadata"]["name"]: item.get("data") for item in body["items"]}
    finally:
        conn.close()


def history(server, after, through):
    """The events with after < rv <= through, by revision, read from a watch."""
    events = {}
    if through <= after:
        return events
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", f"{PATH}?watch=1&resourceVersion={after}")
        response = conn.getresponse()
        assert response.status == 200, f"watch from {after} answered {response.status}: {response.read()!r}"
        while True:
            event = json.loads(response.readline())
            obj = event["object"]
            assert event["type"] != "ERROR", f"watch from {after}: {obj}"
            events[rv(obj)] = (event["type"], obj["metadata"]["name"], obj.get("data"))
            if rv(obj) >= through:
                return events
    finally:
        conn.close()


class KillDurability(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rvscope-kill-")
        self.server = RvscopeServer(BINARY, "--data-dir", self.dir)

    def tearDown(self):
        if self.server.process.poll() is None:
            self.server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def kill(self):
        self.server.process.send_signal(signal.SIGKILL)
        self.server.process.wait(timeout=10)
        self.server.process.stdout.close()
        self.server.process.stderr.close()

    def test_kills_lose_nothing_anyone_was_told(self):
        rnd = random.Random(20261126)
        totals = {"acked": 0, "watched": 0, "read": 0, "deleted": 0}
        started_at = time.monotonic()
        for kill in range(KILLS):
            start_rv, _ = list_state(self.server)
            round_ = Round()
            stop = threading.Event()
            watch_started = threading.Event()
            threads = [threading.Thread(target=watcher, args=(self.server, start_rv, round_, watch_started))]
            threads += [threading.Thread(target=writer, args=(self.server, i, stop, round_)) for i in range(WRITERS)]
            threads[0].start()
            watch_started.wait(5)
            for thread in threads[1:]:
                thread.start()
            time.sleep(rnd.uniform(0.02, 0.15))
            self.kill()
            stop.set()
            for thread in threads:
                thread.join(15)
                self.assertFalse(thread.is_alive(), "a client hangs on a killed server")

            self.server = RvscopeServer(BINARY, "--data-dir", self.dir)
            restored, state = list_state(self.server)
            where = f"kill {kill + 1}"
            self.assertIsNone(round_.watch_error, where)
            seen = [r for r, *_ in round_.acked] + [r for r, *_ in round_.read] + [r for r, *_ in round_.watched]
            self.assertLessEqual(max(seen, default=0), restored, f"{where}: a revision a client saw was lost")
            events = history(self.server, start_rv, restored)
            self.assertEqual(sorted(events), list(range(start_rv + 1, restored + 1)), f"{where}: history has gaps")
            for revision, name, data in round_.acked:
                self.assertIn(events[revision][0], ("ADDED", "MODIFIED"), f"{where}: acknowledged write at {revision}")
                self.assertEqual(events[revision][1:], (name, data), f"{where}: acknowledged write at {revision}")
            for revision, kind, name, data in round_.watched:
                self.assertEqual(events[revision], (kind, name, data), f"{where}: watched event at {revision}")
            for revision, name, data in round_.read:
                if revision > start_rv:
                    self.assertEqual(events[revision][1:], (name, data), f"{where}: read at {revision}")
            for name, data in round_.last_acked.items():
                allowed = [data]
                if name in round_.in_flight:
                    allowed.append(round_.in_flight[name])  # sent, not answered: may or may not have landed
                self.assertIn(state.get(name), allowed, f"{where}: {name} after the restart")

            # The first write after the restart gets a revision nobody has seen.
            conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
            status, body = request(conn, "POST", PATH, {"metadata": {"generateName": "after-"}})
            conn.close()
            self.assertEqual(status, 201, body)
            self.assertEqual(rv(body), restored + 1, where)
            totals["acked"] += len(round_.acked)
            totals["watched"] += len(round_.watched)
            totals["read"] += len(round_.read)
            totals["deleted"] += len(round_.deleted)
        print(f"{KILLS} kills in {time.monotonic() - started_at:.1f} s: {totals['acked']} acknowledged writes, "
              f"{totals['deleted']} deletes, {totals['read']} reads and {totals['watched']} watch events checked")
        self.assertGreater(totals["acked"], KILLS)
        self.assertGreater(totals["watched"], KILLS)


if __name__ == "__main__":
    unittest.main()
