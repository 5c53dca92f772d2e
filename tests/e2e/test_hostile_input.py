#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A catalog of hostile input, sent over real sockets to `rvscope serve` (RVSCOPE_BINARY):
malformed HTTP, oversized request lines, headers and bodies, slow and abandoned clients,
broken JSON and YAML, wrong content types, bad query values and names, misbehaving
WebSocket watches and bulk watch sessions, and connection floods. Each case asserts the
answer the apiserver gives (the Kubernetes Status with its code and reason, or a closed
connection), and after each case the server still serves: a ConfigMap created before the
case reads back unchanged.

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
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers  # lower-cased names
        self.body = body

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
        return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
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
    sock = socket.create_connection((HOST, port), timeout=10)
    sock.sendall(handshake(path, extra))
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
        """`response` is the Kubernetes Status for `code` and `reason`."""
        self.assertEqual(response.status, code, response)
        status = response.json()
        self.assertEqual(status["kind"], "Status", status)
        self.assertEqual(status["apiVersion"], "v1", status)
        self.assertEqual(status["status"], "Failure", status)
        self.assertEqual(status["code"], code, status)
        self.assertEqual(status["reason"], reason, status)
        return status

    def assert_refused(self, data, code=400, reason="BadRequest"):
        """`data` gets exactly one answer, that Status, and the connection closes: nothing
        after the malformed part is read as another request."""
        responses, closed, raw = exchange(self.port, data)
        self.assertEqual(len(responses), 1, f"answers: {raw[:800]!r}")
        self.assert_status(responses[0], code, reason)
        self.assertTrue(closed, f"the connection stayed open after {data[:80]!r}")

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


