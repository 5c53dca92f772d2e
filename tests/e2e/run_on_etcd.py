#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs an end-to-end suite (test_kubectl.py, test_python_client.py, ...) against
rvscope-on-etcd: starts a real etcd on free loopback ports, and every rvscope the suite
starts serves from it (RVSCOPE_TEST_ETCD; each under its own --etcd-prefix)."""
import os
import subprocess
import sys

from etcd_cluster import EtcdCluster

if __name__ == "__main__":
    cluster = EtcdCluster(1)
    try:
        env = dict(os.environ, RVSCOPE_TEST_ETCD=cluster.endpoints)
        sys.exit(subprocess.call([sys.executable, *sys.argv[1:]], env=env))
    finally:
        cluster.stop()
