// SPDX-License-Identifier: MIT
#pragma once

#include "api/ApiTypes.h"
#include "api/RequestScope.h"
#include "faults/FaultSet.h"

// How the handler applies a fault rule that fired (ApiHandler::handle consults the rules
// once per resource request; these are its pieces).
namespace rvscope::api {

// What the rules are matched against: verb, resource, namespace, name (a create's from its
// body), subresource and client (user, User-Agent product, X-Rvscope-Client).
faults::FaultRequest faultRequestFor(const RequestScope &scope, const ApiRequest &request);

// The Status an action that answers in the handler's place sends for `name` of `resource`:
// the apiserver's 409 optimistic-lock conflict, its 429 with Retry-After, a 500 InternalError,
// its 504 request timeout; nullopt for drop (no reply at all).
std::optional<model::Status> injectedStatus(const faults::FaultFiring &fault, const model::GroupResource &resource,
                                            const std::string &name);

// The reply of an action that answers in the handler's place (faults::answersInstead): the
// apiserver's 409 optimistic-lock conflict for the target object, its 429 with Retry-After,
// a 500 InternalError, its 504 request timeout, or no reply at all (dropConnection).
// `target` is faultRequestFor(scope, request).
ApiResponse injectedResponse(const faults::FaultFiring &fault, const RequestScope &scope, const ApiRequest &request,
                             const faults::FaultRequest &target);

} // namespace rvscope::api
