// SPDX-License-Identifier: MIT
#include "api/RequestScope.h"

#include "api/QueryOptions.h"
#include "registry/Registry.h"

namespace rvscope::api {

RequestScope resolveScope(const ApiRequest &request, const registry::Registry &registry)
{
    RequestScope scope;
    scope.route = resolveRoute(request.path, registry);
    if (!scope.isResource())
        return scope;
    const Route &route = scope.route;
    const bool collection = route.kind == Route::Kind::Collection;
    const bool subresource = !route.subresource.empty();
    if (!collection)
        scope.target = route.entry->objectStore(route.subresource);
    const std::string &method = request.method;
    if (method == "GET" || method == "HEAD") {
        // A malformed watch parameter is not a watch here; the list handler answers 400 for
        // it, as upstream's RequestInfo and ListOptions decoding do. A subresource is read,
        // never watched.
        const auto watching = isWatchRequest(request);
        const bool watch = watching && *watching && !subresource;
        scope.verb = watch ? Verb::Watch : collection ? Verb::List : Verb::Get;
        scope.verbName = watch ? "watch" : collection ? "list" : "get";
        if (method == "HEAD")
            scope.verb = Verb::Unsupported;
    } else if (method == "POST") {
        scope.verb = collection ? Verb::Create : Verb::Unsupported;
        scope.verbName = "create";
    } else if (method == "PUT") {
        scope.verb = collection ? Verb::Unsupported : Verb::Update;
        scope.verbName = "update";
    } else if (method == "PATCH") {
        scope.verb = collection ? Verb::Unsupported : Verb::Patch;
        scope.verbName = "patch";
    } else if (method == "DELETE") {
        scope.verb = collection ? Verb::DeleteCollection : subresource ? Verb::Unsupported : Verb::Delete;
        scope.verbName = collection ? "deletecollection" : "delete";
    } else {
        scope.verb = Verb::Unsupported;
        scope.verbName = method;
    }
    return scope;
}

} // namespace rvscope::api
