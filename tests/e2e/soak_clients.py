# SPDX-License-Identifier: MIT
"""The clients of test_soak.py: watchers that disconnect at random and resume from the last
resourceVersion they saw (relisting on 410) while checking their own guarantees, writers over
raw HTTP and the Python client, `rvscope client` processes run in a loop, and an RSS sampler.
Every client runs in its own thread until `stop` is set; each has its own seeded Random."""
import http.client
import json
import random
import select
import socket
import subprocess
import threading
import time

from kubernetes import client as kube, watch as kube_watch
from kubernetes.client.rest import ApiException

NAMESPACE = "default"
COLLECTION = f"/api/v1/namespaces/{NAMESPACE}/configmaps"


def rv_of(obj):
    return int(obj["metadata"]["resourceVersion"])


def request(port, method, path, body=None, content_type="application/json"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": content_type})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def list_state(port):
    """(list resourceVersion, {name: (rv, data)}) of every ConfigMap in the namespace."""
    status, body = request(port, "GET", COLLECTION)
    if status != 200:
        raise AssertionError(f"LIST answered {status}: {body}")
    return int(body["metadata"]["resourceVersion"]), {
        item["metadata"]["name"]: (rv_of(item), item.get("data")) for item in body["items"]}


class ChunkedWatch:
    """One watch response over a raw socket, read with deadlines: HTTP/1.1 chunked JSON lines."""

    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n".encode())
        self.raw = b""    # bytes received, not yet parsed as chunks
        self.body = b""   # de-chunked bytes, not yet split into lines
        self.ended = False
        deadline = time.monotonic() + 10
        while b"\r\n\r\n" not in self.raw:
            if self.ended or time.monotonic() > deadline:
                raise AssertionError(f"no response head to the watch {path}: {self.raw!r}")
            self._receive(deadline - time.monotonic())
        head, self.raw = self.raw.split(b"\r\n\r\n", 1)
        self.status = int(head.split(b" ", 2)[1])
        if b"transfer-encoding: chunked" not in head.lower():
            raise AssertionError(f"watch answered without a chunked stream: {head!r}")

    def _receive(self, timeout):
        ready, _, _ = select.select([self.sock], [], [], max(timeout, 0))
        if not ready:
            return False
        data = self.sock.recv(65536)
        if not data:
            self.ended = True
        self.raw += data
        return True

    def _dechunk(self):
        while b"\r\n" in self.raw:
            size_line, rest = self.raw.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                self.ended = True
                return
            if len(rest) < size + 2:
                return
            self.body += rest[:size]
            self.raw = rest[size + 2:]

    def next_event(self, deadline):
        """The next event, or None at the deadline or the end of the stream."""
        while True:
            self._dechunk()
            if b"\n" in self.body:
                line, self.body = self.body.split(b"\n", 1)
                if line.strip():
                    return json.loads(line)
                continue
            if self.ended:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._receive(min(left, 0.2))

    def close(self):
        self.sock.close()


class Watcher(threading.Thread):
    """Watches the ConfigMaps of the namespace, disconnects at random times and resumes from the
    last resourceVersion it saw; relists on 410. It keeps the state its events describe and
    checks as it goes: resourceVersions strictly increase within a stream, a resumed stream
    begins after its resume point, ADDED only for an object it does not hold, MODIFIED and
    DELETED only for one it holds and newer than what it holds."""

    def __init__(self, name, port, stop, seed):
        super().__init__(name=name, daemon=True)
        self.port, self.stop, self.rnd = port, stop, random.Random(seed)
        self.rv = None          # where the next watch resumes
        self.from_list = True   # self.rv is a list's, not the last event's
        self.state = {}         # name -> (rv, data)
        self.violations = []
        self.events = self.streams = self.resumes = self.expired = self.relists = 0
        self.sentinel = None    # the name whose ADDED ends catch_up()
        self.caught_up = threading.Event()
        self.error = None

    def violation(self, text):
        if len(self.violations) < 50:
            self.violations.append(f"{self.name}: {text}")

    def relist(self):
        self.rv, self.state = list_state(self.port)
        self.from_list = True
        self.relists += 1
        if self.sentinel in self.state:
            self.caught_up.set()

    def start_stream(self):
        """The resourceVersion this stream starts from; counts it."""
        self.streams += 1
        self.resumes += 0 if self.from_list else 1
        return self.rv

    def apply(self, event_type, obj, stream_last, resumed_from):
        rv, name = rv_of(obj), obj["metadata"]["name"]
        if stream_last is not None and rv <= stream_last:
            self.violation(f"{event_type} {name} rv {rv} after rv {stream_last} in one stream")
        if stream_last is None and rv <= resumed_from:
            self.violation(f"resumed from rv {resumed_from}, first event {event_type} {name} rv {rv}")
        held = self.state.get(name)
        if event_type == "ADDED" and held is not None:
            self.violation(f"ADDED {name} rv {rv}, held at rv {held[0]}")
        if event_type in ("MODIFIED", "DELETED") and (held is None or held[0] >= rv):
            self.violation(f"{event_type} {name} rv {rv}, held {held and held[0]}")
        if event_type == "DELETED":
            self.state.pop(name, None)
        else:
            self.state[name] = (rv, obj.get("data"))
        self.rv = rv
        self.from_list = False
        self.events += 1
        if name == self.sentinel and event_type == "ADDED":
            self.caught_up.set()

    def run(self):
        try:
            self.relist()
            while not (self.stop.is_set() and self.caught_up.is_set()):
                self.stream_once()
                if not self.stop.is_set():
                    # Mostly a quick reconnect; sometimes long enough for the history to move on.
                    time.sleep(self.rnd.choice([0, 0.01, 0.05, 0.1, 0.5, 1.5, 3.0]))
        except Exception as error:  # reported by the test, with the thread's name
            self.error = f"{self.name}: {error!r}"
            self.caught_up.set()

    def stream_once(self):
        raise NotImplementedError


class RawWatcher(Watcher):
    """Over a raw HTTP chunked watch stream."""

    def stream_once(self):
        resumed_from = self.start_stream()
        stream = ChunkedWatch(self.port, f"{COLLECTION}?watch=1&resourceVersion={resumed_from}&allowWatchBookmarks=true")
        last = None
        # While catching up at the end, stay until the sentinel arrives.
        deadline = time.monotonic() + (30 if self.stop.is_set() else self.rnd.uniform(0.2, 4.0))
        try:
            while not self.caught_up.is_set() or not self.stop.is_set():
                event = stream.next_event(deadline)
                if event is None:
                    return
                obj = event["object"]
                if event["type"] == "ERROR":
                    if obj.get("code") != 410:
                        raise AssertionError(f"watch ERROR {obj}")
                    self.expired += 1
                    self.relist()
                    return
                if event["type"] == "BOOKMARK":
                    if last is not None and rv_of(obj) < last:
                        self.violation(f"BOOKMARK rv {rv_of(obj)} after rv {last}")
                    continue
                self.apply(event["type"], obj, last, resumed_from)
                last = rv_of(obj)
        finally:
            stream.close()


class PythonWatcher(Watcher):
    """Through python3-kubernetes' Watch, ended at random by the server (timeout_seconds) or
    by the client (stop()); a 410 arrives as an ApiException."""

    def __init__(self, name, port, stop, seed):
        super().__init__(name, port, stop, seed)
        configuration = kube.Configuration()
        configuration.host = f"http://127.0.0.1:{port}"
        self.api = kube.CoreV1Api(kube.ApiClient(configuration))

    def stream_once(self):
        resumed_from = self.start_stream()
        last = None
        timeout = 30 if self.stop.is_set() else self.rnd.randint(1, 4)
        stop_after = self.rnd.randint(5, 400)
        w = kube_watch.Watch()
        try:
            for event in w.stream(self.api.list_namespaced_config_map, NAMESPACE, resource_version=str(resumed_from),
                                  timeout_seconds=timeout):
                obj = event["raw_object"]
                if event["type"] == "BOOKMARK":
                    continue
                self.apply(event["type"], obj, last, resumed_from)
                last = rv_of(obj)
                stop_after -= 1
                if (stop_after <= 0 and not self.stop.is_set()) or (self.stop.is_set() and self.caught_up.is_set()):
                    w.stop()
        except ApiException as error:
            if error.status != 410:
                raise
            self.expired += 1
            self.relist()


class RawWriter(threading.Thread):
    """Creates, updates (GET+PUT with the read resourceVersion, merge PATCH) and deletes its own
    ConfigMaps over raw HTTP, remembering what each acknowledged write left."""

    def __init__(self, name, port, stop, seed, names):
        super().__init__(name=name, daemon=True)
        self.port, self.stop, self.rnd, self.names = port, stop, random.Random(seed), names
        self.acked = {}  # name -> data, or None when deleted
        self.writes = self.conflicts = 0
        self.error = None

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

        def call(method, path, body=None, content_type="application/json"):
            conn.request(method, path, body=json.dumps(body) if body is not None else None,
                         headers={"Content-Type": content_type})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"{}")

        try:
            counter = 0
            while not self.stop.is_set():
                name = self.rnd.choice(self.names)
                counter += 1
                data = {"v": f"{self.name}-{counter}"}
                choice = self.rnd.random()
                if choice < 0.3:
                    status, _ = call("POST", COLLECTION, {"metadata": {"name": name}, "data": data})
                    self.record(status, 201, name, data)
                elif choice < 0.6:
                    status, current = call("GET", f"{COLLECTION}/{name}")
                    if status == 200:
                        current["data"] = data
                        status, _ = call("PUT", f"{COLLECTION}/{name}", current)
                        self.record(status, 200, name, data)
                elif choice < 0.85:
                    status, body = call("PATCH", f"{COLLECTION}/{name}", {"data": data}, "application/merge-patch+json")
                    if status == 200:
                        data = body.get("data")
                    self.record(status, 200, name, data)
                else:
                    status, _ = call("DELETE", f"{COLLECTION}/{name}")
                    self.record(status, 200, name, None)
                time.sleep(self.rnd.uniform(0.001, 0.004))
        except Exception as error:
            self.error = f"{self.name}: {error!r}"
        finally:
            conn.close()

    def record(self, status, ok, name, data):
        if status == ok:
            self.acked[name] = data
            self.writes += 1
        elif status == 409:
            self.conflicts += 1  # a create of an existing object
        elif status != 404:
            raise AssertionError(f"{self.name}: {name} answered {status}")


