// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/Policy.h"
#include "auth/TokenFile.h"
#include "model/Result.h"

namespace rvscope::api {
class AccessControl;
class ApiHandler;
}
namespace rvscope::registry {
class Registry;
}

namespace rvscope::sim {

struct Scenario;
struct ScenarioContext;

// Who one scenario client is: the user its bearer token authenticates as.
struct ScenarioIdentity final {
    std::string user;  // "" for a client that sends no credentials ("anonymous")
    std::string uid;
    std::vector<std::string> groups;
    std::string token; // generated, "scenario-token-<client>"; "" for an anonymous client

    bool anonymous() const { return token.empty(); }
};

// A scenario's "access" section (format in README, "Scenario files"): the identity of each
// client, the policy, whether requests without credentials are system:anonymous. The
// implicit client "setup", which creates the scenario's objects, is user "scenario-setup"
// (group system:masters) and allowed everything by a rule appended to the policy, unless
// the section names "setup" itself.
struct ScenarioAccess final {
    static constexpr const char *SETUP_USER = "scenario-setup";

    std::map<std::string, ScenarioIdentity> identities; // by client name; always holds "setup"
    auth::TokenFile tokens;                              // every token above, anonymous flag set
    auth::Policy policy = auth::Policy::allowAll();      // no "policy": anyone authenticated may do anything

    // Errors are 400 Statuses starting with "scenario access: " and naming the place,
    // e.g. `scenario access: users "kubelet-a": "groups" must be a list of group names`.
    static model::Result<ScenarioAccess> fromJson(const nlohmann::json &json);
    // nullptr for a client the section does not name.
    const ScenarioIdentity *identity(const std::string &client) const;
};

// The access control a core must install (ApiHandler::setAccessControl) to run `scenario`:
// its token file and policy; nullptr when the scenario has no "access" section (leave the
// core's own access control as it is). A fresh object per call: install it on a fresh core.
std::shared_ptr<api::AccessControl> accessControlFor(const Scenario &scenario);

// Everything a core needs to run `scenario` as its identities, in one call: installs
// accessControlFor(scenario) on `handler`, starts a NodeGraphFeeder for it on `registry`
// (`recheck` as NodeGraphFeeder::start takes it) and stores the feeder in context.nodeGraph,
// where the runner keeps it alive and runs its queued re-checks before each step reports.
// Does nothing without an "access" section. Fails only when the feeder cannot start (the
// access control is installed nevertheless). Core thread only.
model::VoidResult installScenarioAccess(const Scenario &scenario, api::ApiHandler &handler,
                                          registry::Registry &registry, ScenarioContext &context,
                                          std::function<void()> recheck = {});

} // namespace rvscope::sim
