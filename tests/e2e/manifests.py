# SPDX-License-Identifier: MIT
"""Manifests more than one end-to-end suite applies."""

# A namespaced custom resource type with no schema to speak of (every field kept), but for
# one keyed list, spec.parts (x-kubernetes-list-type: map, keyed by name), which
# server-side apply merges item by item.
WIDGET_CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
            properties:
              parts:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                  properties:
                    name: {type: string}
"""
