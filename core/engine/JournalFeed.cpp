// SPDX-License-Identifier: MIT
#include "engine/JournalFeed.h"

#include <algorithm>
#include <cstdlib>

#include "engine/Core.h"
#include "history/Journal.h"

namespace rvscope::engine {
namespace {
// One batch carries at most this many operations; the rest follow on the next ticks, so an
// imported history of a million operations never makes one giant signal, and the GUI (a few
// µs per operation across its panels) never spends more than ~15 ms on one batch. 4000 per
// 33 ms tick is ~120k operations/s, above what 64 in-process clients flat out produce.
constexpr std::size_t MAX_BATCH = 4000;
} // namespace

JournalFeed::JournalFeed(const Core &core, QObject *parent)
    : QObject(parent)
    , m_core(core)
{
}

OperationSummary JournalFeed::summarize(const history::OperationRecord &record)
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
    if (!record.message.empty())
        summary.message = QString::fromStdString(record.message);
    summary.casRetries = record.casRetries;
    summary.noop = record.noop;
    summary.apply = record.apply;
    summary.remote = record.remote;
    if (!record.injected.empty())
        summary.injected = QString::fromStdString(record.injected);
    return summary;
}

void JournalFeed::sendOperationBatches()
{
    m_operationBatchesWanted = true;
}

void JournalFeed::sendWatchEventBatches()
{
    m_watchEventBatchesWanted = true;
}

void JournalFeed::handleCoreRebuilt()
{
    m_nextBatchId = 1;
    m_watchEventsSent = 0;
}

void JournalFeed::resendOperations()
{
    // The imported ids may be below those already sent: from the first, whatever its id.
    m_nextBatchId = 0;
}

void JournalFeed::flush()
{
    flushOperations();
    flushWatchEvents();
}

void JournalFeed::flushOperations()
{
    // Operations recorded before a receiver connected are sent to it too (m_nextBatchId
    // does not move while nobody listens).
    if (!m_operationBatchesWanted)
        return;
    const auto &operations = m_core.journal->history().operations();
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

void JournalFeed::flushWatchEvents()
{
    if (!m_watchEventBatchesWanted)
        return;
    const history::History &history = m_core.journal->history();
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
