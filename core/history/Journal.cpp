// SPDX-License-Identifier: MIT
#include "history/Journal.h"

namespace rvscope::history {

Journal::Journal(std::size_t capacity)
    : m_history(capacity)
{
}

std::uint64_t Journal::record(api::OperationReport report)
{
    OperationRecord record;
    record.id = m_nextId++;
    record.clientId = std::move(report.clientId);
    record.verb = std::move(report.verb);
    record.key = std::move(report.key);
    record.resourceVersionSent = std::move(report.outcome.resourceVersionSent);
    record.startNs = report.startNs;
    record.endNs = report.endNs;
    record.statusCode = report.statusCode;
    record.reason = std::move(report.outcome.reason);
    record.resourceVersionProduced = std::move(report.outcome.resourceVersionProduced);
    record.casRetries = report.outcome.casRetries;
    record.noop = report.outcome.noop;
    record.strategy = std::move(report.strategy);
    record.requestBody = std::move(report.requestBody);
    if (report.outcome.object)
        record.object = recordedCopy(report.outcome.object);
    m_history.append(std::move(record));
    return m_nextId - 1;
}

model::ObjectPtr Journal::recordedCopy(const model::ObjectPtr &object)
{
    RecordedCopy &entry = m_copies[object.get()];
    if (!entry.copy || entry.source.lock() != object) {
        entry.source = object;
        entry.copy = std::make_shared<const model::Object>(model::Object::fromTrustedBytes(object->bytes()));
    }
    model::ObjectPtr copy = entry.copy;
    // Bounded: entries of objects storage no longer holds go first, then everything.
    constexpr std::size_t MAX_COPIES = 4096;
    if (m_copies.size() > MAX_COPIES) {
        std::erase_if(m_copies, [](const auto &item) { return item.second.source.expired(); });
        if (m_copies.size() > MAX_COPIES / 2)
            m_copies.clear();
    }
    return copy;
}

void Journal::replace(History history)
{
    std::uint64_t largest = 0;
    for (const auto &op : history.operations())
        largest = std::max(largest, op.id);
    m_history = std::move(history);
    m_nextId = std::max(m_nextId, largest + 1);
}

} // namespace rvscope::history
