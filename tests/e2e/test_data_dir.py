#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`rvscope serve --data-dir`: what kubectl wrote is there after a restart, also after the
server was killed without a chance to clean up (SIGKILL), with the same resourceVersions."""
import json
import os
import shutil
import signal
import tempfile
import unittest

from manifests import WIDGET_CRD
from rvscope_server import RvscopeServer, kubectl

BINARY = os.environ["RVSCOPE_BINARY"]


WIDGET = """apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
spec:
  size: 3
"""


class DataDirEndToEnd(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rvscope-data-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self):
        return RvscopeServer(BINARY, "--data-dir", self.dir)

    def get_json(self, server, *args):
        return json.loads(kubectl(server, "get", *args, "-o", "json").stdout)

    def test_objects_survive_a_kill(self):
        server = self.start()
        kubectl(server, "create", "configmap", "settings", "--from-literal=mode=fast")
        kubectl(server, "patch", "configmap", "settings", "--type", "merge", "-p", '{"data":{"mode":"safe"}}')
        kubectl(server, "create", "namespace", "team")
        kubectl(server, "apply", "-f", "-", input=WIDGET_CRD)
        kubectl(server, "apply", "-n", "team", "-f", "-", input=WIDGET)
        before = self.get_json(server, "configmap", "settings")
        widget_before = self.get_json(server, "-n", "team", "widget", "w1")
        # No clean shutdown: every acknowledged write must already be on disk.
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=10)
        server.process.stdout.close()
        server.process.stderr.close()

        server = self.start()
        try:
            after = self.get_json(server, "configmap", "settings")
            self.assertEqual(after["data"], {"mode": "safe"})
            self.assertEqual(after["metadata"]["resourceVersion"], before["metadata"]["resourceVersion"])
            self.assertEqual(after["metadata"]["uid"], before["metadata"]["uid"])
            # The custom type is served again, its object intact.
            widget = self.get_json(server, "-n", "team", "widget", "w1")
            self.assertEqual(widget["spec"], {"size": 3})
            self.assertEqual(widget["metadata"]["resourceVersion"], widget_before["metadata"]["resourceVersion"])
            # A replace with the pre-restart resourceVersion still works once, then conflicts.
            after["data"]["mode"] = "slow"
            path = os.path.join(self.dir, "settings.json")
            with open(path, "w") as handle:
                json.dump(after, handle)
            kubectl(server, "replace", "-f", path)
            stale = kubectl(server, "replace", "-f", path, check=False)
            self.assertNotEqual(stale.returncode, 0)
            self.assertIn("the object has been modified", stale.stderr)
            newer = self.get_json(server, "configmap", "settings")
            self.assertGreater(int(newer["metadata"]["resourceVersion"]), int(widget_before["metadata"]["resourceVersion"]))
        finally:
            self.assertEqual(server.stop(), 0)

    def test_damaged_log_is_reported(self):
        server = self.start()
        kubectl(server, "create", "configmap", "one")
        self.assertEqual(server.stop(), 0)
        server = self.start()  # replays into a snapshot; the log starts over
        kubectl(server, "create", "configmap", "two")
        kubectl(server, "create", "configmap", "three")
        self.assertEqual(server.stop(), 0)
        log = os.path.join(self.dir, "main.log")
        with open(log, "rb") as handle:
            data = bytearray(handle.read())
        data[data.index(b"two") + 1] = ord("x")  # the first record's checksum fails
        with open(log, "wb") as handle:
            handle.write(data)
        with self.assertRaises(RuntimeError) as raised:
            self.start()
        self.assertIn("main.log line 1", str(raised.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
