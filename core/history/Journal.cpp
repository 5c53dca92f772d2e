// SPDX-License-Identifier: MIT
#include "history/Journal.h"

namespace rvscope::history {

Journal::Journal(std::size_t capacity)
    : m_history(capacity)
{
}

std::uint64_t Journal::record(const api::OperationReport &report)
{
    OperationRecord record;
    record.id = m_nextId++;
    record.clientId = report.clientId;
    record.verb = report.verb;
    record.key = report.key;
    record.resourceVersionSent = report.outcome.resourceVersionSent;
    record.startNs = report.startNs;
    record.endNs = report.endNs;
    record.statusCode = report.statusCode;
    record.reason = report.outcome.reason;
    record.resourceVersionProduced = report.outcome.resourceVersionProduced;
    record.casRetries = report.outcome.casRetries;
    record.noop = report.outcome.noop;
    record.strategy = report.strategy;
    record.requestBody = report.requestBody;
    if (report.outcome.object)
        record.object = std::make_shared<const model::Object>(model::Object::fromTrustedBytes(report.outcome.object->bytes()));
    m_history.append(std::move(record));
    return m_nextId - 1;
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
