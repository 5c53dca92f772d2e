#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Debian's python3-kubernetes against a real `rvscope serve`: CRUD, the seed's lost-update
race, watch/resume/410, and a contended counter that must end exact."""
import os
import threading
import unittest

from kubernetes import client, watch
from kubernetes.client.rest import ApiException

from rvscope_server import RvscopeServer

BINARY = os.environ["RVSCOPE_BINARY"]
HISTORY = 50


def core_api(server):
    configuration = client.Configuration()
    configuration.host = server.url
    return client.CoreV1Api(client.ApiClient(configuration))


def configmap(name, data):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data=data)


class PythonClientEndToEnd(unittest.TestCase):
    def setUp(self):
        self.server = RvscopeServer(BINARY, "--watch-history", str(HISTORY))
        self.api = core_api(self.server)

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)

    def test_typed_crud(self):
        created = self.api.create_namespaced_config_map("default", configmap("foo", {"a": "1"}))
        self.assertEqual(created.metadata.namespace, "default")
        read = self.api.read_namespaced_config_map("foo", "default")
        self.assertEqual(read.data, {"a": "1"})
        read.data["b"] = "2"
        replaced = self.api.replace_namespaced_config_map("foo", "default", read)
        self.assertNotEqual(replaced.metadata.resource_version, read.metadata.resource_version)
        patched = self.api.patch_namespaced_config_map("foo", "default", {"data": {"c": "3"}})
        self.assertEqual(patched.data, {"a": "1", "b": "2", "c": "3"})
        names = [item.metadata.name for item in self.api.list_namespaced_config_map("default").items]
        self.assertEqual(names, ["foo"])
        self.api.delete_namespaced_config_map("foo", "default")
        with self.assertRaises(ApiException) as missing:
            self.api.read_namespaced_config_map("foo", "default")
        self.assertEqual(missing.exception.status, 404)
        self.assertEqual(client.VersionApi(self.api.api_client).get_code().major, "1")

    def test_lost_update_race(self):
        self.api.create_namespaced_config_map("default", configmap("foo", {}))
        first = self.api.read_namespaced_config_map("foo", "default")
        second = self.api.read_namespaced_config_map("foo", "default")
        first.data = {"bar": "one"}
        self.api.replace_namespaced_config_map("foo", "default", first)
        second.data = {"baz": "two"}
        with self.assertRaises(ApiException) as conflict:
            self.api.replace_namespaced_config_map("foo", "default", second)
        self.assertEqual(conflict.exception.status, 409)
        self.assertIn('Operation cannot be fulfilled on configmaps \\"foo\\": the object has been modified; please '
                      'apply your changes to the latest version and try again', conflict.exception.body)
        self.assertEqual(self.api.read_namespaced_config_map("foo", "default").data, {"bar": "one"})

    def test_watch_from_list_resource_version(self):
        self.api.create_namespaced_config_map("default", configmap("before", {}))
        listed = self.api.list_namespaced_config_map("default")
        for i in range(3):
            self.api.create_namespaced_config_map("default", configmap(f"after-{i}", {}))
        self.api.delete_namespaced_config_map("after-0", "default")
        seen = []
        for event in watch.Watch().stream(self.api.list_namespaced_config_map, "default",
                                          resource_version=listed.metadata.resource_version, timeout_seconds=2):
            seen.append((event["type"], event["object"].metadata.name))
        self.assertEqual(seen, [("ADDED", "after-0"), ("ADDED", "after-1"), ("ADDED", "after-2"),
                                ("DELETED", "after-0")])

    def test_resume_from_middle_and_410_after_history(self):
        versions = [self.api.create_namespaced_config_map("default", configmap(f"cm-{i}", {})).metadata.resource_version
                    for i in range(5)]
        seen = [event["object"].metadata.name
                for event in watch.Watch().stream(self.api.list_namespaced_config_map, "default",
                                                  resource_version=versions[2], timeout_seconds=1)]
        self.assertEqual(seen, ["cm-3", "cm-4"])
        for i in range(HISTORY + 5):
            self.api.patch_namespaced_config_map("cm-0", "default", {"data": {"n": str(i)}})
        with self.assertRaises(ApiException) as expired:
            for _ in watch.Watch().stream(self.api.list_namespaced_config_map, "default",
                                          resource_version=versions[0], timeout_seconds=1):
                pass
        self.assertEqual(expired.exception.status, 410)

    def test_counter_with_retry_on_conflict_ends_exact(self):
        self.api.create_namespaced_config_map("default", configmap("counter", {"n": "0"}))
        conflicts = []
        errors = []

        def worker():
            api = core_api(self.server)
            mine = 0
            for _ in range(50):
                while True:
                    current = api.read_namespaced_config_map("counter", "default")
                    current.data["n"] = str(int(current.data["n"]) + 1)
                    try:
                        api.replace_namespaced_config_map("counter", "default", current)
                        break
                    except ApiException as error:
                        if error.status != 409:
                            errors.append(error)
                            return
                        mine += 1
            conflicts.append(mine)

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(errors, [])
        self.assertEqual(self.api.read_namespaced_config_map("counter", "default").data["n"], "400")
        self.assertGreater(sum(conflicts), 0, "8 writers never conflicted: the race did not happen")
        print(f"\n  counter: 400 increments, {sum(conflicts)} conflicts retried")


if __name__ == "__main__":
    unittest.main(verbosity=2)
