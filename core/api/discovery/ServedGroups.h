// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/GroupVersion.h"
#include "registry/ResourceType.h"

namespace rvscope::api {

using ResourceTypeList = std::vector<std::shared_ptr<const registry::ResourceType>>;

// What the served resource types add up to, as discovery and OpenAPI present it. Shared by
// the plain and aggregated discovery documents and the OpenAPI v3 documents so that they
// always agree. Pure functions; any thread.

struct ServedVersion final {
    std::string version;
    ResourceTypeList types; // sorted by resource name
};

struct ServedGroup final {
    std::string name;                    // "" for the legacy core group
    bool custom = false;                 // every type of the group comes from a CustomResourceDefinition
    std::vector<ServedVersion> versions; // preference order: the first one is preferred
};

// A subresource endpoint of a type: "status" (same kind as its parent) or "scale"
// (autoscaling/v1 Scale).
struct ServedSubresource final {
    std::string name;
    model::GroupVersionKind kind;
    std::vector<std::string> verbs;
};

// Every group of `types`: the core group first, then the built-in groups in the upstream
// apiserver's priority order, then custom groups by name (kubectl resolves a short name that
// two groups share in this order, so built-ins win over CRDs as upstream).
std::vector<ServedGroup> servedGroups(const ResourceTypeList &types);

// Kubernetes' version priority (k8s.io/apimachinery version.CompareKubeAwareVersionStrings):
// GA before beta before alpha, higher numbers first, then names that do not look like
// Kubernetes versions, alphabetically. Negative when `a` is preferred over `b`.
int compareKubeAwareVersions(const std::string &a, const std::string &b);

// The verbs rvscope serves on the type's main resource, sorted.
std::vector<std::string> resourceVerbs(const registry::ResourceType &type);

// The type's subresources in name order ("scale" before "status").
std::vector<ServedSubresource> servedSubresources(const registry::ResourceType &type);

// The type's own group/version/kind.
model::GroupVersionKind groupVersionKind(const registry::ResourceType &type);

} // namespace rvscope::api
