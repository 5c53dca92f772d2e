// SPDX-License-Identifier: MIT
// CoreWorker: builds the core, holds requests back while it does, composes the
// controllers and reports the stats. The work itself is in the controllers.
#include "engine/CoreWorker.h"

#include <QtCore/QTimer>

#include "api/ApiHandler.h"
#include "engine/AccessController.h"
#include "engine/GuiWatchController.h"
#include "engine/HistoryController.h"
#include "engine/JournalFeed.h"
#include "engine/RemoteWriteFeed.h"
#include "engine/ScenarioController.h"
#include "engine/ServerController.h"
#include "engine/WorkloadController.h"
#include "faults/FaultSet.h"
#include "registry/Registry.h"
#include "storage/Storage.h"

namespace rvscope::engine {
namespace {
constexpr int STATS_INTERVAL_MS = 33;
} // namespace

CoreWorker::CoreWorker(EngineOptions options)
    : m_options(std::move(options))
    , m_feed(std::make_unique<JournalFeed>(m_core, this))
    , m_remoteWrites(std::make_unique<RemoteWriteFeed>(m_core, this))
    , m_access(std::make_unique<AccessController>(m_options, m_core, this))
    , m_watches(std::make_unique<GuiWatchController>(m_core, *m_access, this))
    , m_server(std::make_unique<ServerController>(m_options, m_core, *m_access, this))
    , m_history(std::make_unique<HistoryController>(m_options, m_core, *m_feed, this))
    , m_workloads(std::make_unique<WorkloadController>(m_options, *m_access, *m_server, *m_feed, this))
    , m_scenarios(std::make_unique<ScenarioController>(
          m_core, *m_access, *m_feed, [this](std::function<void()> then) { freshCore(std::move(then)); }, this))
{
    forwardSignals();
}

CoreWorker::~CoreWorker()
{
    // The scenario's player first, then launched clients, then the server's watches,
    // all before the core they run on.
    m_scenarios.reset();
    m_workloads.reset();
    m_server.reset();
}

void CoreWorker::forwardSignals()
{
    connect(m_feed.get(), &JournalFeed::operationsRecorded, this, &CoreWorker::operationsRecorded);
    connect(m_feed.get(), &JournalFeed::watchEventsRecorded, this, &CoreWorker::watchEventsRecorded);
    connect(m_watches.get(), &GuiWatchController::watchOpened, this, &CoreWorker::watchOpened);
    connect(m_server.get(), &ServerController::serverStateChanged, this, &CoreWorker::serverStateChanged);
    connect(m_server.get(), &ServerController::bulkSessionsChanged, this, &CoreWorker::bulkSessionsChanged);
    connect(m_history.get(), &HistoryController::historyReset, this, &CoreWorker::historyReset);
    connect(m_history.get(), &HistoryController::historyExported, this, &CoreWorker::historyExported);
    connect(m_history.get(), &HistoryController::historyImported, this, &CoreWorker::historyImported);
    connect(m_history.get(), &HistoryController::verdictsReady, this, &CoreWorker::verdictsReady);
    connect(m_history.get(), &HistoryController::operationDetailReady, this, &CoreWorker::operationDetailReady);
    connect(m_history.get(), &HistoryController::objectVersionReady, this, &CoreWorker::objectVersionReady);
    connect(m_workloads.get(), &WorkloadController::workloadFinished, this, &CoreWorker::workloadFinished);
    connect(m_scenarios.get(), &ScenarioController::scenarioLoaded, this, &CoreWorker::scenarioLoaded);
    connect(m_scenarios.get(), &ScenarioController::scenarioStateChanged, this, &CoreWorker::scenarioStateChanged);
    connect(m_scenarios.get(), &ScenarioController::scenarioStepCompleted, this, &CoreWorker::scenarioStepCompleted);
    connect(m_scenarios.get(), &ScenarioController::verdictsReady, this, &CoreWorker::verdictsReady);
    connect(m_scenarios.get(), &ScenarioController::errorOccurred, this, &CoreWorker::errorOccurred);
}

CoreWorker::RebuildGuard::RebuildGuard(CoreWorker *worker)
    : m_worker(worker)
{
    ++worker->m_rebuilding;
}

CoreWorker::RebuildGuard::~RebuildGuard()
{
    if (m_worker && --m_worker->m_rebuilding == 0)
        m_worker->runDeferred();
}

void CoreWorker::whenReady(std::function<void()> request)
{
    if (m_rebuilding == 0 && m_deferred.empty()) {
        request();
        return;
    }
    m_deferred.push_back(std::move(request));
}

void CoreWorker::runDeferred()
{
    // In order; a request that rebuilds the core holds the rest back again.
    while (m_rebuilding == 0 && !m_deferred.empty()) {
        std::function<void()> request = std::move(m_deferred.front());
        m_deferred.pop_front();
        request();
    }
}

QCoro::Task<> CoreWorker::buildCore(bool durable)
{
    QPointer<CoreWorker> self(this);
    Core core = co_await Core::build(m_options, durable);
    if (!self)
        co_return;
    m_core = std::move(core);
    m_access->handleCoreRebuilt();
    m_feed->handleCoreRebuilt();
    m_watches->handleCoreRebuilt();
    m_remoteWrites->follow();
}

void CoreWorker::start()
{
    startCore(ScenarioController::builtIns());
}

QCoro::Task<> CoreWorker::startCore(ScenarioList builtIns)
{
    QPointer<CoreWorker> self(this);
    const RebuildGuard guard(this);
    co_await buildCore(/*durable=*/true);
    if (!self)
        co_return;
    auto *statsTimer = new QTimer(this);
    connect(statsTimer, &QTimer::timeout, this, &CoreWorker::handleStatsTimer);
    statsTimer->start(STATS_INTERVAL_MS);
    m_access->startRecheckTimer();
    Q_EMIT started(builtIns);
}

QCoro::Task<> CoreWorker::freshCore(std::function<void()> then)
{
    QPointer<CoreWorker> self(this);
    const RebuildGuard guard(this);
    const bool serving = m_server->running();
    const quint16 port = m_server->port();
    if (serving)
        m_server->stop();
    // The fault rules a person set (the command line's, the window's, the endpoint's) stay
    // in force in the fresh lab, with their ids, as a changed setting would; a scenario's own
    // do not.
    const std::shared_ptr<api::ApiHandler> previous = m_core.handler;
    co_await buildCore(/*durable=*/false);
    if (!self)
        co_return;
    m_core.handler->faults().takeOver(previous->faults());
    m_core.faultError.clear(); // the rules in force replace the command line's
    reportFaultRules(QString());
    Q_EMIT historyReset();
    if (serving)
        m_server->start(m_server->address(), port);
    then();
}

void CoreWorker::handleStatsTimer()
{
    if (m_rebuilding > 0)
        return; // a scenario's fresh core is on its way: report it once it is there
    m_feed->flush();
    m_server->reportBulkSessions();
    CoreStats stats;
    stats.revision = m_core.storage->knownRevision();
    for (const auto &storage : m_core.allStorages())
        stats.objects += storage->knownObjectCount();
    stats.openWatches = m_server->openWatchCount();
    stats.bulkSessions = m_server->bulkSessionCount();
    const watch::WatchHubStats fanOut = m_core.registry->watchStats();
    stats.storageWatches = std::size_t(fanOut.upstreams + fanOut.directWatchers);
    for (const auto &[type, storage] : m_core.separateStorage)
        stats.separateRevisions.append({QString::fromStdString(type), storage->knownRevision()});
    // A batch only when something changed: the GUI is not woken up for nothing.
    if (!(stats == m_lastStats)) {
        m_lastStats = stats;
        Q_EMIT statsReady(stats);
    }
}

void CoreWorker::compact()
{
    compactAll(m_core.allStorages());
}

QCoro::Task<> CoreWorker::compactAll(std::vector<std::shared_ptr<storage::Storage>> storages)
{
    // Every series at its own current revision.
    QPointer<CoreWorker> self(this);
    for (const auto &storage : storages) {
        auto current = co_await storage->currentRevision();
        if (!current) {
            if (self)
                Q_EMIT errorOccurred(QString::fromStdString(current.error().message));
            continue;
        }
        auto compacted = co_await storage->compact(*current);
        if (!compacted && self)
            Q_EMIT errorOccurred(QString::fromStdString(compacted.error().message));
    }
}

void CoreWorker::addFaultRule(const QString &rule)
{
    auto added = m_core.handler->faults().add(rule.toStdString());
    reportFaultRules(added ? QString() : QString::fromStdString(added.error().message));
}

void CoreWorker::removeFaultRule(quint64 id)
{
    m_core.handler->faults().remove(id);
    reportFaultRules(QString());
}

void CoreWorker::clearFaultRules()
{
    m_core.handler->faults().clear();
    reportFaultRules(QString());
}

void CoreWorker::reportFaultRules(const QString &error)
{
    FaultRuleList rules;
    for (const faults::FaultSet::Entry &entry : m_core.handler->faults().entries())
        rules.push_back({entry.id, QString::fromStdString(entry.rule.text), entry.matched, entry.fired, entry.spent()});
    Q_EMIT faultRulesReported(rules, error);
}

// The Engine's requests (through whenReady), as the controllers take them.

void CoreWorker::startServer(const QHostAddress &address, quint16 port)
{
    m_server->start(address, port);
}

void CoreWorker::stopServer()
{
    m_server->stop();
}

void CoreWorker::loadScenario(const QString &nameOrPath, quint64 seed)
{
    m_scenarios->load(nameOrPath, seed);
}

void CoreWorker::playScenario()
{
    m_scenarios->play();
}

void CoreWorker::pauseScenario()
{
    m_scenarios->pause();
}

void CoreWorker::stepScenario()
{
    m_scenarios->step();
}

void CoreWorker::stepBackScenario()
{
    m_scenarios->stepBack();
}

void CoreWorker::restartScenario()
{
    m_scenarios->restart();
}

void CoreWorker::setScenarioSpeed(double speed)
{
    m_scenarios->setSpeed(speed);
}

void CoreWorker::launchClients(const ClientLaunch &launch)
{
    m_workloads->launch(launch);
}

void CoreWorker::stopClients()
{
    m_workloads->stop();
}

void CoreWorker::openWatch(const QString &collection, const QString &fromResourceVersion)
{
    m_watches->openWatch(collection, fromResourceVersion);
}

void CoreWorker::closeWatch(quint64 id)
{
    m_watches->closeWatch(id);
}

void CoreWorker::exportHistory(const QString &path, bool includeSecrets)
{
    m_history->exportHistory(path, includeSecrets);
}

void CoreWorker::importHistory(const QString &path)
{
    m_history->importHistory(path);
}

void CoreWorker::checkHistory()
{
    m_history->checkHistory();
}

void CoreWorker::fetchOperation(quint64 id)
{
    m_history->fetchOperation(id);
}

void CoreWorker::fetchObjectVersion(const QString &key, qint64 resourceVersion)
{
    m_history->fetchObjectVersion(key, resourceVersion);
}

void CoreWorker::clearHistory()
{
    m_history->clearHistory();
}

void CoreWorker::sendOperationBatches()
{
    m_feed->sendOperationBatches();
}

void CoreWorker::sendWatchEventBatches()
{
    m_feed->sendWatchEventBatches();
}

} // namespace rvscope::engine
