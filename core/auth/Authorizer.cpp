// SPDX-License-Identifier: MIT
#include "auth/Authorizer.h"

#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::auth {
namespace {
using registry::goQuote;

// The sanitizer responsewriters.Forbidden runs over the message before NewForbidden wraps it.
std::string escapeHtml(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else
            out += c;
    }
    return out;
}

// responsewriters.forbiddenMessage.
std::string forbiddenMessage(const Attributes &attributes)
{
    const std::string user = goQuote(attributes.user.name);
    if (!attributes.resourceRequest)
        return "User " + user + " cannot " + attributes.verb + " path " + goQuote(attributes.path);
    const model::GroupResource resource = attributes.groupResource();
    std::string resourceText = resource.resource;
    if (!attributes.subresource.empty())
        resourceText += '/' + attributes.subresource;
    std::string message = "User " + user + " cannot " + attributes.verb + " resource " + goQuote(resourceText)
                        + " in API group " + goQuote(resource.group);
    if (!attributes.namespaceName.empty())
        return message + " in the namespace " + goQuote(attributes.namespaceName);
    return message + " at the cluster scope";
}
} // namespace

Authorizer::Authorizer(Policy policy) : m_policy(std::move(policy)) {}

void Authorizer::setPolicy(Policy policy)
{
    m_policy = std::move(policy);
    ++m_policyGeneration;
}

AuthorizationResult Authorizer::authorize(const Attributes &attributes) const
{
    AuthorizationResult node = m_nodeAuthorizer.authorize(attributes);
    if (node.decision != Decision::NoOpinion)
        return node;
    AuthorizationResult policy = m_policy.authorize(attributes);
    if (policy.decision != Decision::NoOpinion)
        return policy;
    std::string reasons = std::move(node.reason);
    if (!policy.reason.empty())
        reasons += (reasons.empty() ? "" : "\n") + policy.reason;
    return {Decision::Deny, std::move(reasons)};
}

std::optional<model::Status> Authorizer::check(const Attributes &attributes) const
{
    AuthorizationResult result = authorize(attributes);
    if (result.allowed())
        return std::nullopt;
    return forbidden(attributes, result.reason);
}

model::Status Authorizer::forbidden(const Attributes &attributes, const std::string &reason)
{
    std::string detail = escapeHtml(forbiddenMessage(attributes));
    if (!reason.empty())
        detail += ": " + reason;
    const model::GroupResource resource = attributes.groupResource();
    if (!attributes.resourceRequest || resource.resource.empty())
        return model::errors::forbidden("forbidden: " + detail);
    std::string subject = resource.toString();
    if (!attributes.name.empty())
        subject += ' ' + goQuote(attributes.name);
    return model::errors::forbidden(subject + " is forbidden: " + detail, resource, attributes.name);
}

} // namespace rvscope::auth
