// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/ApiTypes.h"
#include "api/RequestScope.h"
#include "auth/Attributes.h"
#include "auth/Authorizer.h"
#include "auth/TokenFile.h"
#include "model/Result.h"

namespace rvscope::api {

class OpenWatches;

// Authentication and authorization before any handler runs, as the apiserver's filter chain
// does: the bearer token (or anonymous) names the user, the request becomes authorizer
// Attributes (verb from method and watch, resource, subresource, namespace, name - a
// list/watch's metadata.name field selector counts as a name), and the node authorizer, then
// the policy, decide. 401 and 403 carry the apiserver's Status texts.
//
// Open watches stay authorized only as long as their access lasts: every watch (a watch
// request, a bulk channel) keeps its attributes in the handler's OpenWatches, and
// recheckWatches() (called periodically and whenever the authorizer's generation changes,
// e.g. a pod moved off a node) ends each one that lost access with an ERROR event carrying
// the 403 Status. Core thread only.
class AccessControl final {
public:
    AccessControl(auth::TokenFile tokens, auth::Policy policy);

    auth::Authorizer &authorizer() { return m_authorizer; }
    void setAnonymousAllowed(bool allowed) { m_tokens.setAnonymousAllowed(allowed); }
    const auth::TokenFile &tokens() const { return m_tokens; }

    // The user, or a 401 Status. Authenticated users are remembered by name (userNamed()).
    model::Result<auth::UserInfo> authenticate(const ApiRequest &request);
    // The last authenticated user of that name (groups included), else just the name.
    auth::UserInfo userNamed(const std::string &name) const;
    // The attributes of a bulk get (verb "list") or bulk watch channel (verb "watch") of
    // `user` on group/resource in a namespace, of one object when `name` is set, and the
    // decision on them.
    auth::Attributes bulkAttributes(const std::string &user, const std::string &verb, const std::string &group,
                                    const std::string &resource, const std::string &namespaceName,
                                    const std::string &name) const;
    std::optional<model::Status> authorizeBulk(const std::string &user, const std::string &verb, const std::string &group,
                                               const std::string &resource, const std::string &namespaceName,
                                               const std::string &name) const;
    // The authentication and authorization filters: names request.user and returns the
    // request's attributes (nullopt for discovery, OpenAPI, /version and health, which need
    // no more than authentication), or the 401 or 403 Status.
    model::Result<std::optional<auth::Attributes>> admit(const RequestScope &scope, ApiRequest &request);
    // The attributes of a request addressing `scope`; nullopt for requests that need none
    // beyond authentication.
    static std::optional<auth::Attributes> attributesFor(const RequestScope &scope, const ApiRequest &request,
                                                         const auth::UserInfo &user);
    std::optional<model::Status> authorize(const auth::Attributes &attributes) const;

    // The watches to re-check (ApiHandler::setAccessControl gives its OpenWatches).
    void setOpenWatches(std::weak_ptr<OpenWatches> watches) { m_watches = std::move(watches); }
    // Returns how many watches were closed.
    int recheckWatches();
    // The open watches it re-checks.
    std::size_t watchedCount() const;

private:
    auth::TokenFile m_tokens;
    auth::Authorizer m_authorizer;
    std::weak_ptr<OpenWatches> m_watches;
    std::map<std::string, auth::UserInfo> m_users;
};

} // namespace rvscope::api
