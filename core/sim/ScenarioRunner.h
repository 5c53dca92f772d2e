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
class WatchStream;
}

namespace rvscope::sim {

class Clock;
class Transport;
class Workload;

// What a scenario needs from the core it runs in.
struct ScenarioContext final {
    std::shared_ptr<Transport> transport;
    std::shared_ptr<Clock> clock;
    std::shared_ptr<history::Journal> journal; // watch deliveries are recorded here; checks read it
    // Compacts storage at its current revision; returns that revision.
    std::function<QCoro::Task<model::Result<std::int64_t>>()> compact;
    std::uint64_t seed = 1; // mixed into every workload's seed
};

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
    std::string outcome;                 // one line: what the server answered
    std::vector<std::string> details;    // watch events, workload and sweep tables
    std::string explain;
};

struct CheckResult final {
    ScenarioCheck check;
    history::Verdict verdict;
    bool asExpected() const { return verdict.passed() == check.expectPass && verdict.outcome != history::Verdict::Outcome::Unknown; }
};

// Executes a scenario's steps one at a time against the core (through the transport, so
// every request is journaled like any other client's). Each named client remembers the last
// object it read per key and the last list revision per collection; update and patch steps
// build on those. Watches stay open until stop() and record every delivery in the journal
// (watcher "<client>/<collection>#<n>"). Core thread only; hold by shared_ptr.
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
    void openWatch(const ScenarioStep &step, std::shared_ptr<api::WatchStream> stream, StepResult &result);
    ClientState &client(const std::string &name);

    Scenario m_scenario;
    ScenarioContext m_context;
    std::size_t m_next = 0;
    std::map<std::string, std::unique_ptr<ClientState>> m_clients;
    std::vector<std::shared_ptr<OpenWatch>> m_watches;
    std::shared_ptr<Workload> m_workload;
    std::shared_ptr<std::vector<std::string>> m_pendingEvents = std::make_shared<std::vector<std::string>>();
};

} // namespace rvscope::sim
