// SPDX-License-Identifier: MIT
#include "sim/ScenarioAccess.h"

#include <set>

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "model/StatusErrors.h"
#include "sim/NodeGraphFeeder.h"
#include "sim/Scenario.h"
#include "sim/ScenarioRunner.h"

namespace rvscope::sim {
namespace {

model::Status invalid(const std::string &message)
{
    return model::errors::badRequest("scenario access: " + message);
}

std::string quoted(const std::string &text)
{
    return nlohmann::json(text).dump();
}

// "scenario-token-<client>" with every character a bearer token or a shell line would
// stumble on replaced by '-'; a number is appended when two clients end up alike.
std::string tokenFor(const std::string &client, std::set<std::string> &taken)
{
    std::string base = "scenario-token-";
    for (const char c : client) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
            || c == '_' || c == '.';
        base += plain ? c : '-';
    }
    std::string token = base;
    for (int n = 2; taken.count(token); ++n)
        token = base + '-' + std::to_string(n);
    taken.insert(token);
    return token;
}

model::Result<ScenarioIdentity> parseIdentity(const std::string &client, const nlohmann::json &json)
{
    const std::string where = "users " + quoted(client) + ": ";
    ScenarioIdentity identity;
    if (json.is_string() && json.get<std::string>() == "anonymous")
        return identity;
    if (!json.is_object())
        return invalid(where + "an identity is {\"user\": ..., \"groups\": [...]} or \"anonymous\" (no credentials)");
    for (const auto &[field, value] : json.items()) {
        if (field != "user" && field != "groups" && field != "uid")
            return invalid(where + "unknown field " + quoted(field) + " (an identity has user, groups and uid)");
    }
    const auto user = json.find("user");
    if (user == json.end() || !user->is_string() || user->get<std::string>().empty())
        return invalid(where + "\"user\" must be a non-empty string (the user name, e.g. \"system:node:node-a\")");
    identity.user = user->get<std::string>();
    identity.uid = client;
    if (const auto uid = json.find("uid"); uid != json.end()) {
        if (!uid->is_string())
            return invalid(where + "\"uid\" must be a string");
        identity.uid = uid->get<std::string>();
    }
    if (const auto groups = json.find("groups"); groups != json.end()) {
        if (!groups->is_array())
            return invalid(where + "\"groups\" must be a list of group names");
        for (const auto &group : *groups) {
            if (!group.is_string() || group.get<std::string>().empty())
                return invalid(where + "\"groups\" must be a list of non-empty group names");
            identity.groups.push_back(group.get<std::string>());
        }
    }
    return identity;
}

} // namespace

model::Result<ScenarioAccess> ScenarioAccess::fromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        return invalid("must be a JSON object with \"users\" and optionally \"policy\" and \"anonymous\"");
    for (const auto &[field, value] : json.items()) {
        if (field != "users" && field != "policy" && field != "anonymous")
            return invalid("unknown field " + quoted(field) + " (expected users, policy, anonymous)");
    }
    ScenarioAccess access;
    const auto users = json.find("users");
    if (users == json.end() || !users->is_object() || users->empty())
        return invalid("\"users\" must map client names to identities, e.g. "
                       "{\"kubelet\": {\"user\": \"system:node:node-a\", \"groups\": [\"system:nodes\"]}}");
    std::set<std::string> taken;
    for (const auto &[client, value] : users->items()) {
        if (client.empty())
            return invalid("users: a client name must not be empty");
        auto identity = parseIdentity(client, value);
        if (!identity)
            return std::move(identity).error();
        if (!identity->user.empty())
            identity->token = tokenFor(client, taken);
        access.identities.emplace(client, std::move(identity).value());
    }
    const bool implicitSetup = !access.identities.count("setup");
    if (implicitSetup) {
        ScenarioIdentity setup;
        setup.user = SETUP_USER;
        setup.uid = "setup";
        setup.groups = {"system:masters"};
        setup.token = tokenFor("setup", taken);
        access.identities.emplace("setup", std::move(setup));
    }

    bool anonymous = false;
    if (const auto flag = json.find("anonymous"); flag != json.end()) {
        if (!flag->is_boolean())
            return invalid("\"anonymous\" must be true or false");
        anonymous = flag->get<bool>();
    }

    if (const auto policy = json.find("policy"); policy != json.end()) {
        nlohmann::json document;
        if (policy->is_array())
            document = {{"rules", *policy}};
        else if (policy->is_object())
            document = *policy;
        else
            return invalid("\"policy\" must be a list of rules (as in a policy file's \"rules\")");
        // Appended, so that "allowed by policy rules[<i>]" counts the scenario's own rules.
        if (implicitSetup && document.contains("rules") && document["rules"].is_array())
            document["rules"].push_back({{"users", {SETUP_USER}}, {"verbs", {"*"}}, {"resources", {"*"}}});
        auto parsed = auth::Policy::fromJson(document);
        if (!parsed)
            return invalid(parsed.error().message);
        access.policy = std::move(parsed).value();
    }

    std::vector<std::pair<std::string, auth::UserInfo>> tokens;
    for (const auto &[client, identity] : access.identities) {
        if (!identity.anonymous())
            tokens.emplace_back(identity.token, auth::UserInfo{identity.user, identity.uid, identity.groups});
    }
    auto tokenFile = auth::TokenFile::fromUsers(tokens);
    if (!tokenFile)
        return invalid(tokenFile.error().message);
    access.tokens = std::move(tokenFile).value();
    access.tokens.setAnonymousAllowed(anonymous);
    return access;
}

const ScenarioIdentity *ScenarioAccess::identity(const std::string &client) const
{
    const auto it = identities.find(client);
    return it == identities.end() ? nullptr : &it->second;
}

std::shared_ptr<api::AccessControl> accessControlFor(const Scenario &scenario)
{
    if (!scenario.access)
        return nullptr;
    return std::make_shared<api::AccessControl>(scenario.access->tokens, scenario.access->policy);
}

model::VoidResult installScenarioAccess(const Scenario &scenario, api::ApiHandler &handler,
                                        registry::Registry &registry, ScenarioContext &context,
                                        std::function<void()> recheck)
{
    std::shared_ptr<api::AccessControl> access = accessControlFor(scenario);
    if (!access)
        return model::Done{};
    handler.setAccessControl(access);
    auto feeder = NodeGraphFeeder::start(registry, access, std::move(recheck));
    if (!feeder)
        return std::move(feeder).error();
    context.nodeGraph = std::move(feeder).value();
    return model::Done{};
}

} // namespace rvscope::sim
