#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`rvscope serve --watch-backlog SIZE` through the real binary: a watch whose client stops
reading ends with ERROR 410 once SIZE bytes wait for it, and one within the bound does not.
(The flag was once parsed and then never handed to the server.)"""
import json
import os
import socket
import unittest
import urllib.request

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
BIG_VALUE = "x" * (100 * 1024)
# The kernel's send buffer takes up to 4 MiB (tcp_wmem) before anything waits in the
# server: 6 MiB of events overflow it and a 64 KiB bound for sure, and 3 MiB stay well
# within the default 8 MiB.
MANY, FEW = 60, 30


class Stream:
    """A chunked watch response read from a raw socket with a small receive buffer, so that
    what the client does not read waits on the server."""

    def __init__(self, port, path):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(20)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 200"), head
        self.ended = False

    def read(self):
        data = self.sock.recv(65536)
        return data

    def events_until(self, wanted):
        """Decodes chunks into events until one's object is named `wanted`, or the stream
        ends (its last chunk, or the connection closed)."""
        events = []
        while True:
            while b"\r\n" in self.buffer:
                size_line, rest = self.buffer.split(b"\r\n", 1)
                size = int(size_line, 16)
                if size == 0:
                    self.ended = True
                    return events
                if len(rest) < size + 2:
                    break
                for line in rest[:size].decode().splitlines():
                    event = json.loads(line)
                    events.append(event)
                    if event["object"].get("metadata", {}).get("name") == wanted:
                        return events
                self.buffer = rest[size + 2:]
            data = self.read()
            if not data:
                self.ended = True
                return events
            self.buffer += data

    def close(self):
        self.sock.close()


def post(server, name, value):
    body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"v": value}})
    request = urllib.request.Request(server.url + "/api/v1/namespaces/default/configmaps", method="POST",
                                     data=body.encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        assert response.status == 201


class WatchBacklog(unittest.TestCase):
    def run_unread_watch(self, writes, *flags):
        """Opens a watch, writes `writes` 100 KiB events it does not read, then one small object (the
        barrier: a commit reaches the watch before its POST is answered), and reads."""
        server = RvscopeServer(BINARY, *flags)
        try:
            stream = Stream(server.port, "/api/v1/namespaces/default/configmaps?watch=1")
            for i in range(writes):
                post(server, f"big-{i}", BIG_VALUE)
            post(server, "last", "1")
            events = stream.events_until("last")
            ended = stream.ended
            stream.close()
            with urllib.request.urlopen(server.url + "/healthz", timeout=10) as health:
                self.assertEqual(health.status, 200)  # the server goes on serving
            return events, ended
        finally:
            self.assertEqual(server.stop(), 0)

    def test_a_small_bound_ends_the_unread_watch_with_410(self):
        events, ended = self.run_unread_watch(MANY, "--watch-backlog", "64Ki")
        self.assertTrue(ended)
        self.assertEqual(events[-1]["type"], "ERROR")
        status = events[-1]["object"]
        self.assertEqual((status["code"], status["reason"]), (410, "Expired"))
        self.assertIn("(limit 65536)", status["message"])
        self.assertLess(len(events) - 1, MANY)  # it ended before the writes did
        self.assertNotIn("last", [e["object"].get("metadata", {}).get("name") for e in events])

    def test_the_default_bound_keeps_it(self):
        events, ended = self.run_unread_watch(FEW)
        self.assertFalse(ended)
        self.assertEqual([e["type"] for e in events], ["ADDED"] * (FEW + 1))


if __name__ == "__main__":
    unittest.main(verbosity=2)
