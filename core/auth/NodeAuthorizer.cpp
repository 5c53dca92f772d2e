// SPDX-License-Identifier: MIT
#include "auth/NodeAuthorizer.h"

namespace rvscope::auth {
namespace {
AuthorizationResult noOpinion(std::string reason)
{
    return {Decision::NoOpinion, std::move(reason)};
}

bool isRead(const std::string &verb)
{
    return verb == "get" || verb == "list" || verb == "watch";
}

std::optional<NodeObjectType> graphType(const model::GroupResource &resource)
{
    if (!resource.group.empty())
        return std::nullopt;
    if (resource.resource == "secrets")
        return NodeObjectType::Secret;
    if (resource.resource == "configmaps")
        return NodeObjectType::ConfigMap;
    if (resource.resource == "persistentvolumeclaims")
        return NodeObjectType::PersistentVolumeClaim;
    return std::nullopt;
}
} // namespace

std::optional<std::string> NodeAuthorizer::nodeName(const UserInfo &user)
{
    if (!user.name.starts_with(NODE_USER_PREFIX) || !user.inGroup(NODES_GROUP))
        return std::nullopt;
    return user.name.substr(NODE_USER_PREFIX.size());
}

AuthorizationResult NodeAuthorizer::authorize(const Attributes &attributes) const
{
    const auto node = nodeName(attributes.user);
    if (!node)
        return noOpinion({});
    if (node->empty())
        return noOpinion("unknown node for user \"" + attributes.user.name + '"');
    if (!attributes.resourceRequest)
        return noOpinion({});

    const model::GroupResource resource = attributes.groupResource();
    if (resource.group.empty() && resource.resource == "nodes") {
        if (!isRead(attributes.verb) || !attributes.subresource.empty() || attributes.name != *node)
            return noOpinion("node '" + *node + "' can only read its own Node object");
        return {Decision::Allow, {}};
    }

    const auto type = graphType(resource);
    if (!type)
        return noOpinion({});
    // The checks and reasons of authorizeReadNamespacedObject and authorize, in that order.
    if (!isRead(attributes.verb))
        return noOpinion("can only read resources of this type");
    if (!attributes.subresource.empty())
        return noOpinion("cannot read subresource");
    if (attributes.namespaceName.empty())
        return noOpinion("can only read namespaced object of this type");
    if (attributes.name.empty())
        return noOpinion("No Object name found");
    if (!m_graph.hasRelationship(*node, *type, attributes.namespaceName, attributes.name))
        return noOpinion("no relationship found between node '" + *node + "' and this object");
    return {Decision::Allow, {}};
}

} // namespace rvscope::auth
