// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "auth/Attributes.h"
#include "model/Result.h"

namespace rvscope::auth {

// One rule of a policy file, as parsed. "*" stands alone as a wildcard in every list. The
// "absent in the file" defaults are filled in by Policy::parse; in a rule built in code an
// empty list matches nothing.
struct PolicyRule final {
    // Who: a user whose name is in `users`, or who is in one of `groups` ("*" in either list:
    // everyone, system:anonymous included). At least one of the two is non-empty.
    std::vector<std::string> users;
    std::vector<std::string> groups;
    std::vector<std::string> verbs;
    // Resource rules. Each entry is "<plural>" (core group), "<group>/<plural>", "<group>/*",
    // "*/<plural>" (that plural in any group, core included) or "*".
    struct Resource final {
        std::string group; // "*": any group
        std::string resource; // "*": any resource
        bool operator==(const Resource &) const = default;
    };
    std::vector<Resource> resources;
    // "" is the resource itself, "*" the resource and all its subresources. Absent in the
    // file: {""}.
    std::vector<std::string> subresources;
    // "" matches requests without a namespace (cluster-scoped resources and lists or watches
    // across all namespaces); "*" matches every namespace and "". Absent in the file: {"*"}.
    std::vector<std::string> namespaces;
    // Object names; an explicit list never matches a request without a name (a list or
    // watch not scoped to one object by applyFieldSelectorName). Absent in the file: {"*"}.
    std::vector<std::string> names;
    // Non-resource rules (instead of resources): URL paths, exact or, ending in '*', prefixes
    // ("/apis/*"; "*" is every path).
    std::vector<std::string> nonResourceURLs;

    bool matches(const Attributes &attributes) const;
};

// Authorization rules from a JSON policy file (--policy-file):
//
//   {"rules":[{"users":["alice"],"groups":["devs"],"verbs":["get","list","watch"],
//              "resources":["configmaps","apps/deployments"],"subresources":["","status"],
//              "namespaces":["default"],"names":["foo"]},
//             {"groups":["system:authenticated","system:unauthenticated"],"verbs":["get"],
//              "nonResourceURLs":["/api","/api/*","/apis","/apis/*","/version"]}]}
//
// A request is allowed when any rule matches it; there are no deny rules. A rule names
// resources or nonResourceURLs, never both. Verbs are get, list, watch, create, update,
// patch, delete, deletecollection for resource rules; get, head, post, put, patch, delete,
// options for non-resource rules; "*" for all.
//
// parse() is strict so that a typo never widens or silently narrows access: unknown keys,
// wrong JSON types, empty names, unknown verbs, '*' inside a longer word, resources that are
// not lower-case plurals ("ConfigMap") or have more than one '/', namespaces, names or
// subresources on a non-resource rule, and empty lists are 400 BadRequest errors whose
// message names the place, e.g. `policy rules[2].verbs[0]: unknown verb "gets"`.
//
// Immutable once built; authorize() may be called from any thread.
class Policy final {
public:
    // No rules: allows nothing.
    Policy() = default;

    // Every request, resource or not, by anyone (the apiserver's AlwaysAllow mode).
    static Policy allowAll();

    static model::Result<Policy> parse(std::string_view text);
    static model::Result<Policy> fromJson(const nlohmann::json &json);
    // parse() of the file at `path`; a file that cannot be read is a 400 naming it.
    static model::Result<Policy> load(const std::string &path);

    // Allow with reason "allowed by policy rules[<i>]" for the first matching rule, else
    // NoOpinion with an empty reason (like RBAC, so that the 403 message is upstream's).
    AuthorizationResult authorize(const Attributes &attributes) const;

    const std::vector<PolicyRule> &rules() const { return m_rules; }

private:
    std::vector<PolicyRule> m_rules;
};

} // namespace rvscope::auth
