# SPDX-License-Identifier: MIT
"""What the hostile-input catalog (test_hostile_*.py) shares: raw HTTP exchanges, WebSocket
frames, and HostileCase, one `rvscope serve` per class whose sentinel ConfigMap must read
back unchanged after every case.

A case marked `@unittest.expectedFailure` asserts the right behaviour and shows a bug of
today's server; its `# BUG:` comment gives the request that triggers it and what the server
does instead. Remove the marker when the bug is fixed (until then a fixed bug shows as an
unexpected success, which fails the run). `# FIXED` marks cases that found a bug since
fixed: they guard against its return."""
import base64
import http.client
import json
import os
import resource
import selectors
import socket
import struct
import threading
import time
import unittest

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
HOST = "127.0.0.1"
CONFIGMAPS = "/api/v1/namespaces/default/configmaps"
WATCH = CONFIGMAPS + "?watch=true"
BULK = "/apis/bulk.k8s.io/v1/bulkgetoperations"
SENTINEL = "sentinel"
SENTINEL_DATA = {"keep": "me", "n": "1"}

# WebSocket opcodes (RFC 6455 section 5.2).
OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


# ---------------------------------------------------------------------------------------
# HTTP over raw sockets and http.client

class Response:
    def __init__(self, status, headers, body, warnings=()):
        self.status = status
        self.headers = headers  # lower-cased names
        self.body = body
        self.warnings = list(warnings)  # every Warning header's value, in order

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"<{self.status} {self.body[:300]!r}>"


def parse_responses(data):
    """The complete HTTP/1.1 responses (Content-Length bodies) at the start of `data`."""
    responses = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return responses
        lines = data[:end].decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        if len(data) < end + 4 + length:
            return responses
        responses.append(Response(int(lines[0].split()[1]), headers, data[end + 4:end + 4 + length]))
        data = data[end + 4 + length:]


def exchange(port, data, timeout=3.0, quiet=0.5):
    """Sends `data` on a fresh connection and reads the answers: until the server closes the
    connection, or `quiet` seconds pass without more once one answer is complete, or
    `timeout`. Returns (responses, closed by the server, raw bytes)."""
    sock = socket.create_connection((HOST, port), timeout=timeout)
    try:
        try:
            sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before all of it was sent: the answer is read below
        received = b""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return parse_responses(received), False, received
            answered = bool(parse_responses(received))
            sock.settimeout(min(left, quiet) if answered else left)
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                if answered:
                    return parse_responses(received), False, received
                continue
            except ConnectionResetError:
                return parse_responses(received), True, received
            if not chunk:
                return parse_responses(received), True, received
            received += chunk
    finally:
        sock.close()


