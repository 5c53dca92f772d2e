// SPDX-License-Identifier: MIT
// Aggregated discovery (apidiscovery.k8s.io/v2) and the Accept negotiation that selects it.
#include <string>
#include <vector>

#include "api/discovery/Discovery.h"
#include "api/MediaRange.h"

namespace rvscope::api {
namespace {

nlohmann::json kindJson(const model::GroupVersionKind &kind)
{
    // Upstream writes "group" even when it is the empty core group (no omitempty).
    return {{"group", kind.group}, {"version", kind.version}, {"kind", kind.kind}};
}

nlohmann::json resourceDiscovery(const registry::ResourceType &type)
{
    nlohmann::json json = {
        {"resource", type.gvr.resource},
        {"responseKind", kindJson(groupVersionKind(type))},
        {"scope", type.namespaced() ? "Namespaced" : "Cluster"},
        {"singularResource", type.singularName},
        {"verbs", resourceVerbs(type)},
    };
    if (!type.shortNames.empty())
        json["shortNames"] = type.shortNames;
    if (!type.categories.empty())
        json["categories"] = type.categories;
    nlohmann::json subresources = nlohmann::json::array();
    for (const ServedSubresource &sub : servedSubresources(type))
        subresources.push_back({{"subresource", sub.name}, {"responseKind", kindJson(sub.kind)}, {"verbs", sub.verbs}});
    if (!subresources.empty())
        json["subresources"] = std::move(subresources);
    return json;
}

nlohmann::json groupDiscovery(const ServedGroup &group)
{
    nlohmann::json versions = nlohmann::json::array();
    for (const ServedVersion &version : group.versions) {
        nlohmann::json resources = nlohmann::json::array();
        for (const auto &type : version.types)
            resources.push_back(resourceDiscovery(*type));
        versions.push_back(
            {{"version", version.version}, {"resources", std::move(resources)}, {"freshness", "Current"}});
    }
    // The core group has no name (upstream leaves metadata.name empty and omits it).
    nlohmann::json metadata = nlohmann::json::object();
    if (!group.name.empty())
        metadata["name"] = group.name;
    return {{"metadata", std::move(metadata)}, {"versions", std::move(versions)}};
}

bool isAggregatedV2(const MediaRange &range)
{
    return range.type == "application/json" && range.param("g") == "apidiscovery.k8s.io" && range.param("v") == "v2"
        && range.param("as") == "APIGroupDiscoveryList";
}

} // namespace

nlohmann::json aggregatedDiscovery(const ResourceTypeList &types, bool legacyCore)
{
    nlohmann::json items = nlohmann::json::array();
    for (const ServedGroup &group : servedGroups(types)) {
        if (group.name.empty() == legacyCore)
            items.push_back(groupDiscovery(group));
    }
    return {
        {"kind", "APIGroupDiscoveryList"},
        {"apiVersion", "apidiscovery.k8s.io/v2"},
        {"metadata", nlohmann::json::object()},
        {"items", std::move(items)},
    };
}

bool wantsAggregatedDiscovery(std::string_view acceptHeader)
{
    for (const MediaRange &range : parseAccept(acceptHeader)) {
        if (isAggregatedV2(range))
            return true;
        if (range.acceptsPlainJson())
            return false;
    }
    return false;
}

} // namespace rvscope::api
