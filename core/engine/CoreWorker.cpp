// SPDX-License-Identifier: MIT
// CoreWorker: the core's construction, the embedded server, stats and operation batches.
// Scenarios, clients and history are in CoreWorkerScenario/Clients/History.cpp.
#include "engine/CoreWorker.h"

#include <algorithm>

#include <qcoro/qcorotask.h>

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "api/Watcher.h"
#include "history/Journal.h"
#include "model/SteadyClock.h"
#include "registry/Registry.h"
#include "server/ApiServer.h"
#include "storage/CommitLog.h"
#include "sim/ScenarioLibrary.h"
#include "sim/ScenarioPlayer.h"
#include "sim/Workload.h"
#include "storage/MemoryStorage.h"

namespace rvscope::engine {
namespace {
constexpr int STATS_INTERVAL_MS = 33;

// One batch carries at most this many operations; the rest follow on the next ticks, so an
// imported history of a million operations never makes one giant signal, and the GUI (a few
// µs per operation across its panels) never spends more than ~15 ms on one batch. 4000 per
// 33 ms tick is ~120k operations/s, above what 64 in-process clients flat out produce.
constexpr std::size_t MAX_BATCH = 4000;

OperationSummary summarize(const history::OperationRecord &record)
{
    OperationSummary summary;
    summary.id = record.id;
    summary.clientId = QString::fromStdString(record.clientId);
    summary.verb = QString::fromStdString(record.verb);
    summary.key = QString::fromStdString(record.key);
    summary.strategy = QString::fromStdString(record.strategy);
    summary.rvSent = std::atoll(record.resourceVersionSent.c_str());
    summary.rvProduced = std::atoll(record.resourceVersionProduced.c_str());
    summary.startNs = record.startNs;
    summary.endNs = record.endNs.value_or(-1);
    summary.statusCode = record.statusCode;
    summary.reason = QString::fromStdString(record.reason);
    summary.casRetries = record.casRetries;
    summary.noop = record.noop;
    return summary;
}
} // namespace

CoreWorker::CoreWorker(EngineOptions options)
    : m_options(std::move(options))
{
}

CoreWorker::~CoreWorker()
{
    m_player.reset();
    for (const auto &workload : m_workloads)
        workload->stop();
    if (m_server)
        m_server->closeWatches();
}

std::shared_ptr<storage::MemoryStorage> CoreWorker::makeStorage(bool durable, const std::string &series)
{
    const storage::MemoryStorage::Options options{m_options.watchHistory};
    if (!durable || m_options.dataDir.isEmpty())
        return std::make_shared<storage::MemoryStorage>(options);
    auto opened = storage::MemoryStorage::openDurable(m_options.dataDir.toStdString(), series, options);
    if (opened)
        return std::move(opened).value();
    if (m_storageError.isEmpty())
        m_storageError = QString::fromStdString(opened.error().message);
    return std::make_shared<storage::MemoryStorage>(options);
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
    m_storageError.clear();
    m_separateStorage.clear();
    m_storage = makeStorage(durable, "main");
    registry::Registry::Options registryOptions;
    for (const QString &type : m_options.separateStorage) {
        auto storage = makeStorage(durable, type.toStdString());
        m_separateStorage[type.toStdString()] = storage;
        registryOptions.separateStorage[type.toStdString()] = storage;
    }
    m_registry = std::make_shared<registry::Registry>(m_storage, registryOptions);
    for (const auto &[type, storage] : m_separateStorage) {
        const auto types = m_registry->types();
        if (std::none_of(types.begin(), types.end(), [&type](const auto &t) { return t->groupResource().toString() == type; }))
            m_storageError = QStringLiteral("--separate-storage: '%1' is not a served resource (such as events or "
                                            "leases.coordination.k8s.io)")
                                 .arg(QString::fromStdString(type));
    }
    // The namespaces a fresh apiserver has (and a data directory's CRDs). This may wait (a
    // data directory's writes, a remote storage); the Engine's requests wait meanwhile
    // (the caller holds a RebuildGuard), and nothing here spins a nested event loop.
    std::shared_ptr<registry::Registry> registry = m_registry;
    auto booted = co_await registry->bootstrap();
    if (!self)
        co_return;
    if (!booted)
        qWarning("rvscope: bootstrap failed: %s", booted.error().message.c_str());
    m_journal = std::make_shared<history::Journal>(m_options.journalCapacity());
    m_handler = std::make_shared<api::ApiHandler>(m_registry);
    std::weak_ptr<history::Journal> journal = m_journal;
    // A journal of size 0 is off: a plain fast apiserver, no history (and no GUI batches).
    if (m_options.journalCapacity() > 0) {
        m_handler->setObserver([journal](api::OperationReport &&report) -> std::uint64_t {
            auto shared = journal.lock();
            return shared ? shared->record(std::move(report)) : 0;
        });
        m_handler->setDeliveryObserver(
            [journal](std::uint64_t operationId, const std::string &resource, const registry::WatchEvent &event) {
                if (auto shared = journal.lock())
                    shared->record(history::WatchDelivery::of(operationId, resource, event, model::steadyNowNs()));
            });
    }
    buildAccessControl();
    m_nextBatchId = 1;
    m_watchEventsSent = 0;
    for (auto &[id, stream] : m_guiWatches)
        stream->close();
    m_guiWatches.clear();
}

void CoreWorker::start()
{
    ScenarioList builtIns;
    for (const sim::Scenario &scenario : sim::ScenarioLibrary::builtIns()) {
        ScenarioInfo info;
        info.name = QString::fromStdString(scenario.name);
        info.title = QString::fromStdString(scenario.title);
        info.description = QString::fromStdString(scenario.description);
        builtIns.append(info);
    }
    startCore(std::move(builtIns));
}

QCoro::Task<> CoreWorker::startCore(ScenarioList builtIns)
{
    QPointer<CoreWorker> self(this);
    const RebuildGuard guard(this);
    co_await buildCore(/*durable=*/true);
    if (!self)
        co_return;
    m_statsTimer = new QTimer(this);
    connect(m_statsTimer, &QTimer::timeout, this, &CoreWorker::handleStatsTimer);
    m_statsTimer->start(STATS_INTERVAL_MS);
    if (m_options.accessControlled() && m_options.aclRecheckMs > 0) {
        m_aclTimer = new QTimer(this);
        connect(m_aclTimer, &QTimer::timeout, this, &CoreWorker::recheckWatches);
        m_aclTimer->start(m_options.aclRecheckMs);
    }
    Q_EMIT started(builtIns);
}

void CoreWorker::startServer(const QHostAddress &address, quint16 port)
{
    ServerState state;
    state.address = address;
    if (m_server) {
        state.running = true;
        state.port = m_server->port();
        Q_EMIT serverStateChanged(state);
        return;
    }
    if (!m_accessError.isEmpty() || !m_storageError.isEmpty()) {
        state.error = m_accessError.isEmpty() ? m_storageError : m_accessError;
        Q_EMIT serverStateChanged(state);
        return;
    }
    if (auto access = m_handler->accessControl()) {
        if (m_options.anonymous == EngineOptions::Anonymous::LoopbackOnly)
            access->setAnonymousAllowed(address.isLoopback());
    }
    auto server = std::make_unique<server::ApiServer>(m_handler);
    if (!m_options.tlsCertificate.isEmpty() || !m_options.tlsKey.isEmpty()) {
        QString tlsError;
        if (!server->setTls(m_options.tlsCertificate, m_options.tlsKey, &tlsError)) {
            state.error = tlsError;
            Q_EMIT serverStateChanged(state);
            return;
        }
        state.tls = true;
    }
    QString error;
    state.port = server->start(address, port, &error);
    state.running = state.port != 0;
    state.error = error;
    if (state.running) {
        const QString host = address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']'
                                                                                 : address.toString();
        m_handler->setServerAddress((host + u':' + QString::number(state.port)).toStdString());
        m_server = std::move(server);
        m_serverAddress = address;
    }
    Q_EMIT serverStateChanged(state);
}

void CoreWorker::stopServer()
{
    if (m_server) {
        m_server->closeWatches();
        m_server.reset();
    }
    Q_EMIT serverStateChanged(ServerState{});
}

std::vector<std::shared_ptr<storage::MemoryStorage>> CoreWorker::allStorages() const
{
    std::vector<std::shared_ptr<storage::MemoryStorage>> storages{m_storage};
    for (const auto &[type, storage] : m_separateStorage)
        storages.push_back(storage);
    return storages;
}

void CoreWorker::compact()
{
    compactAll(allStorages());
}

QCoro::Task<> CoreWorker::compactAll(std::vector<std::shared_ptr<storage::MemoryStorage>> storages)
{
    // Every series at its own current revision.
    QPointer<CoreWorker> self(this);
    for (const auto &storage : storages) {
        auto compacted = co_await storage->compact(storage->revision());
        if (!compacted && self)
            Q_EMIT errorOccurred(QString::fromStdString(compacted.error().message));
    }
}

void CoreWorker::handleStatsTimer()
{
    if (m_rebuilding > 0)
        return; // a scenario's fresh core is on its way: report it once it is there
    flushOperations();
    flushWatchEvents();
    reportBulkSessions();
    CoreStats stats;
    stats.revision = m_storage->revision();
    for (const auto &storage : allStorages())
        stats.objects += storage->objectCount();
    stats.openWatches = m_server ? m_server->openWatchCount() : 0;
    stats.bulkSessions = m_server ? m_server->bulkWatchSessions().size() : 0;
    const watch::WatchHubStats fanOut = m_registry->watchStats();
    stats.storageWatches = std::size_t(fanOut.upstreams + fanOut.directWatchers);
    for (const auto &[type, storage] : m_separateStorage)
        stats.separateRevisions.append({QString::fromStdString(type), storage->revision()});
    // A batch only when something changed: the GUI is not woken up for nothing.
    if (!(stats == m_lastStats)) {
        m_lastStats = stats;
        Q_EMIT statsReady(stats);
    }
}

void CoreWorker::sendOperationBatches()
{
    m_operationBatchesWanted = true;
}

void CoreWorker::sendWatchEventBatches()
{
    m_watchEventBatchesWanted = true;
}

void CoreWorker::flushOperations()
{
    // Operations recorded before a receiver connected are sent to it too (m_nextBatchId
    // does not move while nobody listens).
    if (!m_operationBatchesWanted)
        return;
    const auto &operations = m_journal->history().operations();
    if (operations.empty() || operations.back().id < m_nextBatchId)
        return;
    auto first = std::lower_bound(operations.begin(), operations.end(), m_nextBatchId,
                                  [](const history::OperationRecord &record, std::uint64_t id) { return record.id < id; });
    OperationBatch batch;
    batch.reserve(static_cast<qsizetype>(std::min<std::size_t>(MAX_BATCH, static_cast<std::size_t>(operations.end() - first))));
    for (auto it = first; it != operations.end() && static_cast<std::size_t>(batch.size()) < MAX_BATCH; ++it)
        batch.append(summarize(*it));
    m_nextBatchId = batch.back().id + 1;
    Q_EMIT operationsRecorded(batch);
}

} // namespace rvscope::engine

