#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Fault injection through the real binary: rules from `--fault` and from /rvscope/v1/faults
behave alike and hit only what they name; kubectl sees the injected 409's exact text; 429
carries Retry-After; a late reply's write has landed; the Python client's watch gets the
injected 410 and relists; end-after ends a stream after exactly N events; an injected
compaction expires older resumes; the endpoint answers to access control; the exported
history flags the injected operations and `rvscope check` passes it."""
import http.client
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

from kubernetes import client, watch
from kubernetes.client.rest import ApiException

from rvscope_server import BulkSession, RvscopeServer, kubectl

BINARY = os.environ["RVSCOPE_BINARY"]
CONFIGMAPS = "/api/v1/namespaces/default/configmaps"
FAULTS = "/rvscope/v1/faults"
CONFLICT_TEXT = ('Operation cannot be fulfilled on configmaps "foo": the object has been modified; '
                 'please apply your changes to the latest version and try again')


def request(server, method, path, body=None, timeout=10, headers=None):
    """(status, JSON body, response headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=dict({"Content-Type": "application/json"}, **(headers or {})))
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else {}, dict(response.getheaders())
    finally:
        conn.close()


def configmap(name, data=None, namespace="default"):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": namespace},
            "data": data or {}}


def create(server, name, namespace="default", data=None):
    status, body, _ = request(server, "POST", f"/api/v1/namespaces/{namespace}/configmaps",
                              configmap(name, data, namespace))
    assert status == 201, (status, body)
    return body


def put_codes(server, name, count):
    """`count` conditional PUTs of configmap `name` (each from a fresh GET): their codes."""
    codes = []
    for i in range(count):
        _, current, _ = request(server, "GET", f"{CONFIGMAPS}/{name}")
        current["data"] = {"n": str(i)}
        codes.append(request(server, "PUT", f"{CONFIGMAPS}/{name}", current)[0])
    return codes


def add_rule(server, rule):
    status, body, _ = request(server, "POST", FAULTS, {"rule": rule})
    assert status == 201, (status, body)
    return body


def core_api(server):
    configuration = client.Configuration()
    configuration.host = server.url
    return client.CoreV1Api(client.ApiClient(configuration))


