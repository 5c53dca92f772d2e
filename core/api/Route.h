// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "registry/Registry.h"

namespace rvscope::api {

// What a request path names. Paths may end in '/', which is ignored (the Python client
// asks for "/api/v1/").
struct Route final {
    enum class Kind {
        Version,       // /version
        Health,        // /healthz, /livez, /readyz (and their sub-checks)
        CoreVersions,  // /api
        Groups,        // /apis
        Group,         // /apis/<group>
        Resources,     // /api/v1, /apis/<group>/<version>
        OpenApiIndex,  // /openapi/v3
        OpenApiDoc,    // /openapi/v3/<api/v1 | apis/g/v>
        Collection,    // [/namespaces/<ns>]/<resource>
        Item,          // [/namespaces/<ns>]/<resource>/<name>[/<subresource>]
        BulkGet,       // /apis/bulk.k8s.io/v1/bulkgetoperations (reserved for bulk watch)
        Faults,        // /rvscope/v1/faults[/<id>] (rvscope's own: fault injection; `name` is the id)
        NotFound,
    };
    Kind kind = Kind::NotFound;
    std::string group;
    std::string version;
    std::string resource;
    std::string namespaceName; // empty: cluster scope or all namespaces
    std::string name;
    std::string subresource;
    std::string openApiKey; // "api/v1" or "apis/apps/v1"
    // The served type a Collection or Item names (never null for those), held for the
    // request's whole run.
    std::shared_ptr<const registry::Registry::Entry> entry;
};

// Resolves `path` against the types the registry serves (a segment after
// /namespaces/<ns>/ is a resource when one is served under that name, otherwise a
// subresource of the namespace, as upstream resolves it).
Route resolveRoute(const std::string &path, const registry::Registry &registry);

} // namespace rvscope::api
