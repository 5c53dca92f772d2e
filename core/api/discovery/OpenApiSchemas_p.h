// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/GroupVersion.h"

// Building blocks of the OpenAPI v3 documents (OpenApi.cpp): schema names and the
// permissive component schemas. Private to core/api/discovery.
namespace rvscope::api::openapi {

inline constexpr const char *OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
inline constexpr const char *LIST_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
inline constexpr const char *STATUS = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
inline constexpr const char *PATCH = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
inline constexpr const char *DELETE_OPTIONS = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";

// Upstream's definition names: "io.k8s.api.core.v1.ConfigMap", "io.k8s.api.apps.v1.Deployment",
// "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition", and
// for custom resources the reversed group: "com.example.stable.v1.CronTab".
std::string schemaName(const model::GroupVersionKind &kind, bool custom);

// {"$ref":"#/components/schemas/<name>"}
nlohmann::json schemaRef(const std::string &name);

// An object of `kind`: apiVersion, kind, metadata (ObjectMeta) described, every other field
// accepted (x-kubernetes-preserve-unknown-fields), tagged with its group/version/kind.
nlohmann::json kindSchema(const model::GroupVersionKind &kind);

// A list of `itemSchema` objects of list kind `listKind` ("ConfigMapList").
nlohmann::json listSchema(const model::GroupVersionKind &listKind, const std::string &itemSchema);

// ObjectMeta, ListMeta, Status, Patch and DeleteOptions, which every document refers to.
void addMetaSchemas(nlohmann::json &schemas);

// The "CoreV1" / "AppsV1" / "StableExampleComV1" part of upstream operation ids.
std::string operationGroupVersion(const std::string &group, const std::string &version);

} // namespace rvscope::api::openapi
