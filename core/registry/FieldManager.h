// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "fields/FieldSchema.h"
#include "model/Object.h"
#include "model/Result.h"

namespace rvscope::registry {

struct ResourceType;

// The apiserver's field manager for one endpoint of a type (the resource, or a subresource
// such as /status): keeps metadata.managedFields on every write (shared/reference/
// server-side-apply.md). Called by Store inside the compare-and-swap loop, on the object that
// is about to be stored.
class FieldManager final {
public:
    FieldManager(const ResourceType &type, std::string subresource);

    // A create (`before` null) or an update from `before` to `after`, by `manager` at `now`:
    // records it in after's managedFields. What the client sent there (on the main resource)
    // counts as in the apiserver: valid entries replace the stored ones, `[]` or `[{}]` reset
    // them, anything else is ignored.
    void recordUpdate(const model::Object *before, model::Object &after, const std::string &manager,
                      const std::string &now) const;
    // A server-side apply of `config` to `live` (null: create): the merged object with its
    // managedFields, 409 with one cause per field another manager owns (unless `force`), or
    // 400 for a configuration the apiserver refuses.
    model::Result<model::Object> apply(const model::Object *live, const nlohmann::json &config,
                                       const std::string &manager, bool force, const std::string &now) const;

private:
    fields::FieldSchema m_schema;
    std::string m_apiVersion;
    std::string m_subresource;
};

// The manager name of a write without ?fieldManager=: the User-Agent up to its first '/',
// printable characters only, at most 128 bytes; "unknown" when that leaves nothing.
std::string managerFromUserAgent(const std::string &userAgent);

// How structured-merge-diff's error for an apply configuration it cannot type begins:
// "failed to create typed patch object (<namespace>/<name>; <group>/<version>, Kind=<kind>): "
// (schema.GroupVersionKind.String(): "/v1, Kind=ConfigMap" for the core group).
std::string typedPatchObjectFailure(const nlohmann::json &config);

} // namespace rvscope::registry
