// SPDX-License-Identifier: MIT
#include "sim/Scenario.h"

#include <array>
#include <set>

#include "faults/FaultRule.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"

namespace rvscope::sim {
namespace {

using Action = ScenarioStep::Action;

struct ActionInfo {
    Action action;
    const char *name;
};

constexpr std::array ACTIONS = {
    ActionInfo{Action::Get, "get"},         ActionInfo{Action::List, "list"},
    ActionInfo{Action::Create, "create"},   ActionInfo{Action::Update, "update"},
    ActionInfo{Action::Patch, "patch"},     ActionInfo{Action::Delete, "delete"},
    ActionInfo{Action::Watch, "watch"},     ActionInfo{Action::Compact, "compact"},
    ActionInfo{Action::Workload, "workload"}, ActionInfo{Action::Sweep, "sweep"},
    ActionInfo{Action::Note, "note"},       ActionInfo{Action::Fault, "fault"},
};

model::Status invalid(const std::string &where, const std::string &message)
{
    return model::errors::badRequest("scenario " + where + ": " + message);
}

bool needsObject(Action action)
{
    return action == Action::Get || action == Action::List || action == Action::Update || action == Action::Patch
        || action == Action::Delete || action == Action::Watch || action == Action::Create;
}

model::Result<ScenarioStep> parseStep(const nlohmann::json &json, const std::string &where)
{
    if (!json.is_object())
        return invalid(where, "a step must be a JSON object");
    ScenarioStep step;
    const std::string action = model::stringOr(model::member(json, "do"), "");
    bool known = false;
    for (const auto &info : ACTIONS) {
        if (action == info.name) {
            step.action = info.action;
            known = true;
        }
    }
    if (!known)
        return invalid(where, "unknown action \"" + action + "\" (\"do\" is one of get, list, create, update, patch, "
                              "delete, watch, compact, workload, sweep, note, fault)");
    static const std::set<std::string> fields = {"do",     "client", "object", "set",      "resourceVersion", "body",
                                                 "patch",  "patchType", "withResourceVersion", "from", "expect",
                                                 "expectWatchError", "clients", "strategies", "explain",
                                                 "fieldManager", "force", "rule"};
    for (const auto &[field, value] : json.items()) {
        if (!fields.count(field))
            return invalid(where, "unknown field \"" + field + "\"");
    }
    auto string = [&](const char *field, std::string &out) -> bool {
        const auto &value = model::member(json, field);
        if (value.is_null())
            return true;
        if (!value.is_string())
            return false;
        out = value.get<std::string>();
        return true;
    };
    std::string resourceVersion;
    if (!string("client", step.client) || !string("object", step.object) || !string("patchType", step.patchType)
        || !string("from", step.from) || !string("explain", step.explain) || !string("resourceVersion", resourceVersion)
        || !string("fieldManager", step.fieldManager) || !string("rule", step.rule))
        return invalid(where, "client, object, patchType, from, resourceVersion, fieldManager, rule and explain must be strings");
    if (step.action == Action::Fault) {
        if (step.rule.empty())
            return invalid(where, "\"fault\" needs a \"rule\" (or \"clear\")");
        if (step.rule != "clear") {
            if (auto rule = faults::parseFaultRule(step.rule); !rule)
                return invalid(where, rule.error().message);
        }
    } else if (!step.rule.empty()) {
        return invalid(where, "\"rule\" belongs to a \"fault\" step");
    }
    if (resourceVersion == "omit")
        step.omitResourceVersion = true;
    else if (!resourceVersion.empty() && resourceVersion != "read")
        return invalid(where, "resourceVersion must be \"read\" or \"omit\"");
    if (needsObject(step.action) && step.object.empty())
        return invalid(where, "\"" + action + "\" needs an \"object\"");
    step.set = model::member(json, "set");
    if (!step.set.is_null() && !step.set.is_object())
        return invalid(where, "\"set\" must map field paths to values");
    step.body = model::member(json, "body");
    if (const auto &patch = model::member(json, "patch"); !patch.is_null())
        step.body = patch;
    if (step.action == Action::Patch && step.body.is_null())
        return invalid(where, "\"patch\" needs a \"patch\" body");
    if (step.action == Action::Create && !step.body.is_object())
        return invalid(where, "\"create\" needs the object as \"body\"");
    static const std::set<std::string> patchTypes = {"merge", "json", "strategic", "apply"};
    if (!patchTypes.count(step.patchType))
        return invalid(where, "patchType must be merge, json, strategic or apply");
    if (const auto &force = model::member(json, "force"); !force.is_null()) {
        if (!force.is_boolean())
            return invalid(where, "force must be true or false");
        step.force = force.get<bool>();
    }
    const bool applies = step.action == Action::Patch && step.patchType == "apply";
    if ((step.force || !step.fieldManager.empty()) && !applies)
        return invalid(where, "fieldManager and force belong to a patch with patchType apply");
    if (applies && step.fieldManager.empty())
        step.fieldManager = step.client;
    if (const auto &with = model::member(json, "withResourceVersion"); !with.is_null()) {
        if (!with.is_boolean())
            return invalid(where, "withResourceVersion must be true or false");
        step.withResourceVersion = with.get<bool>();
    }
    if (const auto &expect = model::member(json, "expect"); !expect.is_null()) {
        if (!expect.is_number_integer() || expect.get<int>() < 100 || expect.get<int>() > 599)
            return invalid(where, "expect must be an HTTP status code");
        step.expect = expect.get<int>();
    }
    if (const auto &expect = model::member(json, "expectWatchError"); !expect.is_null()) {
        if (!expect.is_number_integer() || expect.get<int>() < 100 || expect.get<int>() > 599)
            return invalid(where, "expectWatchError must be an HTTP status code (the code of the ERROR event)");
        step.expectWatchError = expect.get<int>();
    }
    const auto &clients = model::member(json, "clients");
    if (step.action == Action::Workload) {
        auto spec = ClientSpec::fromJson(clients.is_null() ? nlohmann::json::object() : clients);
        if (!spec)
            return invalid(where, spec.error().message);
        step.workload = *spec;
    }
    if (step.action == Action::Sweep) {
        // {"do":"sweep","clients":{"counts":[1,2,4],"spec":{...}},"strategies":["retry-default","lease"]}
        const auto &counts = model::member(clients, "counts");
        if (!counts.is_array() || counts.empty())
            return invalid(where, "a sweep needs clients.counts, a list of client counts");
        for (const auto &count : counts) {
            if (!count.is_number_integer() || count.get<int>() < 1 || count.get<int>() > 1000)
                return invalid(where, "client counts must be integers from 1 to 1000");
            step.sweepClients.push_back(count.get<int>());
        }
        auto spec = ClientSpec::fromJson(model::member(clients, "spec").is_null() ? nlohmann::json::object()
                                                                                   : model::member(clients, "spec"));
        if (!spec)
            return invalid(where, spec.error().message);
        step.workload = *spec;
        const auto &strategies = model::member(json, "strategies");
        if (!strategies.is_array() || strategies.empty())
            return invalid(where, "a sweep needs \"strategies\"");
        for (const auto &name : strategies) {
            auto strategy = parseStrategy(model::stringOr(name, ""));
            if (!strategy)
                return invalid(where, "unknown strategy " + name.dump());
            step.sweepStrategies.push_back(*strategy);
        }
    }
    return step;
}

} // namespace

std::string ScenarioStep::actionName(Action action)
{
    for (const auto &info : ACTIONS) {
        if (info.action == action)
            return info.name;
    }
    return "?";
}

model::Result<Scenario> Scenario::fromJson(const nlohmann::json &json)
{
    if (!json.is_object())
        return invalid("file", "must be a JSON object");
    Scenario scenario;
    scenario.name = model::stringOr(model::member(json, "name"), "");
    scenario.title = model::stringOr(model::member(json, "title"), scenario.name);
    scenario.description = model::stringOr(model::member(json, "description"), "");
    if (scenario.name.empty())
        return invalid("file", "needs a \"name\"");
    const auto &objects = model::member(json, "objects");
    if (!objects.is_null() && !objects.is_array())
        return invalid("file", "\"objects\" must be a list of objects");
    for (const auto &object : objects) {
        if (!object.is_object())
            return invalid("file", "\"objects\" must be a list of objects");
        scenario.objects.push_back(object);
    }
    const auto &steps = model::member(json, "steps");
    if (!steps.is_array() || steps.empty())
        return invalid("file", "needs a non-empty \"steps\" list");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        auto step = parseStep(steps[i], "step " + std::to_string(i + 1));
        if (!step)
            return std::move(step).error();
        scenario.steps.push_back(std::move(step).value());
    }
    if (const auto &access = model::member(json, "access"); !access.is_null()) {
        auto parsed = ScenarioAccess::fromJson(access);
        if (!parsed)
            return std::move(parsed).error();
        scenario.access = std::move(parsed).value();
        for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
            const ScenarioStep &step = scenario.steps[i];
            if (step.action != Action::Note && step.action != Action::Compact && step.action != Action::Fault
                && !scenario.access->identity(step.client))
                return invalid("step " + std::to_string(i + 1),
                               "client \"" + step.client + "\" has no identity: name it in \"access\".\"users\" "
                               "(\"anonymous\" for a client without credentials)");
        }
    }
    for (const auto &check : model::member(json, "checks")) {
        ScenarioCheck parsed;
        parsed.checker = model::stringOr(model::member(check, "checker"), "");
        parsed.key = model::stringOr(model::member(check, "key"), "");
        parsed.path = model::stringOr(model::member(check, "path"), "data.counter");
        parsed.expectPass = model::stringOr(model::member(check, "expect"), "pass") != "fail";
        if (parsed.checker != "lost-update" && parsed.checker != "linearizability" && parsed.checker != "watch")
            return invalid("checks", "checker must be lost-update, linearizability or watch");
        if (parsed.checker == "lost-update" && parsed.key.empty())
            return invalid("checks", "a lost-update check needs the counter object's \"key\"");
        scenario.checks.push_back(std::move(parsed));
    }
    return scenario;
}

model::Result<Scenario> Scenario::parse(const std::string &text)
{
    const std::optional<nlohmann::json> json = model::parseJson(text);
    if (!json)
        return model::errors::badRequest("scenario file: not valid JSON");
    return fromJson(*json);
}

} // namespace rvscope::sim