class PythonWriter(threading.Thread):
    """The same with python3-kubernetes: create, read + replace, patch, delete."""

    def __init__(self, name, port, stop, seed, names):
        super().__init__(name=name, daemon=True)
        self.stop, self.rnd, self.names = stop, random.Random(seed), names
        configuration = kube.Configuration()
        configuration.host = f"http://127.0.0.1:{port}"
        self.api = kube.CoreV1Api(kube.ApiClient(configuration))
        self.acked = {}
        self.writes = self.conflicts = 0
        self.error = None

    def run(self):
        counter = 0
        try:
            while not self.stop.is_set():
                name = self.rnd.choice(self.names)
                counter += 1
                data = {"v": f"{self.name}-{counter}"}
                choice = self.rnd.random()
                try:
                    if choice < 0.3:
                        self.api.create_namespaced_config_map(
                            NAMESPACE, kube.V1ConfigMap(metadata=kube.V1ObjectMeta(name=name), data=data))
                    elif choice < 0.6:
                        current = self.api.read_namespaced_config_map(name, NAMESPACE)
                        current.data = data
                        self.api.replace_namespaced_config_map(name, NAMESPACE, current)
                    elif choice < 0.85:
                        data = self.api.patch_namespaced_config_map(name, NAMESPACE, {"data": data}).data
                    else:
                        self.api.delete_namespaced_config_map(name, NAMESPACE)
                        data = None
                    self.acked[name] = data
                    self.writes += 1
                except ApiException as error:
                    if error.status == 409:
                        self.conflicts += 1
                    elif error.status != 404:
                        raise
                time.sleep(self.rnd.uniform(0.001, 0.004))
        except Exception as error:
            self.error = f"{self.name}: {error!r}"


