// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace rvscope::model {

// Resource identity in the apiserver's terms. The core group is the empty string.
struct GroupResource final {
    std::string group;
    std::string resource; // plural, lower case: "configmaps"

    // "configmaps" for the core group, "deployments.apps" otherwise: the <gr> of every
    // apiserver error message.
    std::string toString() const;
    auto operator<=>(const GroupResource &) const = default;
};

struct GroupVersionResource final {
    std::string group;
    std::string version;
    std::string resource;

    GroupResource groupResource() const { return {group, resource}; }
    std::string apiVersion() const; // "v1" or "apps/v1"
    auto operator<=>(const GroupVersionResource &) const = default;
};

struct GroupVersionKind final {
    std::string group;
    std::string version;
    std::string kind; // "ConfigMap"

    std::string apiVersion() const;
    auto operator<=>(const GroupVersionKind &) const = default;
};

// "apps/v1" -> {"apps","v1"}; "v1" -> {"","v1"}.
std::pair<std::string, std::string> splitApiVersion(const std::string &apiVersion);

} // namespace rvscope::model
