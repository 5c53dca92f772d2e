// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "auth/UserInfo.h"
#include "model/GroupVersion.h"

namespace rvscope::registry {
class FieldSelector;
}

namespace rvscope::auth {

// What an authorizer is asked about (k8s.io/apiserver/pkg/authorization/authorizer.Attributes).
// A plain value; any thread.
//
// Resource requests name the resource as "<group>/<plural>" ("apps/deployments") or, for the
// core group, the bare plural ("configmaps"); a subresource ("status", "scale", "log") goes in
// `subresource`. `namespaceName` is empty for cluster-scoped resources and for lists and
// watches across all namespaces. `name` is empty for collection requests (create, list,
// watch, deletecollection) unless applyFieldSelectorName() found one.
//
// Non-resource requests (`resourceRequest` false: discovery, /version, /healthz) carry the
// URL path in `path` and the lower-case HTTP method as `verb`.
struct Attributes final {
    UserInfo user;
    std::string verb; // get, list, watch, create, update, patch, delete, deletecollection
    std::string resource;
    std::string subresource;
    std::string namespaceName;
    std::string name;
    bool resourceRequest = true;
    std::string path;

    // "apps/deployments" -> {"apps","deployments"}; "configmaps" -> {"","configmaps"}.
    model::GroupResource groupResource() const;
    // The inverse: the `resource` string of a GroupResource.
    static std::string resourceFor(const model::GroupResource &resource);
};

// As the apiserver's RequestInfoFactory does: a list or watch without a name takes the name
// its field selector requires (`metadata.name=<n>`, first such term), when that name is a
// valid path segment (not "." or "..", no '/' or '%'). The request can then only return that
// object, so name-scoped rules and the node authorizer may allow it. Anything else is left
// as it is.
void applyFieldSelectorName(Attributes &attributes, const registry::FieldSelector &selector);

// An authorizer's verdict (authorizer.Decision). NoOpinion lets the next authorizer decide;
// the Authorizer turns a final NoOpinion into Deny.
enum class Decision { Allow, Deny, NoOpinion };

// A verdict with upstream's reason text: empty when there is nothing to add, otherwise it is
// appended to the 403 message after ": ".
struct AuthorizationResult final {
    Decision decision = Decision::NoOpinion;
    std::string reason;

    bool allowed() const { return decision == Decision::Allow; }
};

} // namespace rvscope::auth
