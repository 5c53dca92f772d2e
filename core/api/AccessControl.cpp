// SPDX-License-Identifier: MIT
#include "api/AccessControl.h"

#include "api/OpenWatches.h"
#include "registry/selection/FieldSelector.h"

namespace rvscope::api {

AccessControl::AccessControl(auth::TokenFile tokens, auth::Policy policy)
    : m_tokens(std::move(tokens))
    , m_authorizer(std::move(policy))
{
}

model::Result<auth::UserInfo> AccessControl::authenticate(const ApiRequest &request)
{
    auto user = m_tokens.authenticate(request.header("authorization"));
    if (user)
        m_users[user->name] = *user;
    return user;
}

auth::UserInfo AccessControl::userNamed(const std::string &name) const
{
    if (auto it = m_users.find(name); it != m_users.end())
        return it->second;
    auth::UserInfo user;
    user.name = name;
    return user;
}

auth::Attributes AccessControl::bulkAttributes(const std::string &user, const std::string &verb, const std::string &group,
                                               const std::string &resource, const std::string &namespaceName,
                                               const std::string &name) const
{
    auth::Attributes attributes;
    attributes.user = userNamed(user);
    attributes.verb = verb;
    attributes.resource = auth::Attributes::resourceFor(model::GroupResource{group, resource});
    attributes.namespaceName = namespaceName;
    attributes.name = name;
    return attributes;
}

std::optional<model::Status> AccessControl::authorizeBulk(const std::string &user, const std::string &verb,
                                                          const std::string &group, const std::string &resource,
                                                          const std::string &namespaceName, const std::string &name) const
{
    return m_authorizer.check(bulkAttributes(user, verb, group, resource, namespaceName, name));
}

model::Result<std::optional<auth::Attributes>> AccessControl::admit(const RequestScope &scope, ApiRequest &request)
{
    auto user = authenticate(request);
    if (!user)
        return std::move(user).error();
    request.user = user->name;
    std::optional<auth::Attributes> attributes = attributesFor(scope, request, *user);
    if (attributes) {
        if (auto refused = authorize(*attributes))
            return std::move(*refused);
    }
    return attributes;
}

std::optional<auth::Attributes> AccessControl::attributesFor(const RequestScope &scope, const ApiRequest &request,
                                                             const auth::UserInfo &user)
{
    const Route &route = scope.route;
    if (route.kind == Route::Kind::Faults) {
        // rvscope's own endpoint, authorized as the apiserver authorizes a non-resource URL:
        // the path and the lower-case method (a policy names it in nonResourceURLs).
        auth::Attributes attributes;
        attributes.user = user;
        attributes.resourceRequest = false;
        attributes.path = request.path;
        for (const char c : request.method)
            attributes.verb += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        return attributes;
    }
    if (!scope.isResource())
        return std::nullopt;
    auth::Attributes attributes;
    attributes.user = user;
    attributes.resource = auth::Attributes::resourceFor(model::GroupResource{route.group, route.resource});
    attributes.subresource = route.subresource;
    attributes.namespaceName = route.namespaceName;
    attributes.name = route.name;
    attributes.path = request.path;
    attributes.verb = scope.verbName;
    if (attributes.verb == "list" || attributes.verb == "watch") {
        if (const std::string *selector = request.queryValue("fieldSelector")) {
            if (auto parsed = registry::FieldSelector::parse(*selector))
                auth::applyFieldSelectorName(attributes, *parsed);
        }
    }
    return attributes;
}

std::optional<model::Status> AccessControl::authorize(const auth::Attributes &attributes) const
{
    return m_authorizer.check(attributes);
}

int AccessControl::recheckWatches()
{
    auto watches = m_watches.lock();
    return watches ? watches->recheck(*this) : 0;
}

std::size_t AccessControl::watchedCount() const
{
    auto watches = m_watches.lock();
    return watches ? watches->authorizedCount() : 0;
}

} // namespace rvscope::api
