// SPDX-License-Identifier: MIT
#include "api/Route.h"

#include <span>
#include <string_view>
#include <vector>

#include "registry/Registry.h"

namespace rvscope::api {
namespace {
// The path's non-empty segments, as views into it (no copies: every request is routed).
using Segments = std::vector<std::string_view>;

Segments segmentsOf(std::string_view path)
{
    Segments segments;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = path.find('/', start);
        const std::size_t stop = end == std::string_view::npos ? path.size() : end;
        if (stop > start)
            segments.push_back(path.substr(start, stop - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return segments;
}

// `rest`: the segments after the group and version.
Route resourceRoute(Route route, std::span<const std::string_view> rest, const registry::Registry &registry)
{
    // /namespaces/<ns>/<resource>... names a namespaced resource; /namespaces/<name>/status
    // names the namespace's own subresource.
    std::shared_ptr<const registry::Registry::Entry> entry;
    bool namespacedPath = false;
    if (rest.size() >= 3 && rest[0] == "namespaces") {
        entry = registry.find(route.group, route.version, rest[2]);
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
        entry = registry.find(route.group, route.version, route.resource);
    }
    if (route.kind != Route::Kind::NotFound && !entry)
        route.kind = Route::Kind::NotFound;
    route.entry = std::move(entry);
    return route;
}
} // namespace

Route resolveRoute(const std::string &path, const registry::Registry &registry)
{
    const Segments s = segmentsOf(path);
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
            for (std::size_t i = 2; i < s.size(); ++i) {
                if (i > 2)
                    route.openApiKey += '/';
                route.openApiKey += s[i];
            }
        }
    } else if (s[0] == "rvscope" && s.size() >= 3 && s.size() <= 4 && s[1] == "v1" && s[2] == "faults") {
        route.kind = Route::Kind::Faults;
        if (s.size() == 4)
            route.name = s[3];
    } else if (s[0] == "api") {
        if (s.size() == 1) {
            route.kind = Route::Kind::CoreVersions;
        } else {
            route.version = s[1];
            if (s.size() == 2)
                route.kind = Route::Kind::Resources;
            else
                return resourceRoute(std::move(route), std::span(s).subspan(2), registry);
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
                    return resourceRoute(std::move(route), std::span(s).subspan(3), registry);
            }
        }
    }
    return route;
}

} // namespace rvscope::api
