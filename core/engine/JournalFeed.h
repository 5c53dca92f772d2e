// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <QtCore/QObject>

#include "engine/EngineTypes.h"

namespace rvscope::history {
struct OperationRecord;
}

namespace rvscope::engine {

struct Core;

// Sends the current core's journal to the GUI in batches: operations and watch deliveries
// not sent yet, at most MAX_BATCH of each per flush, oldest first. Nothing is built until a
// receiver asks for batches (headless, nobody does). Flushed on the stats timer, and before
// a report that follows the operations it sums up (a scenario step, a finished workload).
// Core thread only.
class JournalFeed final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JournalFeed)

public:
    JournalFeed(const Core &core, QObject *parent);

    // Someone receives operationsRecorded / watchEventsRecorded from now on.
    void sendOperationBatches();
    void sendWatchEventBatches();
    void flushOperations();
    void flushWatchEvents();
    void flush();
    // The core is new: its journal starts at operation 1 and no delivery was sent.
    void handleCoreRebuilt();
    // The journal's history was replaced: send all of it again.
    void resendOperations();

    static OperationSummary summarize(const history::OperationRecord &record);

Q_SIGNALS:
    void operationsRecorded(const rvscope::engine::OperationBatch &batch);
    void watchEventsRecorded(const rvscope::engine::WatchEventBatch &batch);

private:
    const Core &m_core;
    bool m_operationBatchesWanted = false;
    bool m_watchEventBatchesWanted = false;
    std::uint64_t m_nextBatchId = 1;
    std::uint64_t m_watchEventsSent = 0; // deliveries ever appended to the journal and sent
};

} // namespace rvscope::engine
