#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What `rvscope serve` holds resident, read from /proc/PID/status (not run under the
sanitizers, whose allocator and shadow memory are what RSS would measure there):
- stored ConfigMaps of about 1.6 KB (with managedFields) cost at most 3 KB each (issue 16's
  goal is 3 KB per 1 KB object; 100,000 of them measure about 2.1 KB each);
- a list of all of them, tens of megabytes, is held once while it is written (the socket
  writes from the answer's body itself; over TLS about three times), and does
  not leave the server that much larger: its memory goes back to the system once it is sent
  (over TLS, once the connection closes)."""
import http.client
import json
import os
import shutil
import ssl
import subprocess
import tempfile
import time
import unittest

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
COLLECTION = "/api/v1/namespaces/default/configmaps"
GOAL_BYTES_PER_OBJECT = 3 * 1024
# What a large answer may leave behind, beside the allocator's caches.
SLACK_BYTES = 8 * 1024 * 1024


class Resident(unittest.TestCase):
    OBJECTS = 20_000
    CLOSE_AFTER_LIST = False
    # How many times over the list's bytes the server's peak may rise while it answers.
    PEAK_COPIES = 1.5

    def setUp(self):
        self.server = RvscopeServer(BINARY)
        self.addCleanup(self.server.stop)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        self.addCleanup(self.connection.close)

    def rss(self, field="VmRSS:"):
        with open(f"/proc/{self.server.process.pid}/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith(field))

    def reset_peak(self):
        """Starts VmHWM (the peak resident size) over from now; False where the kernel refuses."""
        try:
            with open(f"/proc/{self.server.process.pid}/clear_refs", "w") as clear_refs:
                clear_refs.write("5")
            return True
        except OSError:
            return False

    def call(self, method, path, body=None):
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None,
                                headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        return response.status, response.read()

    def settled_rss(self, at_most=None, timeout=10):
        """RSS once it stops falling (or is at most `at_most`)."""
        deadline = time.monotonic() + timeout
        last = self.rss()
        while time.monotonic() < deadline:
            time.sleep(0.25)
            now = self.rss()
            if (at_most is not None and now <= at_most) or (at_most is None and now >= last):
                return now
            last = now
        return last

    def test_stored_objects_and_a_list_of_all_of_them_stay_within_bounds(self):
        self.assertEqual(self.call("GET", COLLECTION)[0], 200)
        start = self.settled_rss()
        data = {f"key-{i}": chr(ord("a") + i % 26) * 40 for i in range(18)}
        for i in range(self.OBJECTS):
            status, body = self.call("POST", COLLECTION, {
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": f"cm-{i}", "labels": {"app": "rvscope", "tier": "backend"}}, "data": data})
            self.assertEqual(status, 201, body)
        stored = self.settled_rss()
        per_object = (stored - start) / self.OBJECTS
        print(f"\n{self.OBJECTS} ConfigMaps of {len(body)} B: {per_object:.0f} B per object resident", flush=True)
        self.assertLessEqual(per_object, GOAL_BYTES_PER_OBJECT)

        peak_measured = self.reset_peak()
        status, listed = self.call("GET", COLLECTION)
        self.assertEqual(status, 200)
        self.assertEqual(len(json.loads(listed)["items"]), self.OBJECTS)
        if peak_measured:
            rise = self.rss("VmHWM:") - stored
            print(f"\nwhile the list of {len(listed) >> 20} MiB was answered: peak {rise >> 20} MiB above before it",
                  flush=True)
            # FIXED (was a gap): the answer was serialized whole beside its body, so a list
            # was held twice while it was written (peak 59 MiB for a 29 MiB list).
            self.assertLessEqual(rise, self.PEAK_COPIES * len(listed))
        if self.CLOSE_AFTER_LIST:
            self.connection.close()
        after = self.settled_rss(at_most=stored + SLACK_BYTES)
        print(f"after a list of {len(listed) >> 20} MiB: {(after - stored) >> 20} MiB more than before it", flush=True)
        self.assertLessEqual(after - stored, SLACK_BYTES)


class ResidentOverTls(Resident):
    """Over TLS the connection keeps its largest answer, encrypted, in OpenSSL's memory BIO
    until it closes (Qt encrypts all it has buffered before it drains the BIO, which never
    shrinks): bounded once it closes."""
    OBJECTS = 10_000  # a list of 16 MiB
    CLOSE_AFTER_LIST = True
    PEAK_COPIES = 4.0  # the answer, OpenSSL's encrypted copy and the encrypted bytes queued (3.0 measured)

    def setUp(self):
        directory = tempfile.mkdtemp(prefix="rvscope-memory-")
        self.addCleanup(shutil.rmtree, directory)
        cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
        self.server = RvscopeServer(BINARY, "--tls-cert", cert, "--tls-key", key)
        self.addCleanup(self.server.stop)
        self.assertTrue(self.server.url.startswith("https://"))
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.connection = http.client.HTTPSConnection("127.0.0.1", self.server.port, timeout=60, context=context)
        self.addCleanup(self.connection.close)


if __name__ == "__main__":
    unittest.main()
