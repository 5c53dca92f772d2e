// SPDX-License-Identifier: MIT
// Aggregated discovery (apidiscovery.k8s.io/v2) and the Accept negotiation that selects it.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "api/discovery/Discovery.h"

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

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::string lower(std::string_view text)
{
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return result;
}

struct MediaRange {
    std::string type;                          // lower case "application/json"
    std::map<std::string, std::string> params; // lower-case names; values unquoted
    double q = 1.0;
};

MediaRange parseMediaRange(std::string_view text)
{
    MediaRange range;
    std::size_t semicolon = text.find(';');
    range.type = lower(trim(text.substr(0, semicolon)));
    while (semicolon != std::string_view::npos) {
        text.remove_prefix(semicolon + 1);
        semicolon = text.find(';');
        const std::string_view param = text.substr(0, semicolon);
        const std::size_t equals = param.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string name = lower(trim(param.substr(0, equals)));
        std::string_view value = trim(param.substr(equals + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        if (name == "q") {
            // from_chars, not strtod: QCoreApplication sets the user's locale, whose decimal
            // separator may not be '.'. An unparsable weight counts as 0 (not acceptable).
            double q = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), q);
            range.q = error == std::errc() && end == value.data() + value.size() ? q : 0;
        } else {
            range.params[name] = std::string(value);
        }
    }
    return range;
}

bool isAggregatedV2(const MediaRange &range)
{
    const auto param = [&](const char *name) {
        const auto found = range.params.find(name);
        return found == range.params.end() ? std::string() : found->second;
    };
    return range.type == "application/json" && param("g") == "apidiscovery.k8s.io" && param("v") == "v2" &&
           param("as") == "APIGroupDiscoveryList";
}

bool acceptsPlainJson(const MediaRange &range)
{
    // A range naming another object (as=...) asks for something else, such as a v2beta1
    // APIGroupDiscoveryList this server does not produce.
    if (range.params.count("as") != 0 || range.params.count("g") != 0)
        return false;
    return range.type == "application/json" || range.type == "application/*" || range.type == "*/*";
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
    std::vector<MediaRange> ranges;
    while (!acceptHeader.empty()) {
        const std::size_t comma = acceptHeader.find(',');
        const std::string_view part = trim(acceptHeader.substr(0, comma));
        if (!part.empty())
            ranges.push_back(parseMediaRange(part));
        acceptHeader = comma == std::string_view::npos ? std::string_view() : acceptHeader.substr(comma + 1);
    }
    std::stable_sort(ranges.begin(), ranges.end(), [](const MediaRange &a, const MediaRange &b) { return a.q > b.q; });
    for (const MediaRange &range : ranges) {
        if (range.q <= 0)
            continue;
        if (isAggregatedV2(range))
            return true;
        if (acceptsPlainJson(range))
            return false;
    }
    return false;
}

} // namespace rvscope::api
