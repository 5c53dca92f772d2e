// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/GroupVersion.h"
#include "model/Object.h"
#include "model/Status.h"
#include "registry/Strategy.h"
#include "registry/validation/KnownFields.h"

namespace rvscope::storage {
class Storage;
}

namespace rvscope::registry {

// The revision series of every type not configured apart (Registry::Options::separateStorage).
inline constexpr const char *MAIN_SERIES = "main";

// A version served apart from the version its objects are stored in (autoscaling/v1
// HorizontalPodAutoscalers are stored as autoscaling/v2): the apiserver's conversion between
// a request's version and the storage version. Both functions rewrite the object's shape in
// place and leave apiVersion to the caller.
struct VersionConversion final {
    std::string storageApiVersion; // "autoscaling/v2"
    void (*toStorage)(nlohmann::json &object) = nullptr;
    void (*fromStorage)(nlohmann::json &object) = nullptr;
};

// Everything the registry, discovery and the API layer need to know about one served
// resource: its names, its strategies, where it is stored.
struct ResourceType final {
    model::GroupVersionResource gvr; // {"apps","v1","deployments"}
    std::string kind;                // "Deployment"
    std::string listKind;            // "DeploymentList"
    std::string singularName;        // "deployment"
    std::vector<std::string> shortNames;
    std::vector<std::string> categories;
    // Storage key prefix without trailing slash: "/registry/deployments".
    std::string storagePrefix;
    // The revision series this type's resourceVersions belong to (separate storages have
    // separate series; see DESIGN "Storage contract").
    std::string revisionSeries = MAIN_SERIES;
    bool hasStatus = false;
    bool hasScale = false;
    bool custom = false; // defined by a CustomResourceDefinition
    nlohmann::json openApiSchema; // custom resources: the version's openAPIV3Schema (null: none)
    std::shared_ptr<const KnownFields> customFields; // custom resources: what openApiSchema declares
    nlohmann::json printerColumns; // custom resources: the version's additionalPrinterColumns
    // Set when objects are stored in another version than the one served (null: the same).
    std::shared_ptr<const VersionConversion> conversion;
    std::shared_ptr<const Strategy> strategy;
    std::shared_ptr<const Strategy> statusStrategy; // when hasStatus
    std::shared_ptr<storage::Storage> storage;

    bool namespaced() const { return strategy->namespaced(); }
    model::GroupResource groupResource() const { return gvr.groupResource(); }
    std::string apiVersion() const { return gvr.apiVersion(); }
    // The apiVersion its stored objects carry, and which its strategy and managedFields see.
    std::string storageApiVersion() const { return conversion ? conversion->storageApiVersion : apiVersion(); }
    // A stored object as this version serves it (the same pointer without a conversion).
    std::shared_ptr<const model::Object> served(std::shared_ptr<const model::Object> stored) const;
    // A served-version object in the storage version, apiVersion included.
    void toStorage(model::Object &object) const;
    // "<prefix>/<ns>/<name>", "<prefix>/<name>" for cluster-scoped types.
    std::string key(const std::string &ns, const std::string &name) const;
    // The prefix holding every object of `ns` (or all namespaces when empty), with a
    // trailing slash.
    std::string prefix(const std::string &ns) const;
    // "ConfigMap" for the core group, "Deployment.apps" otherwise: the apiserver's
    // qualified kind in 422 messages.
    std::string qualifiedKind() const;
};

// Why `name` cannot name an object in a storage key, as the apiserver's key functions
// (NamespaceKeyFunc, NoNamespaceKeyFunc) refuse it before storage sees it: 400 `Name
// parameter invalid: "..": may not be '..'` for '.', '..' and names containing '/' or '%'
// (path.IsValidPathSegmentName). Nullopt for a usable name.
std::optional<model::Status> invalidKeyName(const std::string &name);

} // namespace rvscope::registry
