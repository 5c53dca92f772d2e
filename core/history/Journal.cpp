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
    record.message = std::move(report.outcome.message);
    record.resourceVersionProduced = std::move(report.outcome.resourceVersionProduced);
    record.casRetries = report.outcome.casRetries;
    record.noop = report.outcome.noop;
    record.apply = report.apply;
    record.strategy = std::move(report.strategy);
    record.requestBody = std::move(report.requestBody);
    record.injected = std::move(report.injected);
    record.faultRuleId = report.faultRuleId;
    if (report.outcome.object)
        record.object = recordedCopy(report.outcome.object);
    m_history.append(std::move(record));
    return m_nextId - 1;
}

std::uint64_t Journal::recordRemote(std::string verb, std::string key, std::string revision, model::ObjectPtr object,
                                    std::int64_t arrivalNs)
{
    OperationRecord record;
    record.id = m_nextId++;
    record.clientId = REMOTE_CLIENT;
    record.verb = std::move(verb);
    record.key = std::move(key);
    record.startNs = 0;
    record.endNs = arrivalNs;
    record.statusCode = record.verb == "create" ? 201 : 200;
    record.resourceVersionProduced = std::move(revision);
    record.remote = true;
    if (object)
        record.object = recordedCopy(object);
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

WatchDelivery WatchDelivery::of(std::uint64_t operationId, const std::string &resource,
                                const registry::WatchEvent &event, std::int64_t timeNs)
{
    WatchDelivery delivery;
    delivery.watcherId = "watch-" + std::to_string(operationId);
    delivery.operationId = operationId;
    delivery.eventType = registry::watchEventTypeName(event.type);
    delivery.timeNs = timeNs;
    if (event.type == registry::WatchEventType::Error && event.error)
        delivery.message = std::to_string(event.error->code) + ' ' + event.error->reason + ": " + event.error->message;
    if (event.object) {
        delivery.resourceVersion = event.object->resourceVersion();
        const std::string ns = event.object->namespaceName();
        const std::string name = event.object->name();
        // BOOKMARK objects carry no name: no key, as for an ERROR.
        if (!name.empty())
            delivery.key = resource + (ns.empty() ? std::string() : '/' + ns) + '/' + name;
    }
    return delivery;
}

} // namespace rvscope::history
