# SPDX-License-Identifier: MIT
"""Starts `rvscope serve --listen 127.0.0.1:0` for an end-to-end test and stops it."""
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
import unittest

from lifetime import ends_with_this_process


# With RVSCOPE_TEST_ETCD=URL[,URL...] (run_on_etcd.py sets it) every server a test starts runs
# on that etcd, under a prefix of its own, so it starts as empty as the embedded store.
ETCD_ENDPOINTS = os.environ.get("RVSCOPE_TEST_ETCD", "")
_servers_started = 0


def storage_args():
    global _servers_started
    if not ETCD_ENDPOINTS:
        return []
    _servers_started += 1
    return ["--storage", "etcd", "--etcd-endpoints", ETCD_ENDPOINTS,
            "--etcd-prefix", f"/e2e-{os.getpid()}-{_servers_started}"]


class RvscopeServer:
    def __init__(self, binary, *extra_args, storage=None):
        """`storage`: the storage arguments (default: the embedded store, or the test etcd)."""
        self.process = subprocess.Popen(
            ends_with_this_process([binary, "serve", "--listen", "127.0.0.1:0",
                                    *(storage_args() if storage is None else storage), *extra_args]),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.match(r"listening on (https?://127\.0\.0\.1:(\d+))$", line.strip())
        if not match:
            self.process.kill()
            raise RuntimeError(f"no ready line from rvscope: {line!r} {self.process.stderr.read()}")
        self.url = match.group(1)
        self.port = int(match.group(2))

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        finally:
            self.process.stdout.close()
            self.process.stderr.close()
        return self.process.returncode


def kubectl(server, *args, input=None, env=None, check=True):
    """Runs kubectl against `server` with a fresh discovery cache, like a first-time user."""
    cache = tempfile.mkdtemp(prefix="kubectl-cache-")
    command = ["kubectl", f"--server={server.url}", f"--cache-dir={cache}", *args]
    full_env = dict(os.environ, **(env or {}))
    try:
        result = subprocess.run(command, input=input, capture_output=True, text=True, env=full_env, timeout=60)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


class KubectlTestCase(unittest.TestCase):
    """A fresh `rvscope serve` per test (RVSCOPE_BINARY), kubectl against it, and manifests
    written to files that go when the test does."""

    def setUp(self):
        self.server = RvscopeServer(os.environ["RVSCOPE_BINARY"])
        self.manifests = []
        self.caches = []

    def tearDown(self):
        for path in self.manifests:
            os.unlink(path)
        for path in self.caches:
            shutil.rmtree(path, ignore_errors=True)
        self.assertEqual(self.server.stop(), 0)

    def k(self, *args, **kwargs):
        return kubectl(self.server, *args, **kwargs)

    def start_kubectl(self, *args):
        """kubectl left running (`get -w`), its stdout piped; the caller terminates it."""
        cache = tempfile.mkdtemp(prefix="kubectl-cache-")
        self.caches.append(cache)
        return subprocess.Popen(["kubectl", f"--server={self.server.url}", f"--cache-dir={cache}", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def write(self, text):
        handle = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        handle.write(text)
        handle.close()
        self.manifests.append(handle.name)
        return handle.name


class LineReader:
    """The stdout of a running process, line by line, with a deadline instead of sleeps."""

    def __init__(self, process):
        self.process = process
        self.buffer = ""

    def until(self, wanted, timeout=20):
        """Returns the lines read until one contains `wanted` (that line included)."""
        lines = []
        deadline = time.monotonic() + timeout
        while True:
            while "\n" in self.buffer:
                line, self.buffer = self.buffer.split("\n", 1)
                lines.append(line)
                if wanted in line:
                    return lines
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line with {wanted!r} after {lines!r}")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536).decode()
                if not chunk:
                    raise AssertionError(f"the process ended before {wanted!r}: {lines!r}")
                self.buffer += chunk


class BulkSession:
    """A bulk watch websocket (README "Bulk watch protocol"): watch requests out, frames in."""

    def __init__(self, socket):
        self.socket = socket

    def watch(self, request_id, resource, name=None, namespace="default"):
        """Opens a watch of core-group `resource` in `namespace` (of one object: `name`)."""
        options = {"namespace": namespace}
        if name:
            options["fieldSelector"] = f"metadata.name={name}"
        self.socket.send(json.dumps({"id": request_id, "watch": {"selector": {
            "resource": {"group": "", "version": "v1", "resource": resource}, "options": options}}}))

    def receive(self, predicate):
        """The next frame `predicate` takes (frames before it are skipped)."""
        while True:
            frame = json.loads(self.socket.recv())
            if predicate(frame):
                return frame
