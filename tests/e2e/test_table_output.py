#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Server-side Table output through kubectl 1.32 against `rvscope serve`: `kubectl get`
prints each type's own columns (kube-apiserver 1.32's printers), `-o wide` adds the wide
ones, `get -w` prints one header and then a row per event, and a custom resource shows its
additionalPrinterColumns."""
import re
import unittest

from rvscope_server import KubectlTestCase, LineReader

WIDGETS = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
"""


def columns(output):
    """The header's column names and the rows, split on runs of two or more spaces."""
    lines = [line for line in output.splitlines() if line.strip()]
    return [re.split(r"\s{2,}", line.strip()) for line in lines]


class TableOutput(KubectlTestCase):
    def test_each_type_prints_its_columns(self):
        self.k("create", "deployment", "web", "--image=nginx:1", "--replicas=2")
        self.k("create", "configmap", "settings", "--from-literal=a=1", "--from-literal=b=2")
        self.k("create", "service", "clusterip", "front", "--tcp=80:8080")
        self.k("create", "secret", "generic", "token", "--from-literal=t=x")
        expected = {
            ("deployments", "web"): (["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"], ["web", "0/2", "0", "0"]),
            ("configmaps", "settings"): (["NAME", "DATA", "AGE"], ["settings", "2"]),
            ("secrets", "token"): (["NAME", "TYPE", "DATA", "AGE"], ["token", "Opaque", "1"]),
        }
        for (resource, name), (header, cells) in expected.items():
            table = columns(self.k("get", resource, name).stdout)
            self.assertEqual(table[0], header, resource)
            self.assertEqual(table[1][:len(cells)], cells, resource)
        service = columns(self.k("get", "service", "front").stdout)
        self.assertEqual(service[0], ["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"])
        self.assertEqual((service[1][1], service[1][3], service[1][4]), ("ClusterIP", "<none>", "80/TCP"))
        wide = columns(self.k("get", "deployments", "-o", "wide").stdout)
        self.assertEqual(wide[0], ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"])
        self.assertEqual(wide[1][5:], ["nginx", "nginx:1", "app=web"])
        namespaces = columns(self.k("get", "namespaces").stdout)
        self.assertEqual(namespaces[0], ["NAME", "STATUS", "AGE"])
        self.assertIn(["default", "Active"], [row[:2] for row in namespaces[1:]])

    def test_pods_show_ready_status_and_restarts(self):
        self.k("run", "p1", "--image=nginx")
        table = columns(self.k("get", "pods").stdout)
        self.assertEqual(table[0], ["NAME", "READY", "STATUS", "RESTARTS", "AGE"])
        self.assertEqual(table[1][:4], ["p1", "0/1", "Pending", "0"])

    def test_watch_prints_one_header_then_rows(self):
        self.k("create", "configmap", "first", "--from-literal=a=1")
        watch = self.start_kubectl("get", "configmaps", "-w")
        try:
            reader = LineReader(watch)
            seen = reader.until("first")
            self.k("create", "configmap", "second", "--from-literal=a=1", "--from-literal=b=2")
            seen += reader.until("second")
            self.k("label", "configmap", "first", "x=y")
            seen += reader.until("first")
        finally:
            watch.terminate()
            watch.wait()
        rows = [re.split(r"\s{2,}", line.strip()) for line in seen]
        self.assertEqual([row[0] for row in rows], ["NAME", "first", "second", "first"])
        self.assertEqual(rows[2][1], "2")

    def test_a_custom_resource_shows_its_printer_columns(self):
        self.k("apply", "-f", self.write(WIDGETS))
        self.k("apply", "-f", self.write(
            "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: default}\n"
            "spec: {size: 3, color: red}\n"))
        table = columns(self.k("get", "gadgets").stdout)
        self.assertEqual(table, [["NAME", "SIZE"], ["g", "3"]])  # no AGE: the CRD lists its own columns
        wide = columns(self.k("get", "gadgets", "-o", "wide").stdout)
        self.assertEqual(wide, [["NAME", "SIZE", "COLOR"], ["g", "3", "red"]])
        crds = columns(self.k("get", "crd").stdout)
        self.assertEqual(crds[0], ["NAME", "CREATED AT"])


if __name__ == "__main__":
    unittest.main()