def call(port, method, path, body=None, content_type="application/json", headers=None, timeout=20):
    """One request with http.client on its own connection."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        all_headers = dict(headers or {})
        if content_type:
            all_headers["Content-Type"] = content_type
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read(),
                        response.headers.get_all("Warning") or [])
    finally:
        connection.close()


def configmap(name, data=None, **metadata):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, **metadata},
            "data": {"a": "1"} if data is None else data}


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


# ---------------------------------------------------------------------------------------
# WebSocket, written by hand: client frames masked (RFC 6455 section 5.3)

def ws_frame(opcode, payload, fin=True, masked=True, rsv=0, length=None, mask_key=None):
    """One frame. `length` overrides the announced payload length (the payload is then
    sent as given, usually empty)."""
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    announced = len(payload) if length is None else length
    mask_bit = 0x80 if masked else 0
    if announced < 126:
        head = struct.pack("!BB", first, mask_bit | announced)
    elif announced < 65536:
        head = struct.pack("!BBH", first, mask_bit | 126, announced)
    else:
        head = struct.pack("!BBQ", first, mask_bit | 127, announced)
    if not masked:
        return head + payload
    key = os.urandom(4) if mask_key is None else mask_key
    if payload and key != b"\0\0\0\0":
        repeated = (key * (len(payload) // 4 + 1))[:len(payload)]
        payload = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")
    return head + key + payload


class WebSocket:
    """A client end: the socket after the 101, and what the server sent after the head."""

    def __init__(self, sock, buffer):
        self.sock = sock
        self.buffer = buffer
        self.close_code = None
        self.close_reason = None
        self.eof = False

    def send(self, opcode, payload, **options):
        self.sock.sendall(ws_frame(opcode, payload, **options))

    def send_json(self, value):
        self.send(OP_TEXT, json.dumps(value).encode())

    def _frame(self, deadline):
        """The next frame (fin, opcode, payload), or None at EOF or the deadline."""
        while True:
            if len(self.buffer) >= 2:
                length, offset = self.buffer[1] & 0x7F, 2
                if length == 126 and len(self.buffer) >= 4:
                    length, offset = struct.unpack("!H", self.buffer[2:4])[0], 4
                elif length == 127 and len(self.buffer) >= 10:
                    length, offset = struct.unpack("!Q", self.buffer[2:10])[0], 10
                if (self.buffer[1] & 0x7F) < 126 or offset > 2:
                    if len(self.buffer) >= offset + length:
                        frame = (bool(self.buffer[0] & 0x80), self.buffer[0] & 0x0F,
                                 self.buffer[offset:offset + length])
                        self.buffer = self.buffer[offset + length:]
                        return frame
            left = deadline - time.monotonic()
            if left <= 0 or self.eof:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                return None
            except (ConnectionResetError, BrokenPipeError):
                chunk = b""
            if not chunk:
                self.eof = True
                return None
            self.buffer += chunk

    def messages(self, count, timeout=5.0):
        """Up to `count` data messages (text decoded as JSON where it parses), stopping early
        at a close frame (its code kept in close_code) or EOF."""
        out = []
        deadline = time.monotonic() + timeout
        pending = b""
        while len(out) < count:
            frame = self._frame(deadline)
            if frame is None:
                break
            fin, opcode, payload = frame
            if opcode == OP_CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close_reason = payload[2:].decode("utf-8", "replace")
                break
            if opcode == OP_PING:
                self.send(OP_PONG, payload)
                continue
            if opcode in (OP_TEXT, OP_BINARY, OP_CONTINUATION):
                pending += payload
                if fin:
                    try:
                        out.append(json.loads(pending))
                    except ValueError:
                        out.append(pending)
                    pending = b""
        return out

    def wait_closed(self, timeout=3.0):
        """Reads until the server closes the TCP connection; answers its close frame as a
        client does. True if it closed within `timeout`."""
        deadline = time.monotonic() + timeout
        while not self.eof:
            frame = self._frame(deadline)
            if frame is None:
                return self.eof
            if frame[1] == OP_CLOSE:
                if self.close_code is None:
                    self.close_code = struct.unpack("!H", frame[2][:2])[0] if len(frame[2]) >= 2 else 1005
                try:
                    self.send(OP_CLOSE, frame[2][:2])
                except OSError:
                    pass
        return True

    def close(self):
        self.sock.close()


def handshake(path, extra=b"", key=None):
    key = base64.b64encode(os.urandom(16)) if key is None else key
    return (b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            + (b"Sec-WebSocket-Key: " + key + b"\r\n" if key else b"") + extra + b"\r\n")


def ws_connect(port, path, extra=b""):
    """Sends the upgrade request and returns the WebSocket once the 101 head is read."""
    return ws_upgrade(socket.create_connection((HOST, port), timeout=10), path, extra)


def ws_upgrade(sock, path, extra=b"", after=b""):
    """Sends the upgrade request on `sock` (then `after`, if a client sends it before the
    answer) and returns the WebSocket once the 101 head is read."""
    sock.sendall(handshake(path, extra) + after)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        if not chunk:
            sock.close()
            raise AssertionError(f"closed during the handshake: {received!r}")
        received += chunk
    head, rest = received.split(b"\r\n\r\n", 1)
    if not head.startswith(b"HTTP/1.1 101"):
        sock.close()
        raise AssertionError(f"no 101 for {path}: {head!r}")
    return WebSocket(sock, rest)


def bulk_watch(request_id, resource="configmaps", **options):
    options.setdefault("namespace", "default")
    return {"id": request_id, "watch": {"selector": {
        "resource": {"group": "", "version": "v1", "resource": resource}, "options": options}}}


# ---------------------------------------------------------------------------------------
# The test classes: one server per class

class HostileCase(unittest.TestCase):
    """One `rvscope serve` per class with `server_args`, a sentinel ConfigMap created at
    once, and after every case: the server process is alive and the sentinel reads back
    unchanged."""
    server_args = ()

    @classmethod
    def setUpClass(cls):
        cls.server = RvscopeServer(BINARY, *cls.server_args)
        cls.port = cls.server.port
        created = call(cls.port, "POST", CONFIGMAPS, configmap(SENTINEL, SENTINEL_DATA))
        assert created.status == 201, created

    @classmethod
    def tearDownClass(cls):
        code = cls.server.stop()
        assert code == 0, f"rvscope serve exited with {code}"

    def tearDown(self):
        self.assert_still_serves()

    def assert_still_serves(self):
        self.assertIsNone(self.server.process.poll(), "the server process is gone")
        response = call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None)
        self.assertEqual(response.status, 200, response)
        self.assertEqual(response.json()["data"], SENTINEL_DATA)

    def assert_status(self, response, code, reason):
        """`response` is the Kubernetes Status for `code` and `reason` (None: a Status
        without one, as the apiserver answers an error that is no Status)."""
        self.assertEqual(response.status, code, response)
        status = response.json()
        self.assertEqual(status["kind"], "Status", status)
        self.assertEqual(status["apiVersion"], "v1", status)
        self.assertEqual(status["status"], "Failure", status)
        self.assertEqual(status["code"], code, status)
        self.assertEqual(status.get("reason"), reason, status)
        return status

    def assert_refused(self, data, code=400, reason="BadRequest"):
        """`data` gets exactly one answer, that Status, and the connection closes: nothing
        after the malformed part is read as another request. Returns the Status."""
        responses, closed, raw = exchange(self.port, data)
        self.assertEqual(len(responses), 1, f"answers: {raw[:800]!r}")
        status = self.assert_status(responses[0], code, reason)
        self.assertTrue(closed, f"the connection stayed open after {data[:80]!r}")
        return status

    def assert_body_unreadable(self, data, error):
        """`data` is a request whose body Go's net/http cannot read: the apiserver's handler
        answers the read error as any error that is no Status (500, no reason, the error's
        text: limitedReadBody's error reaches scope.err), and Go's server closes the
        connection, since the body was not read to its end."""
        status = self.assert_refused(data, 500, None)
        self.assertEqual(status["message"], error)

    def assert_answered_code_and_closed(self, data, code):
        """For the refusals Go's net/http itself makes (501, 505): the status line's code
        (a Status body, when there is one, says the same) and a closed connection."""
        responses, closed, raw = exchange(self.port, data)
        self.assertEqual([r.status for r in responses], [code], f"answers: {raw[:800]!r}")
        if responses[0].headers.get("content-type", "").startswith("application/json"):
            self.assertEqual(responses[0].json()["code"], code)
        self.assertTrue(closed, f"the connection stayed open after {data[:80]!r}")

    def connect(self, path=WATCH):
        """A WebSocket to `path`, closed when the case ends however it ends."""
        ws = ws_connect(self.port, path)
        self.addCleanup(ws.close)
        return ws

    def create(self, name, **kwargs):
        response = call(self.port, "POST", CONFIGMAPS, configmap(name, **kwargs))
        self.assertEqual(response.status, 201, response)
        return response.json()

    def assert_exists(self, name):
        response = call(self.port, "GET", f"{CONFIGMAPS}/{name}", content_type=None)
        self.assertEqual(response.status, 200, f"{name} is gone: {response}")


POST_HEAD = (b"POST " + CONFIGMAPS.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
             b"Content-Type: application/json\r\n")


def smuggled_delete(name):
    return (b"DELETE " + CONFIGMAPS.encode() + b"/" + name.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")


