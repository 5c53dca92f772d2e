// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <qcoro/qcorotask.h>

#include "engine/ClientValues.h"
#include "engine/Core.h"
#include "engine/EngineTypes.h"
#include "engine/ScenarioValues.h"

namespace rvscope::engine {

class AccessController;
class GuiWatchController;
class HistoryController;
class JournalFeed;
class RemoteWriteFeed;
class ScenarioController;
class ServerController;
class WorkloadController;

// The core thread's root: holds the current Core and the controllers that work on it (the
// server, the journal's batches, history, scenarios, competing clients, access control,
// the GUI's watches), and hands them the Engine's requests once the core is built. Created
// and driven by the Engine only; its slots run in the core thread (queued), its signals
// carry values (the controllers' own, forwarded). Operations reach the GUI in batches from
// the stats timer (~33 ms), never one signal per operation.
class CoreWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreWorker)

public:
    explicit CoreWorker(EngineOptions options);
    ~CoreWorker() override;

    // Runs a request from the Engine now, or, while the core is being (re)built, once it
    // is: requests run in the order they came, never on a half-built core.
    void whenReady(std::function<void()> request);

    // The Engine's requests, each handed to the controller that holds what it is about.
public Q_SLOTS:
    void start();
    void startServer(const QHostAddress &address, quint16 port);
    void stopServer();
    void compact();

    void addFaultRule(const QString &rule);
    void removeFaultRule(quint64 id);
    void clearFaultRules();
    void fetchFaultRules() { reportFaultRules(QString()); }
    void reportFaultRules(const QString &error);

    void loadScenario(const QString &nameOrPath, quint64 seed);
    void playScenario();
    void pauseScenario();
    void stepScenario();
    void stepBackScenario();
    void restartScenario();
    void setScenarioSpeed(double speed);

    void launchClients(const rvscope::engine::ClientLaunch &launch);
    void stopClients();

    void openWatch(const QString &collection, const QString &fromResourceVersion);
    void closeWatch(quint64 id);

    void exportHistory(const QString &path, bool includeSecrets);
    void importHistory(const QString &path);
    void checkHistory();
    void fetchOperation(quint64 id);
    // The journaled object of `key` committed at `resourceVersion` (Objects panel diffs).
    void fetchObjectVersion(const QString &key, qint64 resourceVersion);
    void clearHistory();

    // Someone receives operationsRecorded / watchEventsRecorded: from now on the journal is
    // summarized into batches for them (headless, nobody does, and nothing is built).
    void sendOperationBatches();
    void sendWatchEventBatches();

Q_SIGNALS:
    void started(const rvscope::engine::ScenarioList &builtIns);
    void serverStateChanged(const rvscope::engine::ServerState &state);
    void statsReady(const rvscope::engine::CoreStats &stats);
    void operationsRecorded(const rvscope::engine::OperationBatch &batch);
    void watchEventsRecorded(const rvscope::engine::WatchEventBatch &batch);
    void watchOpened(const rvscope::engine::WatchChannel &channel);
    void bulkSessionsChanged(const rvscope::engine::BulkSessionList &sessions);
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

private:
    // Holds the Engine's requests back (whenReady) while it lives: a (re)build of the core
    // takes one for as long as it runs, even while it waits on storage.
    class RebuildGuard final {
    public:
        explicit RebuildGuard(CoreWorker *worker);
        ~RebuildGuard();
        RebuildGuard(const RebuildGuard &) = delete;
        RebuildGuard &operator=(const RebuildGuard &) = delete;

    private:
        QPointer<CoreWorker> m_worker;
    };
    void runDeferred();
    void forwardSignals();
    QCoro::Task<> startCore(ScenarioList builtIns);
    // Replaces the core and tells the controllers. The caller holds a RebuildGuard.
    QCoro::Task<> buildCore(bool durable);
    // ScenarioController::FreshCore: a scenario's fresh, in-memory core; the server, if
    // running, keeps its port and serves it.
    QCoro::Task<> freshCore(std::function<void()> then);
    QCoro::Task<> compactAll(std::vector<std::shared_ptr<storage::Storage>> storages);
    void handleStatsTimer();

    EngineOptions m_options;
    int m_rebuilding = 0; // RebuildGuards alive
    std::deque<std::function<void()>> m_deferred; // the Engine's requests held back meanwhile
    Core m_core; // the controllers hold a reference: they always see the current one
    CoreStats m_lastStats;
    // Children, so that they move to the core thread with the worker; held here so that they
    // go, in the reverse order, before the core they refer to.
    std::unique_ptr<JournalFeed> m_feed;
    std::unique_ptr<RemoteWriteFeed> m_remoteWrites; // other instances' writes (shared etcd)
    std::unique_ptr<AccessController> m_access;
    std::unique_ptr<GuiWatchController> m_watches;
    std::unique_ptr<ServerController> m_server;
    std::unique_ptr<HistoryController> m_history;
    std::unique_ptr<WorkloadController> m_workloads;
    std::unique_ptr<ScenarioController> m_scenarios;
};

} // namespace rvscope::engine
