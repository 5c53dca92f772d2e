# SPDX-License-Identifier: MIT
"""Starts real etcd 3.4 members (Debian's etcd-server) on free loopback ports for end-to-end
tests and for `./dev.sh cluster`, and stops them."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

from lifetime import ends_with_this_process


def free_port():
    return free_ports(1)[0]


def free_ports(count):
    """`count` distinct loopback ports, free when called (all held open at once: a port
    closed may be handed out again)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


# A start is tried again on fresh ports when a port was taken between being found free and
# etcd binding it (another test's listener or outgoing connection).
START_ATTEMPTS = 3


class EtcdMember:
    def __init__(self, name, client_port, peer_port, data_dir, initial_cluster, fsync):
        self.name = name
        self.client_url = f"http://127.0.0.1:{client_port}"
        self.peer_url = f"http://127.0.0.1:{peer_port}"
        self.data_dir = data_dir
        self.initial_cluster = initial_cluster
        self.fsync = fsync
        self.process = None
        self.log = None

    def start(self, state="new"):
        args = ["etcd", "--name", self.name, "--data-dir", self.data_dir,
                "--listen-client-urls", self.client_url, "--advertise-client-urls", self.client_url,
                "--listen-peer-urls", self.peer_url, "--initial-advertise-peer-urls", self.peer_url,
                "--initial-cluster", self.initial_cluster, "--initial-cluster-state", state,
                "--initial-cluster-token", "rvscope-test",
                # Progress notifications every 5 s: bookmarks move on while a prefix is quiet.
                "--experimental-watch-progress-notify-interval", "5s"]
        if not self.fsync:
            args.append("--unsafe-no-fsync")
        self.log = open(os.path.join(os.path.dirname(self.data_dir), f"{self.name}.log"), "ab")
        # A session of its own: a Ctrl-C meant for the test or ./dev.sh cluster does not kill
        # the member before its owner stops it.
        self.process = subprocess.Popen(ends_with_this_process(args), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def log_text(self):
        try:
            with open(os.path.join(os.path.dirname(self.data_dir), f"{self.name}.log"), "rb") as log:
                return log.read()
        except OSError:
            return b""

    def healthy(self):
        try:
            with urllib.request.urlopen(self.client_url + "/health", timeout=1) as response:
                return b'"health":"true"' in response.read()
        except OSError:
            return False

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log:
            self.log.close()
            self.log = None


class EtcdCluster:
    """`size` members on loopback, each with its own ports and data directory."""

    def __init__(self, size=1, fsync=False):
        for attempt in range(1, START_ATTEMPTS + 1):
            self.root = tempfile.mkdtemp(prefix="rvscope-etcd-")
            names = [f"m{i}" for i in range(size)]
            ports = free_ports(2 * size)
            pairs = list(zip(ports[0::2], ports[1::2]))
            initial = ",".join(f"{name}=http://127.0.0.1:{peer}" for name, (_, peer) in zip(names, pairs))
            self.members = [EtcdMember(name, client, peer, os.path.join(self.root, name), initial, fsync)
                            for name, (client, peer) in zip(names, pairs)]
            try:
                for member in self.members:
                    member.start()
                self.wait_healthy(self.members)
                return
            except BaseException as error:
                # (A Ctrl-C is never tried again.)
                taken = isinstance(error, Exception) and any(
                    b"address already in use" in member.log_text() for member in self.members)
                self.stop()
                if attempt == START_ATTEMPTS or not taken:
                    raise

    @property
    def endpoints(self):
        return ",".join(member.client_url for member in self.members)

    def wait_healthy(self, members, timeout=30):
        deadline = time.monotonic() + timeout
        while not all(member.healthy() for member in members):
            for member in members:
                if member.process.poll() is not None:
                    raise RuntimeError(f"etcd {member.name} exited: see {self.root}/{member.name}.log")
            if time.monotonic() > deadline:
                raise RuntimeError(f"etcd not healthy after {timeout} s: see {self.root}")
            time.sleep(0.05)

    def restart(self, member):
        member.start(state="existing")
        self.wait_healthy([member])

    def stop(self):
        for member in self.members:
            member.stop()
        shutil.rmtree(self.root, ignore_errors=True)
