#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Security defaults, through the binary a person runs: an address other hosts can reach is
served only with tokens or an explicit --anonymous; tokens never show in what rvscope prints
or exports; an exported history keeps Secrets' values out unless asked (--export-secrets)."""
import base64
import json
import os
import re
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request

BINARY = os.environ["RVSCOPE_BINARY"]

TOKEN = "s3cr3t-admin-token-4711"
SECRET_VALUE = "hunter2-do-not-leak"


def start(*args):
    """`rvscope serve` with `args`; (process, url) once it prints its ready line, or
    (process, None) when it exits first."""
    process = subprocess.Popen([BINARY, "serve", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.match(r"listening on (http://[^ ]+)$", line.strip())
    if not match:
        process.wait(timeout=10)
        return process, None
    port = match.group(1).rsplit(":", 1)[1]
    return process, f"http://127.0.0.1:{port}"  # reachable on loopback whatever it listens on


def stop(process):
    process.terminate()
    out, err = process.communicate(timeout=10)
    return out, err


def get(url, token=None):
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class ListenRefusal(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rvscope-security-")
        self.tokens = os.path.join(self.dir, "tokens.csv")
        with open(self.tokens, "w") as handle:
            handle.write(f'{TOKEN},admin,1,"system:masters"\n')

    def test_every_interface_without_tokens_is_refused_and_says_why(self):
        process, url = start("--listen", "0.0.0.0:0")
        self.assertIsNone(url)
        self.assertEqual(process.returncode, 1)
        err = process.stderr.read()
        process.stdout.close()
        process.stderr.close()
        self.assertIn("refusing to listen on 0.0.0.0 without --token-file", err)
        self.assertIn("--anonymous", err)

    def test_explicit_anonymous_serves_every_interface_open(self):
        process, url = start("--listen", "0.0.0.0:0", "--anonymous")
        self.assertIsNotNone(url)
        status, _ = get(url + "/api/v1/namespaces/default/configmaps")
        self.assertEqual(status, 200)
        stop(process)

    def test_tokens_serve_every_interface_and_never_show_in_its_output(self):
        process, url = start("--listen", "0.0.0.0:0", "--token-file", self.tokens)
        self.assertIsNotNone(url)
        self.assertEqual(get(url + "/api/v1/namespaces/default/configmaps")[0], 401)
        self.assertEqual(get(url + "/api/v1/namespaces/default/configmaps", TOKEN)[0], 200)
        status, body = get(url + "/api/v1/namespaces/default/configmaps", TOKEN + "-wrong")
        self.assertEqual(status, 401)
        self.assertNotIn(TOKEN, body)
        out, err = stop(process)
        self.assertNotIn(TOKEN, out + err)

    def test_loopback_needs_nothing(self):
        process, url = start("--listen", "127.0.0.1:0")
        self.assertIsNotNone(url)
        self.assertEqual(get(url + "/api/v1/namespaces/default/configmaps")[0], 200)
        stop(process)


SCENARIO = {
    "name": "secret-export",
    "title": "A Secret read and written by a client with a token",
    "objects": [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "default"},
                 "data": {"password": base64.b64encode(SECRET_VALUE.encode()).decode()},
                 "stringData": {"user": SECRET_VALUE}}],
    "steps": [
        {"client": "admin", "do": "get", "object": "secrets/default/db", "expect": 200},
        {"client": "admin", "do": "update", "object": "secrets/default/db",
         "set": {"stringData.note": SECRET_VALUE}, "expect": 200},
        {"client": "admin", "do": "list", "object": "secrets/default", "expect": 200},
    ],
    "access": {"users": {"admin": {"user": "admin", "groups": ["system:masters"]}}},
}


class ExportedHistories(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rvscope-export-")
        self.scenario = os.path.join(self.dir, "scenario.json")
        with open(self.scenario, "w") as handle:
            json.dump(SCENARIO, handle)

    def run_scenario(self, *extra):
        path = os.path.join(self.dir, "history.jsonl")
        result = subprocess.run([BINARY, "scenario", "run", self.scenario, "--check", "--export", path, *extra],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        with open(path) as handle:
            text = handle.read()
        return result, text

    def test_secret_values_and_tokens_stay_out_of_an_export(self):
        result, text = self.run_scenario()
        encoded = base64.b64encode(SECRET_VALUE.encode()).decode()
        for leak in (SECRET_VALUE, encoded, "scenario-token-"):
            self.assertNotIn(leak, text)
            self.assertNotIn(leak, result.stdout + result.stderr)
        lines = [json.loads(line) for line in text.splitlines() if line]
        secrets = [line for line in lines if line.get("record") == "operation" and "secrets" in line["key"]]
        self.assertGreaterEqual(len(secrets), 3)
        read = next(line for line in secrets if line["verb"] == "get")
        self.assertEqual(read["object"]["data"], {"password": "REDACTED", "user": "REDACTED"})
        self.assertEqual(read["object"]["metadata"]["name"], "db")  # the rest is kept
        written = next(line for line in secrets if line["verb"] == "update")
        self.assertEqual(json.loads(written["request"])["data"]["password"], "REDACTED")

    def test_export_secrets_keeps_them_when_asked(self):
        _, text = self.run_scenario("--export-secrets")
        self.assertIn(base64.b64encode(SECRET_VALUE.encode()).decode(), text)
        self.assertNotIn("scenario-token-", text)  # tokens never

    def test_export_secrets_without_export_is_a_clear_error(self):
        result = subprocess.run([BINARY, "scenario", "run", self.scenario, "--export-secrets"], capture_output=True,
                                text=True, timeout=60)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--export-secrets needs --export FILE", result.stderr)


if __name__ == "__main__":
    unittest.main()