class MalformedHttp(HostileCase):
    """Request lines and heads that are not HTTP/1.1: a 400 BadRequest Status and a closed
    connection (Go's net/http refuses each of them before any handler runs)."""

    def test_garbage_request_line(self):
        self.assert_refused(b"\x16\x03\x01 GARBAGE \xff\xfe\r\n\r\n")

    def test_request_line_without_http_version(self):
        self.assert_refused(b"GET /api/v1/namespaces\r\nHost: 127.0.0.1\r\n\r\n")

    def test_http_0_9_style_line(self):
        self.assert_refused(b"GET /\r\n")

    def test_bad_method_token(self):
        self.assert_refused(b"G(T /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    def test_unknown_but_well_formed_method_is_405(self):
        responses, _, raw = exchange(self.port, b"BREW " + CONFIGMAPS.encode() + b"/sentinel HTTP/1.1\r\n"
                                     b"Host: 127.0.0.1\r\n\r\n")
        self.assertEqual(len(responses), 1, raw)
        self.assert_status(responses[0], 405, "MethodNotAllowed")

    # FIXED (was a bug): `GET /api\x00 HTTP/1.1` (a raw NUL in the request target) is routed and answered
    # 404 NotFound; Go's url.ParseRequestURI rejects control characters: 400, connection closed.
    def test_nul_byte_in_request_line(self):
        self.assert_refused(b"GET /api\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    # FIXED (was a bug): `GET /api HTTP/1.1\r\nHost x\r\n\r\n` (a header line without a colon) is served 200
    # and the connection kept; Go answers 400 "malformed MIME header line" and closes.
    def test_header_without_colon(self):
        self.assert_refused(b"GET /api HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n")

    # FIXED (was a bug): a NUL byte in a header value (`X-A: a\x00b`) is served 200; Go answers 400
    # "invalid header value" and closes.
    def test_nul_byte_in_header_value(self):
        self.assert_refused(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x00b\r\n\r\n")

    # FIXED (was a bug): `Content-Length: -1` is taken as 0: a POST is decoded as an empty body (400 about
    # JSON) and the connection kept, the bytes after the head read as the next request; Go
    # answers 400 "bad Content-Length" and closes.
    def test_negative_content_length(self):
        self.assert_refused(POST_HEAD + b"Content-Length: -1\r\n\r\n" + smuggled_delete("nothing"))

    # FIXED (was a bug): `Content-Length: abc` is taken as 0, as above; Go: 400 "bad Content-Length", closed.
    def test_non_numeric_content_length(self):
        self.assert_refused(POST_HEAD + b"Content-Length: abc\r\n\r\n" + smuggled_delete("nothing"))

    # FIXED (was a bug) (request smuggling): two different Content-Length headers are accepted and the FIRST
    # is used. `POST .../configmaps` with `Content-Length: 2` and `Content-Length: 200` and the
    # body `{}DELETE .../configmaps/victim HTTP/1.1 ...` is answered 422 for `{}`, then the
    # DELETE runs (200 Success) and the victim is gone. A proxy that honours the other length
    # forwards the DELETE as body bytes. Go answers 400 ("message cannot contain multiple
    # Content-Length headers") and closes.
    def test_two_different_content_lengths(self):
        self.create("victim-two-lengths")
        data = POST_HEAD + b"Content-Length: 2\r\nContent-Length: 200\r\n\r\n{}" + smuggled_delete("victim-two-lengths")
        responses, closed, raw = exchange(self.port, data)
        self.assert_exists("victim-two-lengths")
        self.assertEqual(len(responses), 1, raw)
        self.assert_status(responses[0], 400, "BadRequest")
        self.assertTrue(closed)

    # FIXED (was a bug) (request smuggling): Qt's parser keeps only the first 100 header fields and drops the
    # rest without a word. A POST with 120 `X-Pad-N: p` headers and then
    # `Content-Length: 73` loses its Content-Length: the 73 body bytes, a complete
    # `DELETE .../configmaps/victim` request, run as a second request and delete the victim.
    # Go keeps every field within 1 MiB; a server that bounds the count must answer 431.
    def test_content_length_after_100_header_fields(self):
        self.create("victim-many-fields")
        body = smuggled_delete("victim-many-fields")
        pads = b"".join(b"X-Pad-%d: p\r\n" % i for i in range(120))
        responses, _, raw = exchange(self.port, POST_HEAD + pads + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.assert_exists("victim-many-fields")
        self.assertEqual(len(responses), 1, raw)
        self.assertIn(responses[0].status, (400, 431), responses[0])  # 400: the body is no ConfigMap

    # FIXED (was a bug): with 120 headers before it, `Content-Type: text/plain` is dropped (see above) and the
    # POST creates the ConfigMap (201); Go sees the header: 415 (or 431 from a bounded parser).
    def test_header_after_100_fields_is_not_dropped(self):
        pads = b"".join(b"X-Pad-%d: p\r\n" % i for i in range(120))
        body = json.dumps(configmap("padded")).encode()
        responses, _, raw = exchange(self.port, b"POST " + CONFIGMAPS.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                     + pads + b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        self.assertEqual(len(responses), 1, raw)
        self.assertIn(responses[0].status, (415, 431), responses[0])
        reason = {415: "UnsupportedMediaType", 431: "RequestHeaderFieldsTooLarge"}[responses[0].status]
        self.assert_status(responses[0], responses[0].status, reason)

    # BUG: chunked body with chunk size `zz`: answered 400 as an EMPTY body, and the chunk's
    # bytes (`DELETE ... HTTP/1.1 ...`) are then parsed as a second request (answered 405);
    # a malformed chunk must end the connection after one 400.
    @unittest.expectedFailure
    def test_chunk_size_not_hex(self):
        self.create("victim-chunk")
        data = (POST_HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n" + smuggled_delete("victim-chunk")
                + b"0\r\n\r\n")
        responses, closed, raw = exchange(self.port, data)
        self.assert_exists("victim-chunk")
        self.assertEqual(len(responses), 1, raw)
        self.assert_status(responses[0], 400, "BadRequest")
        self.assertTrue(closed)

    # BUG: chunk size `-5`: no answer at all, the connection hangs (Go: "invalid byte in chunk
    # length", the request fails at once and the connection closes).
    @unittest.expectedFailure
    def test_chunk_size_negative(self):
        self.assert_refused(POST_HEAD + b"Transfer-Encoding: chunked\r\n\r\n-5\r\nabc\r\n0\r\n\r\n")

    # BUG: chunk size `ffffffffffffffffffff` (overflowing 64 bits): answered 400 as an empty
    # body, then the rest parsed as a second request (400); one answer and close expected.
    @unittest.expectedFailure
    def test_chunk_size_overflow(self):
        self.assert_refused(POST_HEAD + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nabc\r\n0\r\n\r\n")

    def test_transfer_encoding_wins_over_content_length(self):
        # RFC 9112 6.3 and Go: chunked decides where the body ends, Content-Length is ignored,
        # so the pipelined GET after the empty chunked body is a request of its own.
        data = (POST_HEAD + b"Content-Length: 60\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + b"GET " + CONFIGMAPS.encode() + b"/sentinel HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        responses, _, raw = exchange(self.port, data)
        self.assertEqual([r.status for r in responses], [400, 200], raw)
        self.assert_status(responses[0], 400, "BadRequest")  # the empty body is no ConfigMap
        self.assertEqual(responses[1].json()["data"], SENTINEL_DATA)

    # FIXED (was a bug): `Transfer-Encoding: bogus` is ignored (the POST is decoded as an empty body, 400,
    # connection kept); Go answers 501 Not Implemented ("unsupported transfer encoding") and
    # closes, since it cannot know where such a body ends.
    def test_unknown_transfer_encoding(self):
        self.assert_answered_code_and_closed(POST_HEAD + b"Transfer-Encoding: bogus\r\n\r\nxyz", 501)

    # FIXED (was a bug): `GET /api HTTP/9.9` is served as HTTP/1.1 (200); Go answers 505 HTTP Version Not
    # Supported and closes.
    def test_unsupported_http_version(self):
        self.assert_answered_code_and_closed(b"GET /api HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", 505)


class Oversized(HostileCase):
    """Past each size bound: 414, 431, 413, with the connection closed (or, after a body
    read to its end, kept for the next request); within the bounds, served."""

    def test_request_line_over_1_mib(self):
        self.assert_refused(b"GET /" + b"a" * (1024 * 1024 + 16) + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                            414, "RequestURITooLong")

    def test_header_over_64_kib(self):
        self.assert_refused(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (70 * 1024) + b"\r\n\r\n",
                            431, "RequestHeaderFieldsTooLarge")

    def test_many_headers_over_64_kib(self):
        headers = b"".join(b"X-H-%d: %s\r\n" % (i, b"v" * 40) for i in range(2000))
        self.assert_refused(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n",
                            431, "RequestHeaderFieldsTooLarge")

    def test_body_over_3_mib_is_413_and_the_connection_goes_on(self):
        body = json.dumps(configmap("big", {"a": "x" * (3 * 1024 * 1024 + 100)})).encode()
        data = (POST_HEAD + b"Content-Length: %d\r\n\r\n" % len(body) + body
                + b"GET " + CONFIGMAPS.encode() + b"/sentinel HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        responses, _, raw = exchange(self.port, data)
        self.assertEqual([r.status for r in responses], [413, 200], raw[:600])
        self.assertEqual(self.assert_status(responses[0], 413, "RequestEntityTooLarge")["message"],
                         "Request entity too large: limit is 3145728")
        self.assertEqual(responses[1].json()["data"], SENTINEL_DATA)
        self.assertEqual(call(self.port, "GET", CONFIGMAPS + "/big").status, 404)

    def test_chunked_body_over_3_mib(self):
        chunk = b"x" * 65536
        body = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(52)) + b"0\r\n\r\n"
        responses, _, raw = exchange(self.port, POST_HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + body)
        self.assertEqual(len(responses), 1, raw[:600])
        self.assert_status(responses[0], 413, "RequestEntityTooLarge")

    def test_json_string_of_2_9_mib_fits(self):
        value = "v" * int(2.9 * 1024 * 1024)
        response = call(self.port, "POST", CONFIGMAPS, configmap("huge-value", {"a": value}))
        self.assertEqual(response.status, 201, response)
        read = call(self.port, "GET", CONFIGMAPS + "/huge-value", content_type=None)
        self.assertEqual(read.status, 200)
        self.assertEqual(read.json()["data"]["a"], value)
        self.assertEqual(call(self.port, "DELETE", CONFIGMAPS + "/huge-value").status, 200)

    # FIXED (was a bug) (memory exhaustion): a POST whose Content-Length announces 64 MiB is buffered whole
    # before anyone looks at it; no 413 after 3 MiB. With `Content-Length: 999999999999` the
    # server kept reading and its RSS grew by the 200 MiB sent; a few such requests take all
    # memory. The apiserver reads at most 3 MiB + 1 of a body (limitedReadBody), answers 413
    # and drops the connection.
    def test_announced_huge_body_is_refused_after_3_mib(self):
        sock = socket.create_connection((HOST, self.port), timeout=10)
        try:
            sock.sendall(POST_HEAD + b"Content-Length: %d\r\n\r\n" % (64 << 20))
            chunk = b"x" * (1 << 20)
            try:
                for _ in range(8):
                    sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            received = b""
            deadline = time.monotonic() + 2
            while not parse_responses(received) and time.monotonic() < deadline:
                sock.settimeout(max(0.05, deadline - time.monotonic()))
                try:
                    data = sock.recv(65536)
                except socket.timeout:
                    break
                except ConnectionResetError:
                    break
                if not data:
                    break
                received += data
            responses = parse_responses(received)
            self.assertEqual(len(responses), 1, f"no answer after 8 MiB of a 64 MiB body: {received[:300]!r}")
            self.assert_status(responses[0], 413, "RequestEntityTooLarge")
        finally:
            sock.close()

    # BUG (memory exhaustion): the same with a chunked body that never ends: 8 MiB of chunks
    # and no answer (the server buffers on); 413 after 3 MiB expected.
    @unittest.expectedFailure
    def test_endless_chunked_body_is_refused_after_3_mib(self):
        sock = socket.create_connection((HOST, self.port), timeout=10)
        try:
            sock.sendall(POST_HEAD + b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"%x\r\n" % (1 << 20) + b"x" * (1 << 20) + b"\r\n"
            try:
                for _ in range(8):
                    sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            sock.settimeout(2)
            try:
                received = sock.recv(65536)
            except (socket.timeout, ConnectionResetError):
                received = b""
            responses = parse_responses(received)
            self.assertEqual(len(responses), 1, f"no answer after 8 MiB of an endless chunked body: {received[:300]!r}")
            self.assert_status(responses[0], 413, "RequestEntityTooLarge")
        finally:
            sock.close()

    def test_json_patch_over_10000_operations(self):
        operations = [{"op": "test", "path": "/data/keep", "value": "me"}] * 10001
        response = call(self.port, "PATCH", f"{CONFIGMAPS}/{SENTINEL}", operations, "application/json-patch+json")
        status = self.assert_status(response, 413, "RequestEntityTooLarge")
        self.assertIn("The allowed maximum operations in a JSON patch is 10000, got 10001", status["message"])

    # FIXED (was a bug) (memory exhaustion): JSON patch `copy` has no bound on what it adds. A 2 KiB patch
    # that adds `/spec` = ["y"*1000] and then copies `/spec` into `/spec/-` 14 times grows the
    # document to 16 MiB, and the 422 that follows echoes it twice (a 33 MB body); with 20
    # copies the server took 11 s and 3 GiB and answered 500, and each further copy doubles it.
    # The apiserver caps what copies may add at 3 MiB (JSONPatchMaxCopyBytes): a short 422.
    def test_json_patch_copy_amplification_is_bounded(self):
        self.create("copy-target")
        operations = [{"op": "add", "path": "/spec", "value": ["y" * 1000]}]
        operations += [{"op": "copy", "from": "/spec", "path": "/spec/-"}] * 14
        before = rss_mib(self.server.process.pid)
        response = call(self.port, "PATCH", CONFIGMAPS + "/copy-target", operations, "application/json-patch+json")
        grown = rss_mib(self.server.process.pid) - before
        self.assertLess(len(response.body), 64 * 1024, f"{len(response.body)} bytes answered")
        self.assert_status(response, 422, "Invalid")
        self.assertLess(grown, 64, f"the server grew by {grown:.0f} MiB")

    # FIXED (was a bug) (memory exhaustion, CVE-2019-11253 of kube-apiserver): YAML aliases are expanded
    # without a bound. An apply patch (`application/apply-patch+yaml`) whose anchors nest 9
    # aliases 5 deep (59,049 strings from 600 bytes) is applied, 200, and stored; the same
    # document 10 deep made the server grow to 8 GiB in 30 s without answering, deaf to
    # SIGTERM. sigs.k8s.io/yaml refuses it: 400 "yaml: document contains excessive aliasing".
    def test_yaml_alias_bomb_in_apply_patch(self):
        self.create("bomb-target")
        bomb = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb-target\n"
                'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n')
        for level in range(1, 5):
            bomb += f"l{level}: &l{level} [" + ",".join([f"*l{level - 1}"] * 9) + "]\n"
        response = call(self.port, "PATCH", CONFIGMAPS + "/bomb-target?fieldManager=bomb", bomb,
                        "application/apply-patch+yaml")
        self.assert_status(response, 400, "BadRequest")


class SlowClients(HostileCase):
    """Clients that take their time hold only their own connection."""

    def test_request_head_sent_byte_by_byte(self):
        slow = socket.create_connection((HOST, self.port), timeout=10)
        head = b"GET " + CONFIGMAPS.encode() + b"/sentinel HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

        def dribble():
            for byte in head:
                slow.sendall(bytes([byte]))
                time.sleep(0.04)

        dribbler = threading.Thread(target=dribble)
        dribbler.start()
        try:
            served = 0
            while dribbler.is_alive():
                started = time.monotonic()
                response = call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None)
                self.assertEqual(response.status, 200)
                self.assertLess(time.monotonic() - started, 1.0)
                served += 1
                time.sleep(0.1)
            self.assertGreater(served, 10)
        finally:
            dribbler.join()
        responses, _, _ = self._read(slow)
        slow.close()
        self.assertEqual(responses[0].status, 200)  # and the slow one is served too

    def test_body_never_completed(self):
        body = json.dumps(configmap("partial")).encode()
        stalled = socket.create_connection((HOST, self.port), timeout=10)
        stalled.sendall(POST_HEAD + b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
        try:
            for _ in range(20):
                started = time.monotonic()
                self.assertEqual(call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None).status, 200)
                self.assertLess(time.monotonic() - started, 1.0)
                time.sleep(0.05)
            self.assertEqual(call(self.port, "GET", CONFIGMAPS + "/partial").status, 404)  # nothing half-made
            stalled.sendall(body[10:])
            responses, _, _ = self._read(stalled)
            self.assertEqual(responses[0].status, 201)  # the rest arrives: an ordinary create
        finally:
            stalled.close()

    def test_many_half_heads_at_once(self):
        sockets = []
        try:
            for i in range(300):
                sock = socket.create_connection((HOST, self.port), timeout=10)
                sock.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"s" * (i % 50))
                sockets.append(sock)
                if i % 25 == 24:
                    time.sleep(0.005)
            for _ in range(10):
                self.assertEqual(call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None).status, 200)
        finally:
            for sock in sockets:
                sock.close()

    def _read(self, sock, timeout=5.0):
        received = b""
        deadline = time.monotonic() + timeout
        while not parse_responses(received) and time.monotonic() < deadline:
            sock.settimeout(deadline - time.monotonic())
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
        return parse_responses(received), None, received


class JsonBodies(HostileCase):
    """Bodies that are not JSON, or JSON no ConfigMap decodes from: 400 BadRequest or 422
    Invalid as the apiserver's decoder and validation answer, never a crash."""

    def post(self, body, path=CONFIGMAPS, content_type="application/json"):
        return call(self.port, "POST", path, body, content_type)

    # BUG (divergence): invalid UTF-8 in a JSON string (`"data":{"a":"\xff\xfe"}`) is a 400
    # whose message has an empty reason ("json parse error:  ("); Go's encoding/json (and
    # sigs.k8s.io/json) decode each bad byte as U+FFFD, so the apiserver creates it: 201.
    @unittest.expectedFailure
    def test_invalid_utf8_in_a_data_value(self):
        response = self.post(b'{"metadata":{"name":"bad-utf8"},"data":{"a":"\xff\xfe"}}')
        self.assertEqual(response.status, 201, response)
        self.assertEqual(response.json()["data"]["a"], "\ufffd\ufffd")

    # BUG (divergence): invalid UTF-8 in a label value (`"\xc3("`) is a 400; the apiserver
    # decodes it to "\ufffd(" and its label validation answers 422 Invalid on metadata.labels.
    @unittest.expectedFailure
    def test_invalid_utf8_in_a_label_value(self):
        response = self.post(b'{"metadata":{"name":"bad-label","labels":{"a":"\xc3("}},"data":{"a":"1"}}')
        status = self.assert_status(response, 422, "Invalid")
        self.assertEqual(status["details"]["causes"][0]["field"], "metadata.labels")

    def test_broken_json(self):
        cases = {
            "truncated": b'{"metadata":{"name":"t"},"data":{"a":',
            "trailing garbage": b'{"metadata":{"name":"t"},"data":{"a":"b"}} xyz',
            "NaN": b'{"metadata":{"name":"t"},"data":{"a":NaN}}',
            "1e999 in an integer field": b'{"metadata":{"name":"t","generation":1e999},"data":{"a":"1"}}',
            "bare word": b"configmap please",
            "empty": b"",
            "a JSON string": b'"ConfigMap"',
        }
        for name, body in cases.items():
            with self.subTest(name):
                self.assert_status(self.post(body), 400, "BadRequest")
        self.assertEqual(call(self.port, "GET", CONFIGMAPS + "/t").status, 404)

    def test_duplicate_keys_last_wins_by_default(self):
        response = self.post(b'{"metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}')
        self.assertEqual(response.status, 201, response)
        self.assertEqual(response.json()["data"], {"a": "2"})

    # BUG: `?fieldValidation=Strict` is ignored (kubectl sends it on every create, apply and
    # replace, and the served OpenAPI says it is honoured): a body with a duplicate key is
    # created, 201. The apiserver answers 400 `ConfigMap in version "v1" cannot be handled as
    # a ConfigMap: strict decoding error: duplicate field "a"`.
    @unittest.expectedFailure
    def test_duplicate_keys_refused_with_strict_field_validation(self):
        response = self.post(b'{"metadata":{"name":"dup-strict"},"data":{"a":"1","a":"2"}}',
                             CONFIGMAPS + "?fieldValidation=Strict")
        status = self.assert_status(response, 400, "BadRequest")
        self.assertIn('duplicate field "a"', status["message"])

    # BUG: an unknown top-level field (`"bogus":1`) is stored and served back with the
    # object (and counted in managedFields); the apiserver drops it (with a Warning header,
    # or 400 under fieldValidation=Strict), so no client can park junk in an object.
    @unittest.expectedFailure
    def test_unknown_field_is_not_stored(self):
        response = self.post(b'{"metadata":{"name":"junk"},"data":{"a":"1"},"bogus":1}')
        self.assertEqual(response.status, 201, response)
        self.assertNotIn("bogus", response.json())
        self.assertNotIn("bogus", call(self.port, "GET", CONFIGMAPS + "/junk").json())

    def test_nesting_10000_deep(self):
        depth = 10000
        cases = {
            "arrays as the body": (CONFIGMAPS, "application/json", b"[" * depth + b"]" * depth),
            "objects in a field": (CONFIGMAPS, "application/json",
                                   b'{"metadata":{"name":"deep"},"x":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"),
            "arrays in data": (CONFIGMAPS, "application/json",
                               b'{"metadata":{"name":"deep"},"data":' + b"[" * depth + b"]" * depth + b"}"),
        }
        for name, (path, content_type, body) in cases.items():
            with self.subTest(name):
                self.assert_status(call(self.port, "POST", path, body, content_type), 400, "BadRequest")
        patches = {
            "merge patch": ("application/merge-patch+json", b'{"metadata":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"),
            "strategic merge patch": ("application/strategic-merge-patch+json",
                                      b'{"metadata":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"),
            "JSON patch value": ("application/json-patch+json",
                                 b'[{"op":"add","path":"/metadata/annotations","value":' + b"[" * depth + b"]" * depth + b"}]"),
            "apply patch, YAML flow": ("application/apply-patch+yaml",
                                       b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sentinel\nx: "
                                       + b"[" * depth + b"]" * depth + b"\n"),
            "apply patch, YAML compact sequences": ("application/apply-patch+yaml",
                                                    b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sentinel\nx:\n  "
                                                    + b"- " * 100000 + b"1\n"),
        }
        for name, (content_type, body) in patches.items():
            with self.subTest(name):
                response = call(self.port, "PATCH", f"{CONFIGMAPS}/{SENTINEL}?fieldManager=deep", body, content_type)
                self.assert_status(response, 400, "BadRequest")

    def test_array_of_500000_elements_where_a_map_belongs(self):
        response = self.post(json.dumps(configmap("huge-array", [0] * 500000)))
        status = self.assert_status(response, 400, "BadRequest")
        self.assertIn("cannot unmarshal array into Go struct field ConfigMap.data", status["message"])

    # BUG: finalizer names are not validated: 500,000 finalizers `"a"` (2.5 MB) are stored,
    # 201, and the object can then never be deleted by anyone who does not know to remove
    # them. The apiserver answers 422 Invalid: `metadata.finalizers[0]: Invalid value: "a":
    # name is neither a standard finalizer name nor is it fully qualified` (and rejects
    # names that are no qualified names, like "a b/c").
    @unittest.expectedFailure
    def test_500000_unqualified_finalizers(self):
        response = self.post(json.dumps(configmap("many-finalizers", finalizers=["a"] * 500000)))
        status = self.assert_status(response, 422, "Invalid")
        self.assertEqual(status["details"]["causes"][0]["field"], "metadata.finalizers[0]")

    def test_key_names_of_1_mib(self):
        key = "k" * (1024 * 1024)
        for name, body in {"data key": configmap("long-key", {key: "v"}),
                           "label key": configmap("long-label", labels={key: "v"})}.items():
            with self.subTest(name):
                self.assert_status(self.post(json.dumps(body)), 422, "Invalid")


class ContentTypes(HostileCase):
    def test_bodies_in_unsupported_media_types(self):
        body = json.dumps(configmap("typed"))
        cases = [
            ("POST text/plain", "POST", CONFIGMAPS, "text/plain"),
            ("POST application/xml", "POST", CONFIGMAPS, "application/xml"),
            ("PUT text/plain", "PUT", f"{CONFIGMAPS}/{SENTINEL}", "text/plain"),
            ("PUT application/x-www-form-urlencoded", "PUT", f"{CONFIGMAPS}/{SENTINEL}", "application/x-www-form-urlencoded"),
            ("PATCH application/json", "PATCH", f"{CONFIGMAPS}/{SENTINEL}", "application/json"),
            ("PATCH without Content-Type", "PATCH", f"{CONFIGMAPS}/{SENTINEL}", None),
            ("PATCH text/plain", "PATCH", f"{CONFIGMAPS}/{SENTINEL}", "text/plain"),
        ]
        for name, method, path, content_type in cases:
            with self.subTest(name):
                patch_body = '{"data":{"keep":"no"}}' if method == "PATCH" else body
                response = call(self.port, method, path, patch_body, content_type)
                status = self.assert_status(response, 415, "UnsupportedMediaType")
                self.assertTrue(status["message"].startswith("the body of the request was in an unknown format"))
        self.assertEqual(call(self.port, "GET", CONFIGMAPS + "/typed").status, 404)

    def test_apply_patch_without_field_manager(self):
        for query in ("", "?fieldManager="):
            with self.subTest(query or "absent"):
                response = call(self.port, "PATCH", f"{CONFIGMAPS}/{SENTINEL}{query}", '{"data":{"keep":"no"}}',
                                "application/apply-patch+yaml")
                status = self.assert_status(response, 422, "Invalid")
                self.assertEqual(status["details"]["causes"][0]["field"], "fieldManager")

    # BUG: `GET .../configmaps/sentinel` with `Accept: application/xml` is answered 200 with
    # JSON; the apiserver answers 406 NotAcceptable ("only the following media types are
    # accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, ...")
    # when the Accept header lists nothing it serves.
    @unittest.expectedFailure
    def test_accept_of_nothing_served(self):
        response = call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None,
                        headers={"Accept": "application/xml"})
        self.assert_status(response, 406, "NotAcceptable")


class QueryValues(HostileCase):
    def test_bad_query_values(self):
        # kube-apiserver answers a list or watch with an unparseable resourceVersion 500
        # (kubernetes#101350, #139485); 400 is the fix upstream agrees on, and what is asserted.
        cases = [
            ("list limit=abc", f"{CONFIGMAPS}?limit=abc", 400, "BadRequest"),
            ("list limit=99999999999999999999999", f"{CONFIGMAPS}?limit=99999999999999999999999", 400, "BadRequest"),
            ("list resourceVersion=abc", f"{CONFIGMAPS}?resourceVersion=abc", 400, "BadRequest"),
            ("watch resourceVersion=abc", f"{WATCH}&resourceVersion=abc", 400, "BadRequest"),
            ("list resourceVersion=-5", f"{CONFIGMAPS}?resourceVersion=-5", 400, "BadRequest"),
            ("list resourceVersion past 64 bits", f"{CONFIGMAPS}?resourceVersion=99999999999999999999999", 400, "BadRequest"),
            ("watch timeoutSeconds=abc", f"{WATCH}&timeoutSeconds=abc", 400, "BadRequest"),
            ("list timeoutSeconds=abc", f"{CONFIGMAPS}?timeoutSeconds=abc", 400, "BadRequest"),
            ("fieldSelector ===", f"{CONFIGMAPS}?fieldSelector=%3D%3D%3D", 400, "BadRequest"),
            ("fieldSelector without operator", f"{CONFIGMAPS}?fieldSelector=metadata.name", 400, "BadRequest"),
            ("fieldSelector unknown field", f"{CONFIGMAPS}?fieldSelector=spec.secret%3Dx", 400, "BadRequest"),
            ("labelSelector a in (", f"{CONFIGMAPS}?labelSelector=a%20in%20(", 400, "BadRequest"),
            ("labelSelector !!", f"{CONFIGMAPS}?labelSelector=%21%21", 400, "BadRequest"),
            ("labelSelector on a watch", f"{WATCH}&labelSelector=a%20notin", 400, "BadRequest"),
            ("resourceVersionMatch=Bogus", f"{CONFIGMAPS}?resourceVersionMatch=Bogus", 422, "Invalid"),
            ("resourceVersionMatch=Bogus with a resourceVersion", f"{CONFIGMAPS}?resourceVersionMatch=Bogus&resourceVersion=1",
             422, "Invalid"),
            ("watch=maybe", f"{CONFIGMAPS}?watch=maybe", 400, "BadRequest"),
            ("continue=garbage", f"{CONFIGMAPS}?continue=garbage", 400, "BadRequest"),
            ("continue of control bytes", f"{CONFIGMAPS}?continue=%00%01", 400, "BadRequest"),
            # A value whose percent-encoding is broken is refused as it stands. (Go's
            # url.Query() silently drops the whole pair, so the apiserver would list
            # unfiltered: refusing is the safer reading and is kept.)
            ("limit=%zz", f"{CONFIGMAPS}?limit=%zz", 400, "BadRequest"),
            ("labelSelector=a%zz", f"{CONFIGMAPS}?labelSelector=a%zz", 400, "BadRequest"),
        ]
        for name, path, code, reason in cases:
            with self.subTest(name):
                self.assert_status(call(self.port, "GET", path, content_type=None, timeout=5), code, reason)

    # BUG: a GET of one object ignores its resourceVersion altogether: `GET
    # .../configmaps/sentinel?resourceVersion=abc` (and `=-1`) is served 200. The apiserver
    # parses it (cacher Get: ParseResourceVersion) and refuses it, as for a list or watch
    # (400, see above).
    @unittest.expectedFailure
    def test_get_with_an_unparseable_resource_version(self):
        wrong = []
        for version in ("abc", "-1"):
            response = call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}?resourceVersion={version}", content_type=None)
            if response.status != 400:
                wrong.append((version, response.status))
        self.assertEqual(wrong, [])

    def test_odd_but_harmless_query_values(self):
        for name, path in [("limit=-1 (no limit)", f"{CONFIGMAPS}?limit=-1"),
                           ("a broken parameter name is ignored", f"{CONFIGMAPS}?%zz=1"),
                           ("unknown parameters are ignored", f"{CONFIGMAPS}?timeout=32s&bogus=1")]:
            with self.subTest(name):
                response = call(self.port, "GET", path, content_type=None)
                self.assertEqual(response.status, 200, response)
                self.assertIn(SENTINEL, [item["metadata"]["name"] for item in response.json()["items"]])


class Names(HostileCase):
    def test_invalid_names_on_create(self):
        for name in ["..", ".", "a/b", "Upper", "a" * 254, "-lead", "trail-", "a_b", "a b", "\u00e9t\u00e9"]:
            with self.subTest(name[:20]):
                status = self.assert_status(call(self.port, "POST", CONFIGMAPS, configmap(name)), 422, "Invalid")
                self.assertEqual(status["details"]["causes"][0]["field"], "metadata.name")
        status = self.assert_status(call(self.port, "POST", CONFIGMAPS, configmap("")), 422, "Invalid")
        self.assertIn("name or generateName is required", status["message"])

    def test_name_of_253_characters_is_the_longest(self):
        name = "a" * 253
        self.create(name)
        self.assertEqual(call(self.port, "DELETE", f"{CONFIGMAPS}/{name}").status, 200)

    def test_put_without_a_name(self):
        for path in (CONFIGMAPS, CONFIGMAPS + "/"):
            with self.subTest(path):
                response = call(self.port, "PUT", path, configmap(SENTINEL, {"keep": "no"}))
                self.assert_status(response, 405, "MethodNotAllowed")

    def test_put_with_an_empty_name_in_the_body(self):
        response = call(self.port, "PUT", f"{CONFIGMAPS}/{SENTINEL}", configmap("", {"keep": "no"}))
        status = self.assert_status(response, 400, "BadRequest")
        self.assertEqual(status["message"], "the name of the object () does not match the name on the URL (sentinel)")

    def test_encoded_slash_in_a_name(self):
        for path in (f"{CONFIGMAPS}/a%2Fb", f"{CONFIGMAPS}/{SENTINEL}%2F..%2F{SENTINEL}"):
            with self.subTest(path):
                self.assert_status(call(self.port, "GET", path, content_type=None), 404, "NotFound")

    # BUG (divergence): `.` and `..` as the name in the URL are looked up and answered 404
    # NotFound (PUT, PATCH, DELETE too); the apiserver's key function refuses them before
    # storage: 400 BadRequest `Name parameter invalid: "..": may not be '..'`.
    @unittest.expectedFailure
    def test_dot_names_in_the_url(self):
        wrong = []
        for method, name in [("GET", ".."), ("GET", "."), ("PUT", ".."), ("PATCH", ".."), ("DELETE", ".."),
                             ("DELETE", ".")]:
            body = {"PUT": configmap(name), "PATCH": '{"data":{"a":"2"}}'}.get(method)
            content_type = "application/merge-patch+json" if method == "PATCH" else "application/json"
            response = call(self.port, method, f"{CONFIGMAPS}/{name}", body, content_type)
            if response.status != 400 or response.json().get("reason") != "BadRequest":
                wrong.append((method, name, response.status))
        self.assertEqual(wrong, [])

    # BUG (divergence): `GET .../configmaps/%zz` (a broken escape) is answered 404 `configmaps
    # "%zz" not found`; Go refuses the URL (400), and a decoded `%` (`a%25b`) is refused by
    # the apiserver's key function: 400 `may not contain '%'`.
    @unittest.expectedFailure
    def test_percent_in_a_name(self):
        wrong = []
        for path in (f"{CONFIGMAPS}/%zz", f"{CONFIGMAPS}/a%25b"):
            response = call(self.port, "GET", path, content_type=None)
            if response.status != 400:
                wrong.append((path, response.status))
        self.assertEqual(wrong, [])

    def test_namespace_named_dotdot(self):
        response = call(self.port, "POST", "/api/v1/namespaces", {"metadata": {"name": ".."}})
        self.assert_status(response, 422, "Invalid")
        for path in ("/api/v1/namespaces/../configmaps", "/api/v1/namespaces/%2E%2E/configmaps"):
            with self.subTest(path):
                listed = call(self.port, "GET", path, content_type=None)
                self.assertEqual(listed.status, 200, listed)
                self.assertEqual(listed.json()["items"], [])  # nothing of "default" (or any other) leaks
                created = call(self.port, "POST", path, configmap("escapee"))
                # The apiserver's NamespaceLifecycle admission answers 404 `namespaces ".."
                # not found` before validation would answer 422: either refuses it.
                self.assertIn(created.status, (404, 422), created)
                self.assert_status(created, created.status, {404: "NotFound", 422: "Invalid"}[created.status])
        everywhere = call(self.port, "GET", "/api/v1/configmaps", content_type=None).json()["items"]
        self.assertNotIn("escapee", [item["metadata"]["name"] for item in everywhere])


class WebSockets(HostileCase):
    """A watch over WebSocket whose client breaks the protocol is closed with the RFC 6455
    close code; the other watches go on."""

    def witness(self):
        """A WebSocket watch from now on, to see that the server still delivers events."""
        version = call(self.port, "GET", CONFIGMAPS, content_type=None).json()["metadata"]["resourceVersion"]
        return self.connect(f"{WATCH}&resourceVersion={version}")

    def assert_witness_sees(self, witness, name):
        self.create(name)
        events = witness.messages(1, timeout=5)
        witness.close()
        self.assertEqual(len(events), 1, events)
        self.assertEqual((events[0]["type"], events[0]["object"]["metadata"]["name"]), ("ADDED", name))

    def assert_closed_with(self, ws, code, timeout=3):
        self.assertTrue(ws.wait_closed(timeout=timeout), "the WebSocket stayed open")
        self.assertEqual(ws.close_code, code)

    def test_garbage_bytes(self):
        witness = self.witness()
        ws = self.connect(WATCH)
        ws.sock.sendall(b"\xff\xff\xff\xff this is no frame at all")
        self.assert_closed_with(ws, 1002)  # protocol error
        ws.close()
        self.assert_witness_sees(witness, "after-garbage")

    def test_frame_header_claiming_2_pow_62_bytes(self):
        witness = self.witness()
        ws = self.connect(WATCH)
        ws.sock.sendall(ws_frame(OP_BINARY, b"", length=1 << 62))
        self.assert_closed_with(ws, 1009)  # message too big
        ws.close()
        self.assert_witness_sees(witness, "after-2-pow-62")

    def test_reserved_opcode_and_bits(self):
        for name, frame in [("opcode 3", ws_frame(3, b"hello")), ("RSV bits", ws_frame(OP_TEXT, b"hello", rsv=7)),
                            ("fragmented ping", ws_frame(OP_PING, b"x", fin=False)),
                            ("continuation without a start", ws_frame(OP_CONTINUATION, b"x"))]:
            with self.subTest(name):
                ws = self.connect(WATCH)
                ws.sock.sendall(frame)
                self.assert_closed_with(ws, 1002)
                ws.close()

    def test_invalid_utf8_text_frame(self):
        ws = self.connect(WATCH)
        ws.send(OP_TEXT, b"\xff\xfe")
        self.assert_closed_with(ws, 1007)  # inconsistent data
        ws.close()

    def test_bad_resource_version_is_a_status_then_close(self):
        ws = self.connect(WATCH + "&resourceVersion=abc")
        messages = ws.messages(1)
        self.assertEqual(len(messages), 1)
        self.assertEqual((messages[0]["kind"], messages[0]["code"], messages[0]["reason"]), ("Status", 400, "BadRequest"))
        self.assertTrue(ws.wait_closed(timeout=3))
        ws.close()

    # FIXED (was a bug) (memory exhaustion): a watch WebSocket buffers a fragmented message that never ends
    # without bound (Qt's default limit is 2 GiB per message): 100 MiB of continuation frames
    # without FIN grew the server by 230 MiB, and it kept the connection. The apiserver
    # (x/net/websocket, which reads and drops what a watch client sends) holds at most one
    # 32 MiB frame; so: close the WebSocket, or hold little for it.
    def test_never_ending_fragmented_message(self):
        witness = self.witness()
        ws = self.connect(WATCH)
        before = rss_mib(self.server.process.pid)
        frame = ws_frame(OP_CONTINUATION, b"x" * 65536, fin=False, mask_key=b"\0\0\0\0")
        closed = False
        try:
            ws.send(OP_TEXT, b"x", fin=False)
            for _ in range(48 * 16):  # 48 MiB
                ws.sock.sendall(frame)
        except (BrokenPipeError, ConnectionResetError):
            closed = True
        grown = rss_mib(self.server.process.pid) - before
        closed = closed or ws.wait_closed(timeout=0.5)
        ws.close()
        self.assert_witness_sees(witness, "after-fragments")
        self.assertTrue(closed or grown < 32, f"still open, and the server grew by {grown:.0f} MiB")

    # BUG (RFC 6455 section 5.1: "a server MUST close the connection upon receiving a frame
    # that is not masked"): an unmasked client frame is taken (on a bulk session it even opens
    # a channel). Low severity: x/net/websocket under the apiserver is as lax.
    @unittest.expectedFailure
    def test_unmasked_client_frame(self):
        ws = self.connect(WATCH)
        ws.send(OP_TEXT, b"hello", masked=False)
        self.assert_closed_with(ws, 1002, timeout=1.5)
        ws.close()

    # BUG (divergence): an upgrade without Sec-WebSocket-Key gets no answer, the connection is
    # just closed; x/net/websocket (the apiserver's) answers 400 Bad Request.
    @unittest.expectedFailure
    def test_handshake_without_key(self):
        responses, _, raw = exchange(self.port, handshake(WATCH, key=b""))
        self.assertEqual([r.status for r in responses], [400], raw)


class BulkWatch(HostileCase):
    """The bulk watch session (README "Bulk watch protocol"), with --max-bulk-channels 5:
    every bad frame gets its 400, every request past the bound its 429, and the session,
    the other sessions and the server carry on."""
    server_args = ("--max-bulk-channels", "5")

    def replies(self, ws, count, timeout=10):
        """`count` request replies (events on opened channels are skipped)."""
        out = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            batch = ws.messages(1, timeout=deadline - time.monotonic())
            if not batch:
                break
            if isinstance(batch[0], dict) and "requestId" in batch[0]:
                out.append(batch[0])
        return out

    def assert_error(self, reply, request_id, code, reason):
        self.assertEqual(reply.get("requestId", "missing"), request_id, reply)
        self.assertEqual((reply["error"]["kind"], reply["error"]["code"], reply["error"]["reason"]),
                         ("Status", code, reason), reply)

    def test_non_json_text_frames(self):
        ws = self.connect(BULK)
        for payload in (b"not json", b"{", b"\x00\x01\x02", b"null", b"42", b"[1,2]", b'"watch"'):
            ws.send(OP_TEXT if payload != b"\x00\x01\x02" else OP_BINARY, payload)
        for reply in self.replies(ws, 7):
            self.assert_error(reply, None, 400, "BadRequest")
        ws.send_json(bulk_watch(1))
        self.assertEqual(self.replies(ws, 1), [{"requestId": 1, "channel": 1}])
        ws.close()

    def test_frames_of_unknown_type(self):
        ws = self.connect(BULK)
        cases = [
            ({"id": 7}, 7, 400, "BadRequest"),  # neither watch nor closeWatch
            ({"id": 8, "bogus": {}}, 8, 400, "BadRequest"),
            ({"id": 9, "watch": {}, "closeWatch": {"channel": 1}}, 9, 400, "BadRequest"),
            ({"id": "x", "watch": {}}, None, 400, "BadRequest"),
            ({**bulk_watch(0), "id": 1.5}, None, 400, "BadRequest"),
            ({**bulk_watch(0), "id": 2 ** 70}, None, 400, "BadRequest"),
            (bulk_watch(10, resource="nosuchthings"), 10, 404, "NotFound"),
            (bulk_watch(11, labelSelector="a in ("), 11, 400, "BadRequest"),
            (bulk_watch(12, resourceVersion="abc"), 12, 400, "BadRequest"),
            ({"id": 13, "closeWatch": {"channel": 99}}, 13, 404, "NotFound"),
        ]
        for frame, *_ in cases:
            ws.send_json(frame)
        ws.send(OP_TEXT, b'{"id":14,"watch":' + b"[" * 10000 + b"]" * 10000 + b"}")
        replies = self.replies(ws, len(cases) + 1)
        self.assertEqual(len(replies), len(cases) + 1, replies)
        for reply, (frame, request_id, code, reason) in zip(replies, cases):
            with self.subTest(json.dumps(frame)[:60]):
                self.assert_error(reply, request_id, code, reason)
        self.assertEqual(replies[-1]["error"]["code"], 400)
        ws.send_json(bulk_watch(15))
        self.assertEqual(self.replies(ws, 1), [{"requestId": 15, "channel": 1}])
        ws.close()

    def test_channels_past_the_bound(self):
        ws = self.connect(BULK)
        for request_id in range(1, 21):
            ws.send_json(bulk_watch(request_id))
        replies = self.replies(ws, 20)
        self.assertEqual(replies[:5], [{"requestId": i, "channel": i} for i in range(1, 6)])
        for reply, request_id in zip(replies[5:], range(6, 21)):
            self.assert_error(reply, request_id, 429, "TooManyRequests")
            self.assertGreaterEqual(reply["error"]["details"]["retryAfterSeconds"], 1)
            self.assertIn("too many open channels in this bulk watch session (5)", reply["error"]["message"])
        self.assertEqual(len(replies), 20)
        ws.send_json({"id": 21, "closeWatch": {"channel": 3}})
        ws.send_json(bulk_watch(22, resource="secrets"))
        self.assertEqual(self.replies(ws, 2), [{"requestId": 21, "channel": 3}, {"requestId": 22, "channel": 6}])
        ws.close()

    def test_channel_opens_without_end(self):
        sessions = [self.connect(BULK) for _ in range(3)]
        frames = b"".join(ws_frame(OP_TEXT, json.dumps(bulk_watch(i)).encode()) for i in range(1, 2001))
        started = time.monotonic()
        for ws in sessions:
            ws.sock.sendall(frames)
        for ws in sessions:
            replies = self.replies(ws, 2000, timeout=20)
            self.assertEqual(len(replies), 2000)
            self.assertEqual(sum("channel" in reply for reply in replies), 5)
            self.assertEqual({reply["error"]["code"] for reply in replies if "error" in reply}, {429})
        self.assertLess(time.monotonic() - started, 15)
        self.assert_still_serves()
        # The sessions' channels are open watches: a change reaches each session's 5 channels.
        self.create("seen-by-bulk")
        for ws in sessions:
            events = []
            deadline = time.monotonic() + 5
            while len(events) < 5 and time.monotonic() < deadline:
                for message in ws.messages(1, timeout=deadline - time.monotonic()):
                    if message.get("event", {}).get("object", {}).get("metadata", {}).get("name") == "seen-by-bulk":
                        events.append(message["channel"])
            self.assertEqual(sorted(events), [1, 2, 3, 4, 5])
            ws.close()

    def test_frame_over_1_mib(self):
        ws = self.connect(BULK)
        payload = json.dumps({"id": 1, "pad": "x" * (1 << 20)}).encode()
        frame = ws_frame(OP_TEXT, payload)
        ws.sock.sendall(frame[:14])  # the header: refused on it, before the payload comes
        try:
            ws.sock.sendall(frame[14:])
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.assertTrue(ws.wait_closed(timeout=3), "the session stayed open")
        self.assertEqual(ws.close_code, 1009)
        ws.close()

    def test_never_ending_fragmented_message(self):
        ws = self.connect(BULK)
        frame = ws_frame(OP_CONTINUATION, b"x" * 65536, fin=False, mask_key=b"\0\0\0\0")
        sent = 0
        try:
            ws.send(OP_TEXT, b"x", fin=False)
            for _ in range(64):  # 4 MiB
                ws.sock.sendall(frame)
                sent += 65536
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.assertTrue(ws.wait_closed(timeout=3), f"the session stayed open after {sent} bytes")
        ws.close()


class Connections(HostileCase):
    # FIXED (was a bug): the listening socket's backlog is Qt's default of 50 (`ss -ltn` shows Send-Q 50),
    # so a burst of connections overflows it and the kernel drops SYNs: with 300 at once some
    # waited for the 1 s SYN retransmission, with 2,000 opened in a loop the client stalled
    # 28 s. Go (kube-apiserver) listens with net.core.somaxconn (4096 here).
    # QTcpServer::setListenBacklogSize (Qt 6.3) sets it.
    def test_burst_of_1000_connections_is_queued(self):
        with open("/proc/sys/net/core/somaxconn") as handle:
            if int(handle.read()) < 1100:
                self.skipTest("net.core.somaxconn is below the burst")
        selector = selectors.DefaultSelector()
        sockets = []
        try:
            started = time.monotonic()
            for _ in range(1000):
                sock = socket.socket()
                sock.setblocking(False)
                sock.connect_ex((HOST, self.port))
                selector.register(sock, selectors.EVENT_WRITE)
                sockets.append(sock)
            established = 0
            while established < 1000 and time.monotonic() - started < 3:
                for key, _ in selector.select(timeout=0.1):
                    selector.unregister(key.fileobj)
                    established += 1
            took = time.monotonic() - started
            self.assertEqual(established, 1000)
            self.assertLess(took, 0.9, "some connections waited for a SYN retransmission")
        finally:
            selector.close()
            for sock in sockets:
                sock.close()


class AbandonedConnections(HostileCase):
    server_args = ("--max-connections", "500")

    def test_2000_abandoned_connections(self):
        sockets = []
        try:
            for i in range(2000):
                sock = socket.create_connection((HOST, self.port), timeout=10)
                if i % 2:
                    sock.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a head, never finished
                sockets.append(sock)
                if i % 20 == 19:
                    time.sleep(0.005)  # the accept queue is 50 deep (see Connections)
            # Past the bound, a new connection's request is answered 429 and closed.
            responses, closed, raw = exchange(self.port, b"GET " + CONFIGMAPS.encode() + b"/sentinel HTTP/1.1\r\n"
                                              b"Host: 127.0.0.1\r\n\r\n")
            self.assertEqual(len(responses), 1, raw)
            status = self.assert_status(responses[0], 429, "TooManyRequests")
            self.assertEqual(status["message"], "too many open connections (500), please try again later")
            self.assertGreaterEqual(int(responses[0].headers["retry-after"]), 1)
            self.assertTrue(closed)
            # Once enough of them are gone, a normal client is served again.
            for sock in sockets[:1700]:
                sock.close()
            deadline = time.monotonic() + 5
            while True:
                response = call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None)
                if response.status == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            self.assertEqual(response.status, 200, response)
        finally:
            for sock in sockets:
                sock.close()
        deadline = time.monotonic() + 5
        while call(self.port, "GET", f"{CONFIGMAPS}/{SENTINEL}", content_type=None).status != 200:
            self.assertLess(time.monotonic(), deadline, "not served after every connection closed")
            time.sleep(0.05)


# The header timeout needs half a minute to show: its connections are opened when the module
# starts, on a server of their own, and looked at by the last class.
EARLY = {}
HEADER_TIMEOUT_CHECK_S = 40  # Go's ReadHeaderTimeout in kube-apiserver is 32 s


def setUpModule():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096 <= hard or (soft < 4096 and hard == resource.RLIM_INFINITY):
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
    server = RvscopeServer(BINARY)
    silent = socket.create_connection((HOST, server.port), timeout=10)
    half = socket.create_connection((HOST, server.port), timeout=10)
    half.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    EARLY.update(server=server, sockets={"silent": silent, "half a head": half}, opened=time.monotonic())


def tearDownModule():
    for sock in EARLY.get("sockets", {}).values():
        sock.close()
    if "server" in EARLY:
        code = EARLY["server"].stop()
        assert code == 0, f"rvscope serve exited with {code}"


class HeaderTimeout(HostileCase):
    @classmethod
    def setUpClass(cls):
        cls.server = EARLY["server"]
        cls.port = cls.server.port
        created = call(cls.port, "POST", CONFIGMAPS, configmap(SENTINEL, SENTINEL_DATA))
        assert created.status == 201, created

    @classmethod
    def tearDownClass(cls):
        pass  # tearDownModule stops it

    # FIXED (was a bug) (denial of service): a connection that never sends a request, or never finishes its
    # head, is kept forever (still open after 100 s; only connections idle after a request
    # close, at 90 s). With --max-connections N, N such sockets lock every client out for
    # good (each new connection gets 429). kube-apiserver's http.Server has
    # ReadHeaderTimeout 32 s: such connections are closed after it.
    def test_connections_without_a_request_are_closed(self):
        time.sleep(max(0.0, EARLY["opened"] + HEADER_TIMEOUT_CHECK_S - time.monotonic()))
        still_open = []
        for name, sock in EARLY["sockets"].items():
            sock.settimeout(0.2)
            try:
                data = sock.recv(65536)
                while data:  # a 408 before closing is fine too
                    data = sock.recv(65536)
            except socket.timeout:
                still_open.append(name)
            except ConnectionResetError:
                pass
        self.assertEqual(still_open, [], f"open after {HEADER_TIMEOUT_CHECK_S} s")


ORDER = [MalformedHttp, Oversized, SlowClients, JsonBodies, ContentTypes, QueryValues, Names, WebSockets,
         BulkWatch, Connections, AbandonedConnections, HeaderTimeout]


def load_tests(loader, standard_tests, pattern):
    suite = unittest.TestSuite()
    for case in ORDER:
        suite.addTests(loader.loadTestsFromTestCase(case))
    return suite


if __name__ == "__main__":
    unittest.main()
