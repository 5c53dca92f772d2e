// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <qcoro/qcorotask.h>

#include "engine/ClientValues.h"
#include "engine/EngineTypes.h"
#include "engine/ScenarioValues.h"

class QProcess;

namespace rvscope::storage {
class MemoryStorage;
class WatchHandle;
}
namespace rvscope::registry {
class Registry;
}
namespace rvscope::api {
class ApiHandler;
class Watcher;
class BulkWatchSession;
}
namespace rvscope::server {
class ApiServer;
}
namespace rvscope::history {
class Journal;
}
namespace rvscope::sim {
class NodeGraphFeeder;
class ScenarioPlayer;
class Transport;
class Workload;
struct CheckResult;
struct StepResult;
}

namespace rvscope::engine {

// Everything of the core, living in the core thread: storage, registry, API handler, the
// operation journal, the embedded server, scenarios and competing clients. Created and
// driven by the Engine only; its slots run in the core thread (queued), its signals carry
// values. Operations reach the GUI in batches from the stats timer (~33 ms), never one
// signal per operation.
class CoreWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreWorker)

public:
    explicit CoreWorker(EngineOptions options);
    ~CoreWorker() override;

    // Runs a request from the Engine now, or, while the core is being (re)built, once it
    // is: requests run in the order they came, never on a half-built core.
    void whenReady(std::function<void()> request);

public Q_SLOTS:
    void start();
    void startServer(const QHostAddress &address, quint16 port);
    void stopServer();
    void compact();

    // Scenarios (CoreWorkerScenario.cpp).
    void loadScenario(const QString &nameOrPath, quint64 seed);
    void playScenario();
    void pauseScenario();
    void stepScenario();
    void stepBackScenario();
    void restartScenario();
    void setScenarioSpeed(double speed);

    // Competing clients (CoreWorkerClients.cpp).
    void launchClients(const rvscope::engine::ClientLaunch &launch);
    void stopClients();

    // Watches opened from the GUI (CoreWorkerWatches.cpp).
    void openWatch(const QString &collection, const QString &fromResourceVersion);
    void closeWatch(quint64 id);

    // History (CoreWorkerHistory.cpp).
    void exportHistory(const QString &path);
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
    QCoro::Task<> startCore(ScenarioList builtIns);
    // `durable`: the storages come from EngineOptions::dataDir when it is set. The caller
    // holds a RebuildGuard.
    QCoro::Task<> buildCore(bool durable);
    QCoro::Task<> compactAll(std::vector<std::shared_ptr<storage::MemoryStorage>> storages);
    std::shared_ptr<storage::MemoryStorage> makeStorage(bool durable, const std::string &series);
    void handleStatsTimer();
    void flushOperations();
    void flushWatchEvents();
    QCoro::Task<> startWatch(QString collection, QString fromResourceVersion);
    void emitScenarioState();
    // A fresh core and a player for the loaded scenario, run to step `runTo`.
    QCoro::Task<> createPlayer(std::size_t runTo);
    void handleStepCompleted(const sim::StepResult &result);
    void handleScenarioFinished(const std::vector<sim::CheckResult> &checks);
    // A member coroutine, not a lambda: a lambda's captures die with the lambda object.
    QCoro::Task<> driveWorkload(std::shared_ptr<sim::Workload> workload);
    void finishWorkload(const std::shared_ptr<sim::Workload> &workload);
    void handleProcessFinished(QProcess *process);

    EngineOptions m_options;
    int m_rebuilding = 0; // RebuildGuards alive
    std::deque<std::function<void()>> m_deferred; // the Engine's requests held back meanwhile
    std::shared_ptr<storage::MemoryStorage> m_storage; // the main revision series
    // EngineOptions::separateStorage: group resource -> its storage (its own series).
    std::map<std::string, std::shared_ptr<storage::MemoryStorage>> m_separateStorage;
    // The main storage first, then every separate one.
    std::vector<std::shared_ptr<storage::MemoryStorage>> allStorages() const;
    std::shared_ptr<registry::Registry> m_registry;
    std::shared_ptr<api::ApiHandler> m_handler;
    std::shared_ptr<history::Journal> m_journal;
    std::unique_ptr<server::ApiServer> m_server;
    QHostAddress m_serverAddress;
    QTimer *m_statsTimer = nullptr;
    CoreStats m_lastStats;
    bool m_operationBatchesWanted = false;
    bool m_watchEventBatchesWanted = false;
    std::uint64_t m_nextBatchId = 1;
    std::uint64_t m_watchEventsSent = 0; // deliveries ever appended to the journal and sent
    // Access control (CoreWorkerAccess.cpp): built from the options with the core.
    void buildAccessControl();
    void recheckWatches();
    QString m_accessError; // why access control could not be set up (the server refuses to start)
    QString m_storageError; // a --separate-storage type that is not served (likewise)
    std::shared_ptr<sim::NodeGraphFeeder> m_nodeGraphFeeder; // feeds the node authorizer's graph
    // The in-process transport for the GUI's own requests (watches, launched clients): as
    // the current scenario's setup identity when it has an "access" section.
    std::shared_ptr<sim::Transport> guiTransport() const;
    std::string m_guiToken;
    QTimer *m_aclTimer = nullptr;
    std::map<quint64, std::shared_ptr<api::Watcher>> m_guiWatches;

    // Bulk watch sessions of the server (CoreWorkerBulk.cpp), checked on the stats timer.
    void reportBulkSessions();
    struct KnownBulkSession {
        std::weak_ptr<api::BulkWatchSession> session;
        quint64 id = 0;
    };
    std::map<const api::BulkWatchSession *, KnownBulkSession> m_bulkIds;
    quint64 m_nextBulkId = 1;
    std::vector<std::pair<const api::BulkWatchSession *, std::size_t>> m_bulkFingerprint;
    unsigned m_bulkTicks = 0;
    BulkSessionList m_lastBulkSessions;

    // Scenario.
    QString m_scenarioSource;
    quint64 m_scenarioSeed = 1;
    std::unique_ptr<sim::ScenarioPlayer> m_player;

    // Clients.
    std::vector<std::shared_ptr<sim::Workload>> m_workloads;
    // The `rvscope client` processes of one launch and the summaries they printed.
    struct ProcessGroup {
        std::vector<QProcess *> processes;
        int running = 0;
        WorkloadReport report;
        QStringList errors;
    };
    std::vector<std::unique_ptr<ProcessGroup>> m_processGroups;
};

} // namespace rvscope::engine
