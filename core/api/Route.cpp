// SPDX-License-Identifier: MIT
#include "api/Route.h"

#include <vector>

#include "registry/Registry.h"

namespace rvscope::api {
namespace {
std::vector<std::string> segmentsOf(const std::string &path)
{
    std::vector<std::string> segments;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = path.find('/', start);
        const std::size_t stop = end == std::string::npos ? path.size() : end;
        if (stop > start)
            segments.push_back(path.substr(start, stop - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return segments;
}

Route resourceRoute(Route route, const std::vector<std::string> &rest, const registry::Registry &registry)
{
    auto served = [&](const std::string &resource) {
        return registry.find(route.group, route.version, resource) != nullptr;
    };
    // /namespaces/<ns>/<resource>... names a namespaced resource; /namespaces/<name>/status
    // names the namespace's own subresource.
    bool namespacedPath = false;
    if (rest.size() >= 3 && rest[0] == "namespaces") {
        const auto *entry = registry.find(route.group, route.version, rest[2]);
        namespacedPath = entry && entry->type->namespaced();
    }
    if (namespacedPath) {
        route.namespaceName = rest[1];
        route.resource = rest[2];
        if (rest.size() == 3)
            route.kind = Route::Kind::Collection;
        else if (rest.size() <= 5) {
            route.kind = Route::Kind::Item;
            route.name = rest[3];
            if (rest.size() == 5)
                route.subresource = rest[4];
        }
    } else if (!rest.empty() && rest.size() <= 3) {
        route.resource = rest[0];
        route.kind = rest.size() == 1 ? Route::Kind::Collection : Route::Kind::Item;
        if (rest.size() >= 2)
            route.name = rest[1];
        if (rest.size() == 3)
            route.subresource = rest[2];
    }
    if (route.kind != Route::Kind::NotFound && !served(route.resource))
        route.kind = Route::Kind::NotFound;
    return route;
}
} // namespace

Route resolveRoute(const std::string &path, const registry::Registry &registry)
{
    const std::vector<std::string> s = segmentsOf(path);
    Route route;
    if (s.empty())
        return route;
    if (s.size() == 1 && s[0] == "version") {
        route.kind = Route::Kind::Version;
    } else if (s[0] == "healthz" || s[0] == "livez" || s[0] == "readyz") {
        route.kind = Route::Kind::Health;
    } else if (s[0] == "openapi" && s.size() >= 2 && s[1] == "v3") {
        if (s.size() == 2) {
            route.kind = Route::Kind::OpenApiIndex;
        } else {
            route.kind = Route::Kind::OpenApiDoc;
            for (std::size_t i = 2; i < s.size(); ++i)
                route.openApiKey += (i > 2 ? "/" : "") + s[i];
        }
    } else if (s[0] == "api") {
        if (s.size() == 1) {
            route.kind = Route::Kind::CoreVersions;
        } else {
            route.version = s[1];
            if (s.size() == 2)
                route.kind = Route::Kind::Resources;
            else
                return resourceRoute(route, std::vector<std::string>(s.begin() + 2, s.end()), registry);
        }
    } else if (s[0] == "apis") {
        if (s.size() == 1) {
            route.kind = Route::Kind::Groups;
        } else {
            route.group = s[1];
            if (s.size() == 2) {
                route.kind = Route::Kind::Group;
            } else {
                route.version = s[2];
                if (s.size() == 3)
                    route.kind = Route::Kind::Resources;
                else if (s.size() == 4 && route.group == "bulk.k8s.io" && s[3] == "bulkgetoperations")
                    route.kind = Route::Kind::BulkGet;
                else
                    return resourceRoute(route, std::vector<std::string>(s.begin() + 3, s.end()), registry);
            }
        }
    }
    return route;
}

} // namespace rvscope::api
