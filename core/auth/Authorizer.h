// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "auth/Attributes.h"
#include "auth/NodeAuthorizer.h"
#include "auth/NodeGraph.h"
#include "auth/Policy.h"
#include "model/Status.h"

namespace rvscope::auth {

// The authorization chain the server runs before any handler: the node authorizer first,
// then the policy (the apiserver's --authorization-mode=Node,<policy>, combined like its
// union authorizer). The first Allow wins; when nobody allows, the request is denied with
// the authorizers' reasons joined by "\n".
//
// It owns the node graph (fed by the server's pod watch) and the current policy.
// generation() increases whenever either changes: a watch authorized at generation G needs
// re-authorizing once generation() != G (besides the periodic re-check).
//
// Not copyable (the node authorizer refers to the graph). Core thread only.
class Authorizer final {
public:
    // Starts with an empty graph and a policy with no rules.
    explicit Authorizer(Policy policy = {});
    Authorizer(const Authorizer &) = delete;
    Authorizer &operator=(const Authorizer &) = delete;

    NodeGraph &nodeGraph() { return m_graph; }
    const NodeGraph &nodeGraph() const { return m_graph; }
    const Policy &policy() const { return m_policy; }
    // A reloaded policy file; bumps generation().
    void setPolicy(Policy policy);

    std::uint64_t generation() const { return m_policyGeneration + m_graph.generation(); }

    // Allow (with the allowing authorizer's reason) or Deny (never NoOpinion).
    AuthorizationResult authorize(const Attributes &attributes) const;
    // nullopt when allowed, otherwise forbidden(attributes, reason).
    std::optional<model::Status> check(const Attributes &attributes) const;

    // The apiserver's 403 (responsewriters.Forbidden + errors.NewForbidden):
    //   <gr> "<name>" is forbidden: User "<user>" cannot <verb> resource "<resource>[/<sub>]"
    //   in API group "<group>" in the namespace "<ns>"[: <reason>]
    // with `<gr> is forbidden:` when there is no name, `at the cluster scope` instead of the
    // namespace clause when there is none, and `forbidden: User "<user>" cannot <verb> path
    // "<path>"` for non-resource requests. <gr> is "deployments.apps" style; quoted values
    // are Go %q quoted, and '&', '<', '>' in the part after "forbidden: " are HTML-escaped
    // as upstream does. details: {name, group, kind: <resource plural>}.
    static model::Status forbidden(const Attributes &attributes, const std::string &reason = {});

private:
    NodeGraph m_graph;
    NodeAuthorizer m_nodeAuthorizer{m_graph};
    Policy m_policy;
    std::uint64_t m_policyGeneration = 0;
};

} // namespace rvscope::auth
