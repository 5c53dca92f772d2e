# SPDX-License-Identifier: MIT
"""Clients for the etcd end-to-end tests: counters incremented by GET + PUT with the
resourceVersion read (the optimistic-concurrency loop), and a watch that records events."""
import http.client
import json
import threading
import time

PATH = "/api/v1/namespaces/default/configmaps"


def call(port, method, path, body=None, content_type="application/json", timeout=10):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": content_type} if body is not None else {}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def rv(obj):
    return int(obj["metadata"]["resourceVersion"])


class Counter(threading.Thread):
    """Increments data.n of its own ConfigMap through the given servers in turn, by GET then
    PUT with the read resourceVersion; retries on 409. Records each acknowledged value."""

    def __init__(self, name, ports, stop):
        super().__init__(daemon=True)
        self.name_ = name
        self.ports = ports
        self.stop = stop
        self.acked = []       # (rv, value)
        self.acked_at = []    # time.monotonic() of each acknowledgement
        self.failures = 0     # answers other than 200/201/409, or no answer (a failover)
        self.conflicts = 0

    def run(self):
        turn = 0
        status, body = call(self.ports[0], "POST", PATH, {"metadata": {"name": self.name_}, "data": {"n": "0"}})
        if status == 201:
            self.acked.append((rv(body), 0))
            self.acked_at.append(time.monotonic())
        while not self.stop.is_set():
            port = self.ports[turn % len(self.ports)]
            turn += 1
            try:
                status, current = call(port, "GET", f"{PATH}/{self.name_}")
                if status != 200:
                    self.failures += 1
                    time.sleep(0.01)
                    continue
                value = int(current["data"]["n"]) + 1
                current["data"]["n"] = str(value)
                status, body = call(port, "PUT", f"{PATH}/{self.name_}", current)
            except (OSError, http.client.HTTPException):
                self.failures += 1
                time.sleep(0.01)
                continue
            if status == 200:
                self.acked.append((rv(body), value))
                self.acked_at.append(time.monotonic())
            elif status == 409:
                self.conflicts += 1
            else:
                self.failures += 1
                time.sleep(0.01)


class Watch(threading.Thread):
    """A watch on `port` from `from_rv`, recording (rv, type, name, data.n) until closed."""

    def __init__(self, port, from_rv):
        super().__init__(daemon=True)
        self.port = port
        self.from_rv = from_rv
        self.events = []
        self.ended = None
        self.opened = threading.Event()
        self.conn = None

    def run(self):
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            self.conn.request("GET", f"{PATH}?watch=1&resourceVersion={self.from_rv}")
            response = self.conn.getresponse()
            self.opened.set()
            if response.status != 200:
                self.ended = f"watch answered {response.status}"
                return
            while True:
                line = response.readline()
                if not line:
                    self.ended = "the server closed the watch"
                    return
                event = json.loads(line)
                obj = event["object"]
                if event["type"] == "ERROR":
                    self.ended = f"ERROR event: {obj.get('message')}"
                    return
                self.events.append((rv(obj), event["type"], obj["metadata"]["name"],
                                    (obj.get("data") or {}).get("n")))
        except (OSError, http.client.HTTPException, ValueError) as error:
            self.ended = f"{type(error).__name__}: {error}"
        finally:
            self.opened.set()

    def wait_for(self, revision, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.events and self.events[-1][0] >= revision:
                return True
            if self.ended:
                return False
            time.sleep(0.02)
        return False

    def close(self):
        if self.conn and self.conn.sock:
            try:
                self.conn.sock.shutdown(2)
            except OSError:
                pass


def list_rv(port):
    status, body = call(port, "GET", PATH)
    assert status == 200, body
    return int(body["metadata"]["resourceVersion"])
