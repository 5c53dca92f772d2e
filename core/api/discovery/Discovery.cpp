// SPDX-License-Identifier: MIT
// Plain discovery (APIVersions, APIGroupList, APIGroup, APIResourceList) and /version.
// Aggregated discovery is in AggregatedDiscovery.cpp.
#include "api/discovery/Discovery.h"

#include <algorithm>

#include <QByteArray>
#include <QCryptographicHash>

namespace rvscope::api {
namespace {

nlohmann::json groupVersionEntry(const std::string &group, const std::string &version)
{
    return {{"groupVersion", group.empty() ? version : group + '/' + version}, {"version", version}};
}

nlohmann::json groupJson(const ServedGroup &group)
{
    nlohmann::json versions = nlohmann::json::array();
    for (const ServedVersion &version : group.versions)
        versions.push_back(groupVersionEntry(group.name, version.version));
    nlohmann::json json = {{"name", group.name}, {"versions", std::move(versions)}};
    if (!group.versions.empty())
        json["preferredVersion"] = groupVersionEntry(group.name, group.versions.front().version);
    return json;
}

nlohmann::json mainResource(const registry::ResourceType &type)
{
    nlohmann::json json = {
        {"name", type.gvr.resource},
        {"singularName", type.singularName},
        {"namespaced", type.namespaced()},
        {"kind", type.kind},
        {"verbs", resourceVerbs(type)},
        {"storageVersionHash", storageVersionHash(type)},
    };
    // Omitted when empty, as upstream does (omitempty).
    if (!type.shortNames.empty())
        json["shortNames"] = type.shortNames;
    if (!type.categories.empty())
        json["categories"] = type.categories;
    return json;
}

nlohmann::json subresource(const registry::ResourceType &type, const ServedSubresource &sub)
{
    // singularName is required by the python client even though upstream leaves it empty
    // for subresources.
    nlohmann::json json = {
        {"name", type.gvr.resource + '/' + sub.name},
        {"singularName", ""},
        {"namespaced", type.namespaced()},
        {"kind", sub.kind.kind},
        {"verbs", sub.verbs},
    };
    // A subresource answering another group's kind says so (deployments/scale is an
    // autoscaling/v1 Scale); kubectl scale relies on it.
    if (sub.kind.group != type.gvr.group || sub.kind.version != type.gvr.version) {
        json["group"] = sub.kind.group;
        json["version"] = sub.kind.version;
    }
    return json;
}

const ServedGroup *findGroup(const std::vector<ServedGroup> &groups, const std::string &name)
{
    const auto found = std::find_if(groups.begin(), groups.end(), [&](const ServedGroup &g) { return g.name == name; });
    return found == groups.end() ? nullptr : &*found;
}

// GOOS/GOARCH spelling of the platform this server runs on.
#if defined(__linux__)
constexpr const char *OS_NAME = "linux";
#elif defined(__APPLE__)
constexpr const char *OS_NAME = "darwin";
#elif defined(_WIN32)
constexpr const char *OS_NAME = "windows";
#else
constexpr const char *OS_NAME = "unknown";
#endif
#if defined(__x86_64__) || defined(_M_X64)
constexpr const char *ARCH_NAME = "amd64";
#elif defined(__aarch64__) || defined(_M_ARM64)
constexpr const char *ARCH_NAME = "arm64";
#else
constexpr const char *ARCH_NAME = "unknown";
#endif

} // namespace

nlohmann::json apiVersions(const std::string &serverAddress)
{
    // Upstream's APIVersions carries no apiVersion; serverAddressByClientCIDRs is required by
    // the python client.
    return {
        {"kind", "APIVersions"},
        {"versions", {"v1"}},
        {"serverAddressByClientCIDRs", {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", serverAddress}}}},
    };
}

nlohmann::json apiGroupList(const ResourceTypeList &types)
{
    nlohmann::json groups = nlohmann::json::array();
    for (const ServedGroup &group : servedGroups(types)) {
        if (!group.name.empty())
            groups.push_back(groupJson(group));
    }
    return {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", std::move(groups)}};
}

std::optional<nlohmann::json> apiGroup(const ResourceTypeList &types, const std::string &group)
{
    if (group.empty())
        return std::nullopt;
    const std::vector<ServedGroup> groups = servedGroups(types);
    const ServedGroup *found = findGroup(groups, group);
    if (!found)
        return std::nullopt;
    nlohmann::json json = groupJson(*found);
    json["kind"] = "APIGroup";
    json["apiVersion"] = "v1";
    return json;
}

std::optional<nlohmann::json> apiResourceList(const ResourceTypeList &types, const std::string &group,
                                              const std::string &version)
{
    const std::vector<ServedGroup> groups = servedGroups(types);
    const ServedGroup *found = findGroup(groups, group);
    if (!found)
        return std::nullopt;
    const auto servedVersion = std::find_if(found->versions.begin(), found->versions.end(),
                                            [&](const ServedVersion &v) { return v.version == version; });
    if (servedVersion == found->versions.end())
        return std::nullopt;
    nlohmann::json resources = nlohmann::json::array();
    for (const auto &type : servedVersion->types) {
        resources.push_back(mainResource(*type));
        for (const ServedSubresource &sub : servedSubresources(*type))
            resources.push_back(subresource(*type, sub));
    }
    return nlohmann::json{
        {"kind", "APIResourceList"},
        {"apiVersion", "v1"},
        {"groupVersion", group.empty() ? version : group + '/' + version},
        {"resources", std::move(resources)},
    };
}

nlohmann::json versionInfo()
{
    // "+rvscope" is semver build metadata: it does not lower the version's precedence, so a
    // client comparing against v1.32.0 sees a 1.32.0 server (a "-rvscope" pre-release would
    // sort before v1.32.0). goVersion and compiler name the toolchain of the upstream release
    // this server mirrors; clients only display them.
    return {
        {"major", "1"},
        {"minor", "32"},
        {"gitVersion", "v1.32.0+rvscope"},
        {"gitCommit", "0000000000000000000000000000000000000000"},
        {"gitTreeState", "clean"},
        {"buildDate", "2024-12-11T00:00:00Z"},
        {"goVersion", "go1.23.4"},
        {"compiler", "gc"},
        {"platform", std::string(OS_NAME) + '/' + ARCH_NAME},
    };
}

std::string storageVersionHash(const registry::ResourceType &type)
{
    const std::string gvk = type.gvr.group + '/' + type.gvr.version + '/' + type.kind;
    const QByteArray digest = QCryptographicHash::hash(QByteArray::fromStdString(gvk), QCryptographicHash::Sha256);
    return digest.left(8).toBase64().toStdString();
}

} // namespace rvscope::api