class ClientLoop(threading.Thread):
    """`rvscope client` processes of one strategy on ConfigMaps of their own (--object-prefix),
    one after another with the next seed, until `stop`; sums what they report."""

    def __init__(self, binary, url, stop, seed, strategy, prefix, objects, clients, operations, think):
        super().__init__(name=f"client-{strategy}", daemon=True)
        self.binary, self.url, self.stop, self.seed = binary, url, stop, seed
        self.strategy, self.prefix, self.objects = strategy, prefix, objects
        self.clients, self.operations, self.think = clients, operations, think
        self.runs = self.landed = self.attempts = self.conflicts = 0
        self.error = None

    def run(self):
        try:
            while not self.stop.is_set():
                result = subprocess.run(
                    [self.binary, "client", "--server", self.url, "--strategy", self.strategy,
                     "--object-prefix", self.prefix, "--objects", str(self.objects), "--clients", str(self.clients),
                     "--operations", str(self.operations), "--think", self.think, "--seed", str(self.seed + self.runs),
                     "--name", f"{self.prefix}-c", "--json"],
                    capture_output=True, text=True, timeout=120)
                if result.returncode != 0:
                    raise AssertionError(f"rvscope client exited {result.returncode}: {result.stderr}")
                summary = json.loads(result.stdout.strip().splitlines()[-1])
                self.runs += 1
                self.landed += summary["succeeded"]
                self.attempts += summary["attempts"]
                self.conflicts += summary["conflicts"]
        except Exception as error:
            self.error = f"{self.name}: {error!r}"


class RssSampler(threading.Thread):
    """Every `period` seconds: the server's VmRSS (KiB) and `probe()` (what the test wants to
    know at the same moment), stamped with time.monotonic()."""

    def __init__(self, pid, stop, probe, period=1.0):
        super().__init__(name="rss", daemon=True)
        self.pid, self.stop, self.probe, self.period = pid, stop, probe, period
        self.samples = []  # (monotonic seconds, KiB, probe())
        self.error = None

    def run(self):
        try:
            while not self.stop.is_set():
                with open(f"/proc/{self.pid}/status") as status:
                    kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
                self.samples.append((time.monotonic(), kib, self.probe()))
                self.stop.wait(self.period)
        except Exception as error:
            self.error = f"{self.name}: {error!r}"
