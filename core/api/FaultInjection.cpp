// SPDX-License-Identifier: MIT
#include "api/FaultInjection.h"

#include "api/Responses.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"
#include "registry/selection/FieldSelector.h"

namespace rvscope::api {
namespace {
// The resourceVersion a write's body carries (a PUT's object, a merge patch), for the
// journal: what the client sent, though the handler never read it. Empty when none.
std::string bodyResourceVersion(const ApiRequest &request)
{
    if (request.body.find("resourceVersion") == std::string::npos)
        return {};
    const auto body = model::parseJson(request.body);
    if (!body)
        return {};
    const nlohmann::json &version = model::memberAt(*body, "metadata", "resourceVersion");
    return version.is_string() ? version.get<std::string>() : std::string();
}

ApiResponse injectedReply(const faults::FaultFiring &fault, const RequestScope &scope, const faults::FaultRequest &target)
{
    if (auto status = injectedStatus(fault, scope.route.entry->type->groupResource(), target.name))
        return statusResponse(*status);
    ApiResponse dropped;
    dropped.status = 0; // no reply: the client sees the connection close
    dropped.dropConnection = true;
    return dropped;
}

} // namespace

std::optional<model::Status> injectedStatus(const faults::FaultFiring &fault, const model::GroupResource &resource,
                                            const std::string &name)
{
    switch (fault.action) {
    case faults::FaultAction::Conflict:
        return model::errors::conflict(resource, name, model::errors::OPTIMISTIC_LOCK_ERROR_MSG);
    case faults::FaultAction::Throttle:
        return model::errors::tooManyRequests("Too many requests, please try again later.", fault.retryAfterSeconds);
    case faults::FaultAction::Error:
        return model::errors::internalError("injected fault (rvscope fault rule " + std::to_string(fault.ruleId) + ")");
    case faults::FaultAction::Timeout:
        return model::errors::requestTimeout();
    default:
        return std::nullopt;
    }
}

faults::FaultRequest faultRequestFor(const RequestScope &scope, const ApiRequest &request)
{
    const Route &route = scope.route;
    faults::FaultRequest out;
    out.verb = scope.verbName;
    out.resource = route.resource;
    out.group = route.group;
    out.namespaceName = route.namespaceName;
    out.name = route.name;
    out.subresource = route.subresource;
    if ((out.verb == "list" || out.verb == "watch") && out.name.empty()) {
        // A list or watch of one object (kubectl get -w NAME, a single-object informer) names
        // it by field selector, as the apiserver's RequestInfo reads it for authorization.
        if (const std::string *selector = request.queryValue("fieldSelector")) {
            if (auto parsed = registry::FieldSelector::parse(*selector)) {
                if (auto name = parsed->requiresExactMatch("metadata.name"))
                    out.name = *name;
            }
        }
    }
    if (scope.verb == Verb::Create) {
        // Only parsed when rules exist (the caller asks only then).
        if (auto body = model::parseJson(request.body)) {
            const nlohmann::json &name = model::memberAt(*body, "metadata", "name");
            if (name.is_string())
                out.name = name.get<std::string>();
        }
    }
    out.user = request.user;
    const std::string agent = request.header("user-agent");
    out.agent = agent.substr(0, agent.find('/'));
    out.client = request.header("x-rvscope-client");
    return out;
}

ApiResponse injectedResponse(const faults::FaultFiring &fault, const RequestScope &scope, const ApiRequest &request,
                             const faults::FaultRequest &target)
{
    ApiResponse response = injectedReply(fault, scope, target);
    if (scope.verb == Verb::Update || scope.verb == Verb::Patch)
        response.outcome.resourceVersionSent = bodyResourceVersion(request);
    if (scope.verb == Verb::Create) // the journal's key names the object, as for a create that ran
        response.outcome.objectName = target.name;
    return response;
}

} // namespace rvscope::api
