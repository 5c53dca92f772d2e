// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/Result.h"
#include "sim/ClientSpec.h"
#include "sim/ScenarioAccess.h"

namespace rvscope::sim {

// One scripted step, done by a named client (format in README, "Scenario files").
struct ScenarioStep final {
    enum class Action { Get, List, Create, Update, Patch, Delete, Watch, Compact, Workload, Sweep, Note, Fault };
    Action action = Action::Note;
    std::string client = "scenario";
    std::string object;             // "configmaps/default/foo"; for list/watch "configmaps/default"
    nlohmann::json set;             // update: {"data.owner": "c1", "data.counter": "+1"} on the client's last read
    bool omitResourceVersion = false; // update: send no resourceVersion (unconditional)
    nlohmann::json body;            // create/update: a literal object; patch: the literal patch
    std::string patchType = "merge"; // merge, json, strategic, apply
    bool withResourceVersion = false; // patch/delete: carry the last read resourceVersion
    std::string fieldManager;       // apply: the field manager (default: the client's name)
    bool force = false;             // apply: take fields other managers own
    std::string from;               // watch: "" (now), "0", "list" (the client's last list) or a revision
    std::optional<int> expect;      // the status code this step should get
    std::optional<int> expectWatchError; // an open watch should get an ERROR event with this code during the step
    ClientSpec workload;            // workload
    std::vector<WriteStrategy> sweepStrategies; // sweep: each strategy ...
    std::vector<int> sweepClients;  // ... at each client count, on fresh objects
    std::string rule;               // fault: a fault rule to add (README "Fault injection"), or "clear" (its own)
    std::string explain;            // what happens and why, for the teacher to read

    static std::string actionName(Action action);
};

// A checker the scenario runs at its end, and the outcome it expects (a lost-update
// scenario expects the lost-update checker to fail on the blind writer's key).
struct ScenarioCheck final {
    std::string checker; // "lost-update", "linearizability" or "watch"
    std::string key;     // lost-update: the counter object
    std::string path = "data.counter";
    bool expectPass = true;
};

struct Scenario final {
    std::string name;  // "lost-update"
    std::string title;
    std::string description;
    std::vector<nlohmann::json> objects; // created before the first step, by client "setup"
    std::vector<ScenarioStep> steps;
    std::vector<ScenarioCheck> checks;
    // With an "access" section every request carries its client's bearer token, and the core
    // must install accessControlFor(*this) (see ScenarioAccess.h); without, access is the core's.
    std::optional<ScenarioAccess> access;

    // Parses and validates the JSON form; errors are 400 Statuses naming the step (or the
    // access section). With an access section, every client that sends requests must have
    // an identity in it.
    static model::Result<Scenario> fromJson(const nlohmann::json &json);
    static model::Result<Scenario> parse(const std::string &text);
};

} // namespace rvscope::sim
