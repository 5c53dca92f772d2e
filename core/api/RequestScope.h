// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "api/ApiTypes.h"
#include "api/Route.h"

namespace rvscope::registry {
class ObjectStore;
}

namespace rvscope::api {

// What a resource request does, as the handler dispatches it: one handler per verb.
enum class Verb {
    None,             // not a resource request (discovery, OpenAPI, health, bulk get)
    Get,              // GET of one object or subresource
    List,             // GET of a collection
    Watch,            // GET of a collection (or legacy: of one object) with watch=true
    Create,           // POST to a collection
    Update,           // PUT of one object or subresource
    Patch,            // PATCH of one object or subresource
    Delete,           // DELETE of one object
    DeleteCollection, // DELETE of a collection
    Unsupported,      // any other method, or a verb the path does not serve (405)
};

// The apiserver's RequestInfo and RequestScope in one: what a request addresses and does,
// resolved once from its method, path and query, then carried through authentication,
// authorization, the verb's handler and the operation journal.
struct RequestScope final {
    Route route;
    Verb verb = Verb::None;
    // The authorizer's and the journal's verb: "get", "list", "watch", "create", "update",
    // "patch", "delete", "deletecollection" ("get"/"list" for HEAD, as upstream's
    // RequestInfo), or the method itself when it is none of these.
    std::string verbName;
    // For one object: what get, update and patch address (the resource's store, /status or
    // /scale); null for a collection, or a subresource the type does not have.
    std::shared_ptr<registry::ObjectStore> target;

    bool isResource() const { return route.kind == Route::Kind::Collection || route.kind == Route::Kind::Item; }
};

RequestScope resolveScope(const ApiRequest &request, const registry::Registry &registry);

} // namespace rvscope::api