class Faults(unittest.TestCase):
    def setUp(self):
        self.servers = []
        self.dir = tempfile.mkdtemp(prefix="rvscope-faults-")

    def tearDown(self):
        for server in self.servers:
            if server.process.poll() is None:
                self.assertEqual(server.stop(), 0)
        shutil.rmtree(self.dir, ignore_errors=True)

    def serve(self, *args):
        server = RvscopeServer(BINARY, *args)
        self.servers.append(server)
        return server

    def test_kubectl_sees_the_injected_conflict_and_other_objects_are_untouched(self):
        server = self.serve("--fault", "update configmaps/default/foo once conflict")
        kubectl(server, "create", "namespace", "other")
        for namespace in ("default", "other"):
            for name in ("foo", "bar"):
                create(server, name, namespace)
        manifest = os.path.join(self.dir, "cm.yaml")

        def replace(name, namespace):
            with open(manifest, "w") as handle:
                handle.write(f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n"
                             f"  namespace: {namespace}\ndata:\n  k: v\n")
            return kubectl(server, "replace", "-f", manifest, check=False)

        # Another name, another namespace, another verb: untouched.
        self.assertEqual(replace("bar", "default").returncode, 0)
        self.assertEqual(replace("foo", "other").returncode, 0)
        kubectl(server, "label", "configmap", "foo", "x=y")  # a patch, not an update
        kubectl(server, "get", "configmap", "foo")
        # The rule's one firing, with the apiserver's text for this object.
        refused = replace("foo", "default")
        self.assertEqual(refused.returncode, 1)
        self.assertIn(f"Error from server (Conflict): error when replacing \"{manifest}\": {CONFLICT_TEXT}",
                      refused.stderr)
        # Spent: the next one lands.
        self.assertEqual(replace("foo", "default").returncode, 0, "once means once")
        status, rules, _ = request(server, "GET", FAULTS)
        self.assertEqual(status, 200)
        self.assertEqual(rules["kind"], "FaultRuleList")
        self.assertEqual(rules["items"], [{"id": 1, "rule": "update configmaps/default/foo once conflict",
                                           "matched": 1, "fired": 1, "spent": True}])

    def test_a_rule_over_http_behaves_as_the_same_rule_on_the_command_line(self):
        rule = "update configmaps/default/foo every=2 conflict"
        flagged = self.serve("--fault", rule)
        posted = self.serve()
        added = add_rule(posted, rule)
        self.assertEqual(added, {"id": 1, "rule": rule, "matched": 0, "fired": 0, "spent": False})
        outcomes = []
        for server in (flagged, posted):
            create(server, "foo")
            create(server, "bar")
            codes = put_codes(server, "foo", 6)
            self.assertEqual(put_codes(server, "bar", 2), [200, 200])
            _, conflict, _ = request(server, "GET", FAULTS + "/1")
            outcomes.append((codes, conflict["matched"], conflict["fired"]))
        self.assertEqual(outcomes[0], ([200, 409, 200, 409, 200, 409], 6, 3))
        self.assertEqual(outcomes[1], outcomes[0])

        # Removed: every PUT lands again; a cleared list is empty.
        status, removed, _ = request(posted, "DELETE", FAULTS + "/1")
        self.assertEqual((status, removed["id"]), (200, 1))
        self.assertEqual(put_codes(posted, "foo", 2), [200, 200])
        self.assertEqual(request(posted, "DELETE", FAULTS + "/1")[0], 404)
        add_rule(posted, "get configmaps error")
        add_rule(posted, "list configmaps error")
        status, cleared, _ = request(posted, "DELETE", FAULTS)
        self.assertEqual((status, [item["id"] for item in cleared["items"]]), (200, [2, 3]))
        self.assertEqual(request(posted, "GET", FAULTS)[1]["items"], [])

        # A bad rule is a 400 Status that says what is wrong.
        status, bad, _ = request(posted, "POST", FAULTS, {"rule": "updte configmaps conflict"})
        self.assertEqual((status, bad["kind"], bad["reason"]), (400, "Status", "BadRequest"))
        self.assertIn('fault rule "updte configmaps conflict": unknown verb "updte"', bad["message"])
        self.assertEqual(request(posted, "POST", FAULTS, {"nope": 1})[0], 400)
        # ... and the command line refuses it with the same words.
        refused = subprocess.run([BINARY, "serve", "--listen", "127.0.0.1:0", "--fault", "get configmaps"],
                                 capture_output=True, text=True, timeout=30)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn('--fault: fault rule "get configmaps": expected VERBS TARGET ... ACTION', refused.stderr)

    def test_throttle_error_timeout_and_drop_answer_for_the_handler(self):
        server = self.serve("--fault", "get configmaps/default/* throttle retry-after=2",
                            "--fault", "create configmaps/default/broken error",
                            "--fault", "create configmaps/default/slow timeout",
                            "--fault", "create configmaps/default/dropped drop")
        create(server, "a")
        status, body, headers = request(server, "GET", f"{CONFIGMAPS}/a")
        self.assertEqual(status, 429)
        self.assertEqual(headers.get("Retry-After"), "2")
        self.assertEqual((body["reason"], body["details"]["retryAfterSeconds"]), ("TooManyRequests", 2))
        self.assertEqual(request(server, "GET", CONFIGMAPS)[0], 200)  # a list is no get

        status, body, _ = request(server, "POST", CONFIGMAPS, configmap("broken"))
        self.assertEqual((status, body["reason"]), (500, "InternalError"))
        status, body, _ = request(server, "POST", CONFIGMAPS, configmap("slow"))
        self.assertEqual((status, body["reason"], body["message"]), (
            504, "Timeout", "Timeout: request did not complete within requested timeout - context deadline exceeded"))
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionResetError)):
            request(server, "POST", CONFIGMAPS, configmap("dropped"))
        # None of them ran.
        _, listed, _ = request(server, "GET", CONFIGMAPS)
        self.assertEqual([item["metadata"]["name"] for item in listed["items"]], ["a"])

    def test_a_late_reply_or_a_drop_after_the_commit_has_landed(self):
        server = self.serve()
        # A reply 60 s late, a client that waits 2 s: far apart, also on a loaded machine.
        add_rule(server, "update configmaps/default/late delay-after-commit=60s")
        add_rule(server, "create configmaps/default/cut drop-after-commit")
        create(server, "late", data={"v": "0"})
        _, current, _ = request(server, "GET", f"{CONFIGMAPS}/late")
        current["data"] = {"v": "1"}
        started = time.monotonic()
        with self.assertRaises(socket.timeout):
            request(server, "PUT", f"{CONFIGMAPS}/late", current, timeout=2)
        # The client gave up on the reply, but the write is there.
        status, read, _ = request(server, "GET", f"{CONFIGMAPS}/late")
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual((status, read["data"]), (200, {"v": "1"}))

        with self.assertRaises((http.client.RemoteDisconnected, ConnectionResetError)):
            request(server, "POST", CONFIGMAPS, configmap("cut"))
        self.assertEqual(request(server, "GET", f"{CONFIGMAPS}/cut")[0], 200)
        # Stopping drains the late reply instead of waiting it out or leaking it (the
        # sanitizer suite's leak check would report a request left suspended at exit).
        stopping = time.monotonic()
        self.assertEqual(server.stop(), 0)
        self.assertLess(time.monotonic() - stopping, 10)

    def test_a_method_the_path_does_not_serve_keeps_its_405(self):
        server = self.serve("--fault", "* configmaps error")
        status, body, _ = request(server, "POST", CONFIGMAPS + "/foo", configmap("foo"))
        self.assertEqual((status, body["reason"]), (405, "MethodNotAllowed"))
        self.assertEqual(request(server, "GET", CONFIGMAPS)[0], 500)  # a served verb: injected

    def test_a_stalled_watch_sends_nothing_until_its_backlog_closes_it(self):
        server = self.serve("--watch-backlog", "4Ki", "--fault", "watch configmaps/default/* stall")
        _, listed, _ = request(server, "GET", CONFIGMAPS)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", f"{CONFIGMAPS}?watch=1&timeoutSeconds=30"
                            f"&resourceVersion={listed['metadata']['resourceVersion']}")
        response = conn.getresponse()
        started = time.monotonic()
        for i in range(8):  # about 8 KiB of events, twice the backlog limit
            create(server, f"s{i}", data={"pad": "x" * 1000})
        events = [json.loads(line) for line in response.read().splitlines() if line.strip()]
        conn.close()
        self.assertLess(time.monotonic() - started, 20, "ended by the backlog limit, not by timeoutSeconds")
        self.assertEqual([e["type"] for e in events], ["ERROR"])  # nothing before it
        status = events[0]["object"]
        self.assertEqual((status["code"], status["reason"]), (410, "Expired"))
        self.assertIn("(limit 4096)", status["message"])
        # The server goes on serving; the write the stalled watch held back is there.
        self.assertEqual(request(server, "GET", CONFIGMAPS + "/s0")[0], 200)

    def test_python_watch_gets_the_injected_410_and_relists(self):
        server = self.serve("--fault", "watch configmaps/default expire-after=2 once")
        api = core_api(server)
        start = api.list_namespaced_config_map("default").metadata.resource_version
        for name in ("c1", "c2", "c3"):
            create(server, name)
        seen = []
        with self.assertRaises(ApiException) as expired:
            for event in watch.Watch().stream(api.list_namespaced_config_map, "default", resource_version=start,
                                              timeout_seconds=10):
                seen.append(event["object"].metadata.name)
        self.assertEqual(expired.exception.status, 410)
        self.assertIn("Expired", expired.exception.reason)
        self.assertRegex(expired.exception.reason, r"too old resource version: \d+ \(\d+\)")  # etcd's words
        self.assertEqual(seen, ["c1", "c2"])  # after 2 events
        # What an informer does on 410: relist, then watch from the list.
        listed = api.list_namespaced_config_map("default")
        self.assertEqual([item.metadata.name for item in listed.items], ["c1", "c2", "c3"])
        create(server, "c4")
        resumed = [(event["type"], event["object"].metadata.name)
                   for event in watch.Watch().stream(api.list_namespaced_config_map, "default",
                                                     resource_version=listed.metadata.resource_version,
                                                     timeout_seconds=2)]
        self.assertEqual(resumed, [("ADDED", "c4")])

    def test_end_after_ends_the_stream_after_exactly_n_events(self):
        server = self.serve()
        add_rule(server, "watch configmaps/default end-after=3")
        _, listed, _ = request(server, "GET", CONFIGMAPS)
        for i in range(5):
            create(server, f"e{i}")
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        started = time.monotonic()
        conn.request("GET", f"{CONFIGMAPS}?watch=1&timeoutSeconds=60"
                            f"&resourceVersion={listed['metadata']['resourceVersion']}")
        response = conn.getresponse()
        events = [json.loads(line) for line in response.read().splitlines() if line.strip()]
        conn.close()
        self.assertLess(time.monotonic() - started, 5, "ended by the rule, not by timeoutSeconds")
        self.assertEqual([(e["type"], e["object"]["metadata"]["name"]) for e in events],
                         [("ADDED", "e0"), ("ADDED", "e1"), ("ADDED", "e2")])
        # A watch of one object by field selector (kubectl get -w NAME) is named by that name,
        # as the apiserver's RequestInfo reads it: the rule for e4 ends it, e3's is untouched.
        request(server, "DELETE", FAULTS + "/1")
        add_rule(server, "watch configmaps/default/e4 end-after=1")
        for name, expected in (("e3", 0), ("e4", 1)):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("GET", f"{CONFIGMAPS}?watch=1&timeoutSeconds=2&fieldSelector=metadata.name%3D{name}"
                                f"&resourceVersion={listed['metadata']['resourceVersion']}")
            started = time.monotonic()
            events = [json.loads(line) for line in conn.getresponse().read().splitlines() if line.strip()]
            conn.close()
            self.assertEqual([e["object"]["metadata"]["name"] for e in events], [name], name)
            ended_by_rule = time.monotonic() - started < 1.5
            self.assertEqual(ended_by_rule, expected == 1, name)

    def test_expire_after_a_time_ends_an_idle_watch_with_410(self):
        server = self.serve("--fault", "watch configmaps/default expire-after=500ms")
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        started = time.monotonic()
        conn.request("GET", f"{CONFIGMAPS}?watch=1&timeoutSeconds=30")
        events = [json.loads(line) for line in conn.getresponse().read().splitlines() if line.strip()]
        conn.close()
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual([(e["type"], e["object"]["code"], e["object"]["reason"]) for e in events],
                         [("ERROR", 410, "Expired")])

    def test_compact_makes_every_older_resume_expire(self):
        server = self.serve("--fault", "list configmaps/default once compact")
        first = create(server, "a")["metadata"]["resourceVersion"]
        create(server, "b")
        create(server, "c")
        # The rule fires: compacted at c's revision, so a resume from a (which needs b) is gone.
        self.assertEqual(request(server, "GET", CONFIGMAPS)[0], 200)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", f"{CONFIGMAPS}?watch=1&timeoutSeconds=5&resourceVersion={first}")
        events = [json.loads(line) for line in conn.getresponse().read().splitlines() if line.strip()]
        conn.close()
        self.assertEqual([(e["type"], e["object"]["code"], e["object"]["reason"]) for e in events],
                         [("ERROR", 410, "Expired")])

    def test_rules_name_what_is_served_and_a_cluster_scoped_object_by_its_name(self):
        server = self.serve()
        status, body, _ = request(server, "POST", FAULTS, {"rule": "update deploy/default/web conflict"})
        self.assertEqual((status, body["reason"]), (400, "BadRequest"))
        self.assertIn('the server serves no resource "deploy" (a rule names the plural: "deployments")',
                      body["message"])
        self.assertEqual(request(server, "GET", FAULTS)[1]["items"], [])  # nothing added
        add_rule(server, "get nodes/n1 error")
        add_rule(server, "get deployments.apps/default/web timeout")
        for name in ("n1", "n2"):
            node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}}
            self.assertEqual(request(server, "POST", "/api/v1/nodes", node)[0], 201)
        status, body, _ = request(server, "GET", "/api/v1/nodes/n1")
        self.assertEqual((status, body["message"], body["details"]),
                         (500, "Internal error occurred: injected fault (rvscope fault rule 1)",
                          {"causes": [{"message": "injected fault (rvscope fault rule 1)"}]}))
        self.assertEqual(request(server, "GET", "/api/v1/nodes/n2")[0], 200)
        # kubectl reads the injected 504 as it reads the apiserver's request timeout.
        kubectl(server, "create", "deployment", "web", "--image=nginx")
        result = kubectl(server, "get", "deployment", "web", check=False)
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(result.stderr.strip(), "Error from server (Timeout): Timeout: request did not complete "
                                                "within requested timeout - context deadline exceeded")

    def test_a_command_line_rule_that_names_nothing_served_refuses_to_start(self):
        result = subprocess.run([BINARY, "serve", "--listen", "127.0.0.1:0", "--fault", "get deploymnets error"],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn('--fault: fault rule "get deploymnets error": the server serves no resource "deploymnets"',
                      result.stderr)

    def test_a_resume_from_before_an_injected_expiry_expires_again(self):
        server = self.serve("--fault", "watch configmaps/default expire-after=1")
        start = request(server, "GET", CONFIGMAPS)[1]["metadata"]["resourceVersion"]
        first = create(server, "a")["metadata"]["resourceVersion"]
        create(server, "b")

        def watch_from(version):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("GET", f"{CONFIGMAPS}?watch=1&timeoutSeconds=1&resourceVersion={version}")
            events = [json.loads(line) for line in conn.getresponse().read().splitlines() if line.strip()]
            conn.close()
            return [(e["type"], e["object"].get("message") or e["object"]["metadata"]["name"]) for e in events]

        gone = f"too old resource version: {first} ({int(first) + 1})"
        self.assertEqual(watch_from(start), [("ADDED", "a"), ("ERROR", gone)])
        # A client that resumes from its last resourceVersion instead of relisting gets the
        # 410 again, as after a compaction; one that relists goes on.
        self.assertEqual(watch_from(first), [("ERROR", gone)])
        listed = request(server, "GET", CONFIGMAPS)[1]["metadata"]["resourceVersion"]
        self.assertEqual(watch_from(listed), [])
        request(server, "DELETE", FAULTS)
        self.assertEqual(watch_from(first), [("ADDED", "b")])

    def test_bulk_watch_channels_meet_the_rules_one_channel_at_a_time(self):
        import websocket  # python3-websocket, a dependency of python3-kubernetes
        server = self.serve("--fault", "watch secrets throttle retry-after=3",
                            "--fault", "watch configmaps/default expire-after=1",
                            "--fault", "watch pods/default/cut drop")
        create(server, "a")
        socket = websocket.create_connection(server.url.replace("http://", "ws://")
                                             + "/apis/bulk.k8s.io/v1/bulkgetoperations", timeout=10)

        session = BulkSession(socket)
        watch, receive = session.watch, session.receive

        watch(1, "secrets")
        refused = receive(lambda f: f.get("requestId") == 1)["error"]
        self.assertEqual((refused["code"], refused["details"]["retryAfterSeconds"]), (429, 3))
        watch(2, "configmaps")
        channel = receive(lambda f: f.get("requestId") == 2)["channel"]
        first = receive(lambda f: f.get("channel") == channel)["event"]
        self.assertEqual((first["type"], first["object"]["metadata"]["name"]), ("ADDED", "a"))
        expired = receive(lambda f: f.get("channel") == channel)["event"]
        self.assertEqual((expired["type"], expired["object"]["code"]), ("ERROR", 410))
        watch(3, "services")  # the session goes on: a channel the rules leave alone opens
        self.assertIn("channel", receive(lambda f: f.get("requestId") == 3))
        watch(4, "pods", "cut")  # a drop takes the whole connection, as a network drop would
        with self.assertRaises((websocket.WebSocketConnectionClosedException, ConnectionResetError, OSError)):
            receive(lambda f: False)
        socket.close()
        self.assertEqual(request(server, "GET", CONFIGMAPS)[0], 200)  # still serving
        rules = request(server, "GET", FAULTS)[1]["items"]
        self.assertEqual([rule["fired"] for rule in rules], [1, 1, 1])

    def test_the_endpoint_answers_to_access_control(self):
        tokens = os.path.join(self.dir, "tokens.csv")
        with open(tokens, "w") as handle:
            handle.write('admin-token,admin,1,"system:masters"\nalice-token,alice,2,devs\n')
        policy = os.path.join(self.dir, "policy.json")
        with open(policy, "w") as handle:
            json.dump({"rules": [
                {"users": ["admin"], "verbs": ["*"], "resources": ["*"]},
                {"users": ["admin"], "verbs": ["get", "post", "delete"], "nonResourceURLs": ["/rvscope/*"]},
                {"groups": ["devs"], "verbs": ["*"], "resources": ["configmaps"]}]}, handle)
        server = self.serve("--token-file", tokens, "--policy-file", policy, "--no-anonymous")
        alice = {"Authorization": "Bearer alice-token"}
        admin = {"Authorization": "Bearer admin-token"}
        rule = {"rule": "get configmaps error"}
        self.assertEqual(request(server, "POST", FAULTS, rule)[0], 401)
        status, body, _ = request(server, "POST", FAULTS, rule, headers=alice)
        self.assertEqual((status, body["reason"]), (403, "Forbidden"))
        self.assertEqual(request(server, "POST", FAULTS, rule, headers=admin)[0], 201)
        self.assertEqual(request(server, "GET", FAULTS, headers=admin)[1]["items"][0]["rule"], rule["rule"])

    def test_exported_history_flags_injected_operations_and_check_passes_it(self):
        history = os.path.join(self.dir, "history.jsonl")
        server = self.serve("--export", history, "--fault", "update configmaps/default/counter every=2 conflict",
                            "--fault", "update configmaps/default/counter every=3 delay-after-commit=50ms",
                            "--fault", "create configmaps/default/nope error")
        create(server, "counter", data={"n": "0"})
        # RetryOnConflict, as client-go's helper does: read, modify, write, again on 409.
        for _ in range(6):
            while True:
                _, current, _ = request(server, "GET", f"{CONFIGMAPS}/counter")
                current["data"]["n"] = str(int(current["data"]["n"]) + 1)
                status = request(server, "PUT", f"{CONFIGMAPS}/counter", current)[0]
                if status != 409:
                    self.assertEqual(status, 200)
                    break
        self.assertEqual(request(server, "GET", f"{CONFIGMAPS}/counter")[1]["data"]["n"], "6")
        self.assertEqual(request(server, "POST", CONFIGMAPS, configmap("nope"))[0], 500)
        server.process.terminate()
        server.process.communicate(timeout=30)
        self.assertEqual(server.process.returncode, 0)

        with open(history) as handle:
            lines = [json.loads(line) for line in handle if line.strip()]
        operations = [line for line in lines if line["record"] == "operation"]
        injected = [(op["verb"], op["code"], op["injected"]) for op in operations if "injected" in op]
        # PUTs 2, 4, 6, 8 and 10 conflict; 3 and 9 are late (6 is the conflict rule's: the older acts).
        self.assertEqual(injected.count(("update", 409, "conflict")), 5)
        self.assertEqual(injected.count(("update", 200, "delay-after-commit")), 2)
        self.assertIn(("create", 500, "error"), injected)
        self.assertIn("configmaps/default/nope", [op["key"] for op in operations if "injected" in op])
        self.assertTrue(all(op["faultRule"] in (1, 2, 3) for op in operations if "injected" in op))
        self.assertFalse(any("injected" in op for op in operations if op["verb"] == "get"))

        result = subprocess.run([BINARY, "check", history], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("  linearizability: PASS", result.stdout)

        # Without the flag, an injected 409 of a current resourceVersion reads as a server bug.
        doctored = os.path.join(self.dir, "unflagged.jsonl")
        with open(doctored, "w") as handle:
            for line in lines:
                if line.get("injected") == "conflict":
                    line = {key: value for key, value in line.items() if key not in ("injected", "faultRule")}
                handle.write(json.dumps(line) + "\n")
        result = subprocess.run([BINARY, "check", doctored], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("  linearizability: FAIL", result.stdout)


if __name__ == "__main__":
    unittest.main()
