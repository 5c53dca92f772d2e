// SPDX-License-Identifier: MIT
#include "api/discovery/ServedGroups.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

namespace rvscope::api {
namespace {

// The kube-apiserver's group priorities (kube-aggregator apiVersionPriorities), highest
// first. Groups rvscope does not serve cost nothing here and keep the order right when a
// built-in group is added.
constexpr std::array<std::string_view, 20> BUILTIN_GROUP_ORDER = {
    "apiregistration.k8s.io",
    "apps",
    "events.k8s.io",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "networking.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "storage.k8s.io",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "scheduling.k8s.io",
    "coordination.k8s.io",
    "node.k8s.io",
    "discovery.k8s.io",
    "flowcontrol.apiserver.k8s.io",
    "resource.k8s.io",
};

struct KubeVersion {
    long major = 0;
    int stability = 0; // 2 GA, 1 beta, 0 alpha
    long minor = 0;
};

std::optional<long> digits(std::string_view text)
{
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    long value = 0;
    for (char c : text)
        value = value * 10 + (c - '0');
    return value;
}

// "v1" -> {1, GA}, "v2beta3" -> {2, beta, 3}; nullopt for anything else.
std::optional<KubeVersion> parseKubeVersion(std::string_view text)
{
    if (text.size() < 2 || text.front() != 'v')
        return std::nullopt;
    text.remove_prefix(1);
    const std::size_t end = text.find_first_not_of("0123456789");
    const auto major = digits(text.substr(0, end));
    if (!major || *major == 0)
        return std::nullopt;
    if (end == std::string_view::npos)
        return KubeVersion{*major, 2, 0};
    std::string_view rest = text.substr(end);
    int stability = 0;
    if (rest.starts_with("beta"))
        stability = 1;
    else if (!rest.starts_with("alpha"))
        return std::nullopt;
    rest.remove_prefix(stability == 1 ? 4 : 5);
    const auto minor = digits(rest);
    if (!minor)
        return std::nullopt;
    return KubeVersion{*major, stability, *minor};
}

int groupRank(const std::string &group)
{
    const auto found = std::find(BUILTIN_GROUP_ORDER.begin(), BUILTIN_GROUP_ORDER.end(), group);
    return static_cast<int>(found - BUILTIN_GROUP_ORDER.begin());
}

// Core first, built-ins by priority (unknown built-ins after the known ones), custom last.
bool groupBefore(const ServedGroup &a, const ServedGroup &b)
{
    const auto key = [](const ServedGroup &group) {
        return std::make_tuple(!group.name.empty(), group.custom, group.custom ? 0 : groupRank(group.name));
    };
    if (key(a) != key(b))
        return key(a) < key(b);
    return a.name < b.name;
}

} // namespace

int compareKubeAwareVersions(const std::string &a, const std::string &b)
{
    const auto left = parseKubeVersion(a);
    const auto right = parseKubeVersion(b);
    if (left && right) {
        if (left->stability != right->stability)
            return left->stability > right->stability ? -1 : 1;
        if (left->major != right->major)
            return left->major > right->major ? -1 : 1;
        if (left->minor != right->minor)
            return left->minor > right->minor ? -1 : 1;
        return 0;
    }
    if (left || right)
        return left ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

std::vector<ServedGroup> servedGroups(const ResourceTypeList &types)
{
    std::map<std::string, std::map<std::string, ResourceTypeList>> byGroup;
    std::map<std::string, bool> allCustom;
    for (const auto &type : types) {
        if (!type)
            continue;
        byGroup[type->gvr.group][type->gvr.version].push_back(type);
        auto [it, inserted] = allCustom.try_emplace(type->gvr.group, type->custom);
        if (!inserted)
            it->second = it->second && type->custom;
    }
    std::vector<ServedGroup> groups;
    for (auto &[name, versions] : byGroup) {
        ServedGroup group{name, allCustom[name], {}};
        for (auto &[version, list] : versions) {
            std::sort(list.begin(), list.end(),
                      [](const auto &a, const auto &b) { return a->gvr.resource < b->gvr.resource; });
            group.versions.push_back({version, std::move(list)});
        }
        std::sort(group.versions.begin(), group.versions.end(),
                  [](const auto &a, const auto &b) { return compareKubeAwareVersions(a.version, b.version) < 0; });
        groups.push_back(std::move(group));
    }
    std::sort(groups.begin(), groups.end(), groupBefore);
    return groups;
}

std::vector<std::string> resourceVerbs(const registry::ResourceType &type)
{
    // Upstream's namespace REST storage has no DeleteCollection (deleting every namespace at
    // once is not offered), and rvscope follows it.
    if (type.gvr.group.empty() && type.gvr.resource == "namespaces")
        return {"create", "delete", "get", "list", "patch", "update", "watch"};
    return {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
}

std::vector<ServedSubresource> servedSubresources(const registry::ResourceType &type)
{
    std::vector<ServedSubresource> result;
    const std::vector<std::string> verbs = {"get", "patch", "update"};
    if (type.hasScale)
        result.push_back({"scale", {"autoscaling", "v1", "Scale"}, verbs});
    if (type.hasStatus)
        result.push_back({"status", groupVersionKind(type), verbs});
    return result;
}

model::GroupVersionKind groupVersionKind(const registry::ResourceType &type)
{
    return {type.gvr.group, type.gvr.version, type.kind};
}

} // namespace rvscope::api
