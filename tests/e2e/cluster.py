#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""`./dev.sh cluster`: a 3-member etcd and two rvscope instances on it, all on loopback.
Prints the two URLs and a kubeconfig with a context per instance; with a display each
instance opens its window (one instance's writes arrive in the other's by watch). Ctrl-C
stops everything.

    cluster.py RVSCOPE_BINARY [--headless] [extra rvscope options...]"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from etcd_cluster import EtcdCluster, free_port
from lifetime import ends_with_this_process

KUBECONFIG = """apiVersion: v1
kind: Config
clusters:
{clusters}
contexts:
{contexts}
current-context: rvscope-a
users:
- name: anonymous
  user: {{}}
"""


def wait_ready(url, process, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"rvscope exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/version", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


def main(argv):
    binary = argv[1]
    headless = "--headless" in argv[2:]
    extra = [arg for arg in argv[2:] if arg != "--headless"]
    graphical = not headless and bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    print("starting a 3-member etcd on loopback ...", flush=True)
    etcd = EtcdCluster(3, fsync=True)
    instances = []
    try:
        prefix = "/registry"
        for name in ("a", "b"):
            url = f"http://127.0.0.1:{free_port()}"
            command = [binary] + ([] if graphical else ["serve"]) + [
                "--listen", url[len("http://"):], "--storage", "etcd", "--etcd-endpoints", etcd.endpoints,
                "--etcd-prefix", prefix, *extra]
            # A session of its own: Ctrl-C reaches this script, which stops everything in order.
            process = subprocess.Popen(ends_with_this_process(command), stdout=subprocess.DEVNULL, start_new_session=True)
            instances.append((name, url, process))
        for _, url, process in instances:
            wait_ready(url, process)

        kubeconfig = tempfile.NamedTemporaryFile("w", prefix="rvscope-cluster-", suffix=".kubeconfig", delete=False)
        kubeconfig.write(KUBECONFIG.format(
            clusters="\n".join(f"- name: rvscope-{n}\n  cluster:\n    server: {u}" for n, u, _ in instances),
            contexts="\n".join(f"- name: rvscope-{n}\n  context:\n    cluster: rvscope-{n}\n    user: anonymous"
                               for n, _, _ in instances)))
        kubeconfig.close()
        print(f"etcd members: {etcd.endpoints} (prefix {prefix})")
        for name, url, _ in instances:
            print(f"rvscope-{name}: {url}" + ("  (window open)" if graphical else ""))
        print(f"kubeconfig:  export KUBECONFIG={kubeconfig.name}   (contexts rvscope-a, rvscope-b)")
        print("try:        kubectl --context rvscope-a create configmap demo --from-literal=k=v &&"
              " kubectl --context rvscope-b get configmap demo -o yaml")
        print("Ctrl-C stops the instances and etcd.", flush=True)
        while all(process.poll() is None for _, _, process in instances):
            time.sleep(0.5)
        print("an instance exited; stopping the rest.")
    except KeyboardInterrupt:
        pass
    finally:
        for _, _, process in instances:
            if process.poll() is None:
                process.terminate()
        for _, _, process in instances:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        etcd.stop()
        print("stopped.")


def interrupted(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)  # also when started in the background (SIGINT ignored)
    main(sys.argv)