namespace rvscope::engine {

void CoreWorker::flushWatchEvents()
{
    if (!m_watchEventBatchesWanted)
        return;
    const history::History &history = m_journal->history();
    const auto &deliveries = history.watchDeliveries();
    const std::uint64_t total = history.droppedWatchDeliveries() + deliveries.size();
    if (total <= m_watchEventsSent)
        return;
    // Deliveries dropped from the bounded journal before they were sent are skipped.
    std::size_t index = m_watchEventsSent > history.droppedWatchDeliveries()
        ? static_cast<std::size_t>(m_watchEventsSent - history.droppedWatchDeliveries())
        : 0;
    WatchEventBatch batch;
    for (; index < deliveries.size() && static_cast<std::size_t>(batch.size()) < MAX_BATCH; ++index) {
        const history::WatchDelivery &delivery = deliveries[index];
        WatchEventSummary event;
        event.watcherId = QString::fromStdString(delivery.watcherId);
        event.operationId = delivery.operationId;
        event.type = QString::fromStdString(delivery.eventType);
        event.resourceVersion = std::atoll(delivery.resourceVersion.c_str());
        event.key = QString::fromStdString(delivery.key);
        event.timeNs = delivery.timeNs;
        event.message = QString::fromStdString(delivery.message);
        batch.append(event);
    }
    m_watchEventsSent = history.droppedWatchDeliveries() + index;
    Q_EMIT watchEventsRecorded(batch);
}

} // namespace rvscope::engine
