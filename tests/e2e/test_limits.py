#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The bounds that keep one client from taking the server, through `rvscope serve` and real
sockets: each answered 429 TooManyRequests with Retry-After, the others served on."""
import http.client
import json
import os
import socket
import time
import unittest

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]


def request(server, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        payload = json.dumps(body) if body is not None else None
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


def configmap(name):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"a": "1"}}


class Limits(unittest.TestCase):
    def tearDown(self):
        if getattr(self, "server", None):
            self.assertEqual(self.server.stop(), 0)

    def assert_too_many(self, status, headers, body, words):
        self.assertEqual(status, 429, body)
        self.assertGreaterEqual(int(headers["Retry-After"]), 1)
        decoded = json.loads(body)
        self.assertEqual(decoded["kind"], "Status")
        self.assertEqual(decoded["reason"], "TooManyRequests")
        self.assertIn(words, decoded["message"])

    def assert_still_serves(self):
        status, _, _ = request(self.server, "GET", "/api/v1/namespaces/default/configmaps")
        self.assertEqual(status, 200)

    def test_connections_past_the_bound_get_429_and_are_closed(self):
        self.server = RvscopeServer(BINARY, "--max-connections", "3")
        held = [socket.create_connection(("127.0.0.1", self.server.port)) for _ in range(3)]
        try:
            time.sleep(0.2)  # accepted and counted
            extra = socket.create_connection(("127.0.0.1", self.server.port))
            extra.sendall(b"GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            extra.settimeout(5)
            while True:
                chunk = extra.recv(65536)
                if not chunk:
                    break  # closed by the server
                answer += chunk
            extra.close()
            head, _, body = answer.partition(b"\r\n\r\n")
            self.assertTrue(head.startswith(b"HTTP/1.1 429"), head)
            self.assertIn(b"Retry-After: 1", head)
            self.assertIn(b"too many open connections (3)", body)
        finally:
            for connection in held:
                connection.close()
        time.sleep(0.2)  # the held ones are gone: room again
        self.assert_still_serves()

    def test_user_request_rate_is_bounded_per_user_with_retry_after(self):
        self.server = RvscopeServer(BINARY, "--max-user-request-rate", "20")
        statuses = []
        last = None
        for _ in range(60):
            status, headers, body = request(self.server, "GET", "/api/v1/namespaces/default/configmaps")
            statuses.append(status)
            if status == 429:
                last = (status, headers, body)
        self.assertIn(200, statuses)
        self.assertIsNotNone(last, statuses)
        self.assert_too_many(*last, 'too many requests from user "system:anonymous" (more than 20 per second)')
        time.sleep(1.1)  # a second's worth again
        self.assert_still_serves()

    # The apiserver's max-in-flight filter leaves long-running requests (watches) out: a
    # watch whose start waits (here an injected delay; on etcd, etcd's answer) took a slot
    # before, so most of a thousand watchers opened at once got 429 on etcd.
    def test_requests_in_flight_are_bounded_but_watches_are_not(self):
        self.server = RvscopeServer(BINARY, "--max-requests-inflight", "2", "--fault", "list,watch configmaps delay=500ms")

        def send_all(path, count):
            sockets = []
            for _ in range(count):
                sock = socket.create_connection(("127.0.0.1", self.server.port), timeout=10)
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                sockets.append(sock)
            statuses = sorted(int(sock.recv(4096)[9:12]) for sock in sockets)
            for sock in sockets:
                sock.close()
            return statuses

        self.assertEqual(send_all("/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2", 5), [200] * 5)
        self.assertEqual(send_all("/api/v1/namespaces/default/configmaps", 3), [200, 200, 429])

    def test_watches_per_user_are_bounded(self):
        self.server = RvscopeServer(BINARY, "--max-watches-per-user", "2")
        streams = []
        try:
            for _ in range(2):
                connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
                connection.request("GET", "/api/v1/namespaces/default/configmaps?watch=true")
                self.assertEqual(connection.getresponse().status, 200)
                streams.append(connection)
            status, headers, body = request(self.server, "GET", "/api/v1/namespaces/default/configmaps?watch=true")
            self.assert_too_many(status, headers, body, 'too many open watches of user "system:anonymous" (2)')
            self.assert_still_serves()  # other requests go on
        finally:
            for connection in streams:
                connection.close()
        deadline = time.time() + 5
        while time.time() < deadline:  # closed watches give their room back
            connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
            connection.request("GET", "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1")
            status = connection.getresponse().status
            connection.close()
            if status == 200:
                break
            time.sleep(0.1)
        self.assertEqual(status, 200)

    def test_bulk_channels_past_the_bound_are_refused_per_channel(self):
        import subprocess
        self.server = RvscopeServer(BINARY, "--max-bulk-channels", "2")
        client = subprocess.Popen([BINARY, "client", "bulk-watch", "--server", self.server.url, "--watch", "configmaps",
                                   "--watch", "secrets", "--watch", "namespaces"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = [client.stdout.readline().strip() for _ in range(3)]
        client.terminate()
        client.communicate(timeout=10)
        self.assertIn("channel 1 opened: configmaps", lines)
        self.assertIn("channel 2 opened: secrets", lines)
        self.assertIn("request 3 rejected (namespaces): 429 TooManyRequests: too many open channels in this bulk "
                      "watch session (2), close some first", lines)
        self.assert_still_serves()

    def test_limit_flags_reject_bad_values_clearly(self):
        import subprocess
        result = subprocess.run([BINARY, "serve", "--max-connections", "lots"], capture_output=True, text=True,
                                timeout=30)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--max-connections expects a number of connections from 0 (no bound)", result.stderr)


if __name__ == "__main__":
    unittest.main()
