// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include "auth/Attributes.h"
#include "auth/NodeGraph.h"

namespace rvscope::auth {

// The node authorizer (plugin/pkg/auth/authorizer/node): what a kubelet may read because
// of the pods bound to its node. Only users named system:node:<n> who are also in group
// system:nodes are nodes; for everyone else, and for every request it does not cover, it has
// no opinion, so the policy decides.
//
// A node <n> is allowed:
// - get, list and watch of a secret, configmap or persistentvolumeclaim that a pod bound to
//   <n> references (NodeGraph), by namespace and name. A list or watch must be scoped to that
//   one object: upstream authorizes the name that the apiserver takes from the
//   `metadata.name=<x>` field selector (applyFieldSelectorName), and so does this. Upstream
//   allows only get on persistentvolumeclaims; rvscope also allows the single-object list
//   and watch, so that a kubelet can watch every object its pods use (issue 7).
// - get, list and watch of its own Node object (cluster scope, name <n>). Upstream leaves
//   this to the system:node RBAC role; rvscope has no such role.
// Denials are NoOpinion with upstream's reasons ("no relationship found between node 'n1'
// and this object", "can only read resources of this type", "cannot read subresource",
// "can only read namespaced object of this type", "No Object name found", "unknown node
// for user ...") so that a policy rule can still allow the request.
//
// Reads the graph it was given (which must outlive it); core thread only.
class NodeAuthorizer final {
public:
    explicit NodeAuthorizer(const NodeGraph &graph) : m_graph(graph) {}

    AuthorizationResult authorize(const Attributes &attributes) const;

    // nodeidentifier: <n> for system:node:<n> in group system:nodes ("" for system:node:
    // alone); nullopt when the user is not a node.
    static std::optional<std::string> nodeName(const UserInfo &user);

private:
    const NodeGraph &m_graph;
};

} // namespace rvscope::auth
