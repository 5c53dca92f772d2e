// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <qcoro/qcorotask.h>

#include "history/Verdict.h"
#include "model/Result.h"
#include "sim/Scenario.h"

namespace rvscope::history {
class Journal;
}
namespace rvscope::api {
class ApiHandler;
class Watcher;
}

namespace rvscope::sim {

class Clock;
class NodeGraphFeeder;
class Transport;
class Workload;

// What a scenario needs from the core it runs in.
struct ScenarioContext final {
    std::shared_ptr<Transport> transport;
    std::shared_ptr<Clock> clock;
    std::shared_ptr<history::Journal> journal; // watch deliveries are recorded here; checks read it
    // Compacts storage at its current revision; returns that revision.
    std::function<QCoro::Task<model::Result<std::int64_t>>()> compact;
    // Adds a fault rule to the served API's (its id), or with "clear" removes them all.
    std::function<model::Result<std::uint64_t>(const std::string &rule)> fault;
    std::uint64_t seed = 1; // mixed into every workload's seed
    // For a scenario with an "access" section (installScenarioAccess sets it): the feeder of
    // the installed access control's node graph. The runner runs its queued watch re-check
    // at the end of every step, so that the ERROR 403 a step's pod change causes is reported
    // by that step, whatever the event loop does.
    std::shared_ptr<NodeGraphFeeder> nodeGraph;
};

// ScenarioContext::fault for a served API: rules go to `handler`'s fault rules (held weakly).
std::function<model::Result<std::uint64_t>(const std::string &rule)> faultRulesOf(std::shared_ptr<api::ApiHandler> handler);

// The outcome of one step, as the explanation panel and `rvscope scenario run` show it.
struct StepResult final {
    std::size_t index = 0; // 0-based
    std::string client;
    std::string action;
    std::string object;
    int status = 0;
    std::string reason;
    std::string message;
    std::string resourceVersionSent;
    std::string resourceVersionProduced;
    bool expectationMet = true;
    std::string outcome;                 // one line: what the server answered (and watches it ended)
    std::vector<std::string> details;    // watch events (ERRORs included), workload and sweep tables
    std::string explain;
};

struct CheckResult final {
    ScenarioCheck check;
    history::Verdict verdict;
    // Only a decided verdict can meet the expectation (not Unknown, not NoHistory).
    bool asExpected() const { return (verdict.passed() || verdict.failed()) && verdict.passed() == check.expectPass; }
};

// Executes a scenario's steps one at a time against the core (through the transport, so
// every request is journaled like any other client's). Each named client remembers the last
// object it read per key and the last list revision per collection; update and patch steps
// build on those. Watches stay open until stop() (or the server ends them with an ERROR
// event) and record every delivery in the journal (watcher "<client>/<object>#<n>"); the
// events a step causes are its details. With an access section each client's requests carry
// its bearer token (workloads: the step's client's). Core thread only; hold by shared_ptr.
class ScenarioRunner final : public std::enable_shared_from_this<ScenarioRunner> {
public:
    ScenarioRunner(Scenario scenario, ScenarioContext context);
    ~ScenarioRunner();

    const Scenario &scenario() const { return m_scenario; }
    // Creates the scenario's objects (client "setup"). Call once before the first step.
    QCoro::Task<> setup();
    std::size_t nextStep() const { return m_next; }
    bool finished() const { return m_next >= m_scenario.steps.size(); }
    // Runs the next step to its end (workloads included: drive the clock meanwhile).
    QCoro::Task<StepResult> runNext();
    std::vector<CheckResult> runChecks() const;
    // Stops a running workload and closes every watch.
    void stop();

private:
    struct ClientState;
    struct OpenWatch;
    QCoro::Task<StepResult> runStep(ScenarioStep step, std::size_t index);
    QCoro::Task<> runWorkload(ScenarioStep step, StepResult *result);
    QCoro::Task<> runSweep(ScenarioStep step, StepResult *result);
    // Adds "manages <manager> (<operation>): <fields>" details for an object some applier manages.
    static void describeOwnership(const nlohmann::json &object, StepResult &result);
    void openWatch(const ScenarioStep &step, std::shared_ptr<api::Watcher> stream, StepResult &result);
    ClientState &client(const std::string &name);
    // The transport of a client: with its identity's bearer token when it has one.
    std::shared_ptr<Transport> transportFor(const std::string &client);
    void reportWatchEvents(StepResult &result, const ScenarioStep &step);

    Scenario m_scenario;
    ScenarioContext m_context;
    std::size_t m_next = 0;
    std::map<std::string, std::unique_ptr<ClientState>> m_clients;
    std::vector<std::shared_ptr<OpenWatch>> m_watches;
    std::shared_ptr<Workload> m_workload;
    std::map<std::string, std::shared_ptr<Transport>> m_transports; // by client
    // Watch events since the last step reported (one line each), and among them the ERRORs.
    struct PendingError {
        std::string watcher;
        int code = 0;
        std::string reason;
        bool opening = false; // the watch request's own answer (410 for a too old resourceVersion)
    };
    struct PendingEvents {
        std::vector<std::string> lines;
        std::vector<PendingError> errors;
    };
    std::shared_ptr<PendingEvents> m_pendingEvents = std::make_shared<PendingEvents>();
};

} // namespace rvscope::sim
