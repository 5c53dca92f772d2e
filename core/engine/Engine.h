// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QObject>

#include "engine/ClientValues.h"
#include "engine/CoreThread.h"
#include "engine/EngineTypes.h"
#include "engine/ScenarioValues.h"

namespace rvscope::engine {

class CoreWorker;

// The GUI's only door to the core. Lives in the GUI thread and owns the core thread, in
// which a CoreWorker holds storage, registry, the journal, the embedded server, scenarios
// and clients. Requests are imperative and return at once (they are queued to the core
// thread); results arrive as past-tense signals carrying values: operations in batches and
// stats at most every ~33 ms. Nothing here blocks.
class Engine final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Engine)

public:
    explicit Engine(EngineOptions options = {}, QObject *parent = nullptr);
    // Stops the core thread and waits for it (the server's sockets close with it).
    ~Engine() override;

    void startServer(const QHostAddress &address, quint16 port);
    void stopServer();
    void compact();

    // Fault rules of the served API, as at /rvscope/v1/faults: each answers with
    // faultRulesReported (the rules after it, and a bad rule's error).
    void addFaultRule(const QString &rule);
    void removeFaultRule(quint64 id);
    void clearFaultRules();
    void fetchFaultRules();

    // A built-in scenario by name, or a scenario file. It starts from a fresh core (the
    // journal is reset: historyReset) and waits paused at step 0.
    void loadScenario(const QString &nameOrPath, quint64 seed = 1);
    void playScenario();
    void pauseScenario();
    void stepScenario();
    // Replays from a fresh core up to the step before the current one.
    void stepBackScenario();
    void restartScenario();
    // 1 = real time, 2 = twice as fast, 0 = as fast as possible.
    void setScenarioSpeed(double speed);

    void launchClients(const ClientLaunch &launch);
    void stopClients();

    // Opens a watch on `collection` ("configmaps/default", "configmaps", "leases/kube-node-lease")
    // from a resourceVersion ("" = now, "0" = current state first): watchOpened, then its
    // events arrive in watchEventsRecorded with watcherId "watch-<id>".
    void openWatch(const QString &collection, const QString &fromResourceVersion = {});
    void closeWatch(quint64 id);

    // JSON Lines; a Secret's values are redacted unless `includeSecrets`.
    void exportHistory(const QString &path, bool includeSecrets = false);
    void importHistory(const QString &path);
    // Runs the checkers on the current history: verdictsReady.
    void checkHistory();
    // Everything journaled about one operation: operationDetailReady (summary.id 0 when it
    // is no longer in the bounded journal).
    void fetchOperation(quint64 id);
    // The object of `key` as committed at `resourceVersion`: objectVersionReady (empty if
    // not journaled).
    void fetchObjectVersion(const QString &key, qint64 resourceVersion);
    void clearHistory();

    // What the engine was built with (the command line's options).
    const EngineOptions &options() const { return m_options; }
    // Whether operations are journaled: off (EngineOptions::journalCapacity() 0), the
    // timeline, the tables and the checkers have no history to show.
    bool journalEnabled() const { return m_options.journalCapacity() > 0; }
    const ServerState &serverState() const { return m_serverState; }
    const CoreStats &stats() const { return m_stats; }
    const ScenarioState &scenarioState() const { return m_scenarioState; }
    const ScenarioList &builtInScenarios() const { return m_builtIns; }
    // The embedded server's open bulk watch sessions, as last reported (bulkSessionsChanged).
    const BulkSessionList &bulkSessions() const { return m_bulkSessions; }

Q_SIGNALS:
    void coreStarted();
    void serverStateChanged(const rvscope::engine::ServerState &state);
    void statsUpdated(const rvscope::engine::CoreStats &stats);
    void operationsRecorded(const rvscope::engine::OperationBatch &batch);
    // Events delivered on every journaled watch since the last batch (~33 ms).
    void watchEventsRecorded(const rvscope::engine::WatchEventBatch &batch);
    void watchOpened(const rvscope::engine::WatchChannel &channel);
    // The open bulk watch sessions and their channels, when a session or a channel opened or
    // closed (at most every ~33 ms; all of them each time).
    void bulkSessionsChanged(const rvscope::engine::BulkSessionList &sessions);
    // The journal was replaced (new scenario run, import, clear): drop what you hold.
    void historyReset();
    void scenarioLoaded(const rvscope::engine::ScenarioInfo &info);
    void scenarioStateChanged(const rvscope::engine::ScenarioState &state);
    void scenarioStepCompleted(const rvscope::engine::StepReport &step);
    void verdictsReady(const rvscope::engine::VerdictList &verdicts);
    void workloadFinished(const rvscope::engine::WorkloadReport &report);
    void operationDetailReady(const rvscope::engine::OperationDetail &detail);
    void objectVersionReady(const QString &key, qint64 resourceVersion, const QByteArray &object);
    void historyExported(const QString &path, const QString &error);
    void historyImported(const QString &path, int operations, const QString &error);
    void errorOccurred(const QString &message);
    void faultRulesReported(const rvscope::engine::FaultRuleList &rules, const QString &error);

protected:
    // The core builds operation and watch-event batches only once someone receives them.
    void connectNotify(const QMetaMethod &signal) override;

private:
    template<typename Method, typename... Args>
    void post(Method method, Args... args);

    EngineOptions m_options;
    CoreThread m_coreThread;
    CoreWorker *m_worker = nullptr;
    ServerState m_serverState;
    CoreStats m_stats;
    ScenarioState m_scenarioState;
    ScenarioList m_builtIns;
    BulkSessionList m_bulkSessions;
};

} // namespace rvscope::engine
