// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/GroupVersion.h"
#include "model/Result.h"
#include "model/Status.h"
#include "registry/ListOptions.h"

// What bulk get operations and bulk watch requests select, as both parse it from JSON:
// {"resource":{"group":"","version":"v1","resource":"secrets"},
//  "options":{"namespace":"default","labelSelector":"...","fieldSelector":"...",
//             "resourceVersion":"...","resourceVersionMatch":"...","allowWatchBookmarks":true}}
namespace rvscope::bulk {

// Decides whether `user` may `verb` ("list" for bulk get, "watch" for a bulk channel) the
// objects a selector names: nullopt allows, a Status (normally 403) denies. `name` is the
// object a `metadata.name=` field selector names, empty for a collection. The default (an
// empty function) allows everything.
using Authorizer = std::function<std::optional<model::Status>(
    const std::string &user, const std::string &verb, const std::string &group, const std::string &resource,
    const std::string &namespaceName, const std::string &name)>;

// Coroutine parameter struct: declares a constructor (see StorageTypes.h).
struct ResourceSelector final {
    ResourceSelector() = default;
    model::GroupVersionResource resource;
    std::string namespaceName; // empty: every namespace (or a cluster-scoped type)
    registry::ListOptions options;

    // The object a "metadata.name=<n>" (or "==") term of the field selector names, else "".
    std::string objectName() const;
};

// Parses a selector; anything malformed (missing resource/version, wrong JSON types) is a
// 400 BadRequest Status whose message starts with `where` ("operations[2]", "watch").
model::Result<ResourceSelector> parseResourceSelector(const nlohmann::json &json, const std::string &where);

// Calls `authorize` (allowing when it is empty).
std::optional<model::Status> authorizeSelector(const Authorizer &authorize, const std::string &user,
                                               const std::string &verb, const ResourceSelector &selector);

} // namespace rvscope::bulk
