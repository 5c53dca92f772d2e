// SPDX-License-Identifier: MIT
#include "auth/Policy.h"

#include <algorithm>

namespace rvscope::auth {
namespace {
bool contains(const std::vector<std::string> &list, const std::string &value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool containsOrWildcard(const std::vector<std::string> &list, const std::string &value)
{
    return std::any_of(list.begin(), list.end(), [&](const std::string &entry) { return entry == "*" || entry == value; });
}

bool matchesSubject(const PolicyRule &rule, const UserInfo &user)
{
    if (containsOrWildcard(rule.users, user.name))
        return true;
    if (contains(rule.groups, "*"))
        return true;
    return std::any_of(user.groups.begin(), user.groups.end(),
                       [&](const std::string &group) { return contains(rule.groups, group); });
}

bool matchesResource(const PolicyRule &rule, const Attributes &attributes)
{
    const model::GroupResource requested = attributes.groupResource();
    const bool resourceMatches = std::any_of(rule.resources.begin(), rule.resources.end(), [&](const PolicyRule::Resource &entry) {
        return (entry.group == "*" || entry.group == requested.group)
            && (entry.resource == "*" || entry.resource == requested.resource);
    });
    if (!resourceMatches)
        return false;
    if (!containsOrWildcard(rule.subresources, attributes.subresource))
        return false;
    if (!containsOrWildcard(rule.namespaces, attributes.namespaceName))
        return false;
    // A name list restricts access to those objects: a request that does not name one
    // (a list of everything) is not among them.
    if (contains(rule.names, "*"))
        return true;
    return !attributes.name.empty() && contains(rule.names, attributes.name);
}

bool matchesPath(const PolicyRule &rule, const std::string &path)
{
    return std::any_of(rule.nonResourceURLs.begin(), rule.nonResourceURLs.end(), [&](const std::string &entry) {
        if (!entry.empty() && entry.back() == '*')
            return path.compare(0, entry.size() - 1, entry, 0, entry.size() - 1) == 0;
        return entry == path;
    });
}
} // namespace

bool PolicyRule::matches(const Attributes &attributes) const
{
    if (!matchesSubject(*this, attributes.user) || !containsOrWildcard(verbs, attributes.verb))
        return false;
    if (attributes.resourceRequest)
        return !resources.empty() && matchesResource(*this, attributes);
    return !nonResourceURLs.empty() && matchesPath(*this, attributes.path);
}

Policy Policy::allowAll()
{
    Policy policy;
    PolicyRule resources;
    resources.groups = {"*"};
    resources.verbs = {"*"};
    resources.resources = {{"*", "*"}};
    resources.subresources = {"*"};
    resources.namespaces = {"*"};
    resources.names = {"*"};
    PolicyRule paths;
    paths.groups = {"*"};
    paths.verbs = {"*"};
    paths.nonResourceURLs = {"*"};
    policy.m_rules = {std::move(resources), std::move(paths)};
    return policy;
}

AuthorizationResult Policy::authorize(const Attributes &attributes) const
{
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        if (m_rules[i].matches(attributes))
            return {Decision::Allow, "allowed by policy rules[" + std::to_string(i) + ']'};
    }
    return {Decision::NoOpinion, {}};
}

} // namespace rvscope::auth
