# SPDX-License-Identifier: MIT
"""Starts `rvscope serve --listen 127.0.0.1:0` for an end-to-end test and stops it."""
import os
import re
import subprocess
import tempfile


class RvscopeServer:
    def __init__(self, binary, *extra_args):
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0", *extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.match(r"listening on (https?://127\.0\.0\.1:(\d+))$", line.strip())
        if not match:
            self.process.kill()
            raise RuntimeError(f"no ready line from rvscope: {line!r} {self.process.stderr.read()}")
        self.url = match.group(1)
        self.port = int(match.group(2))

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        finally:
            self.process.stdout.close()
            self.process.stderr.close()
        return self.process.returncode


def kubectl(server, *args, input=None, env=None, check=True):
    """Runs kubectl against `server` with a fresh discovery cache, like a first-time user."""
    cache = tempfile.mkdtemp(prefix="kubectl-cache-")
    command = ["kubectl", f"--server={server.url}", f"--cache-dir={cache}", *args]
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run(command, input=input, capture_output=True, text=True, env=full_env, timeout=60)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result
