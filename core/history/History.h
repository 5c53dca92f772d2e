// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iosfwd>

#include "history/OperationRecord.h"
#include "model/Result.h"

namespace rvscope::history {

// The bounded in-memory journal of operations and watch deliveries. Each kind keeps at most
// `capacity` records; appending beyond that drops the oldest and counts it in
// droppedOperations()/droppedWatchDeliveries(); the checkers then check what it kept and say
// so (HistoryWindow.h).
// Not thread-safe: one owner (the core thread) appends; copies may be handed elsewhere.
//
// JSON Lines format (one JSON object per line, stable field names, unknown fields ignored):
//   {"record":"operation","id":7,"client":"c1","verb":"update",
//    "key":"configmaps/default/foo","rvSent":"41","startNs":100,"endNs":250,
//    "code":200,"reason":"","rvProduced":"42","casRetries":0,"object":{...},"strategy":"retry",
//    "request":"<the body a write sent>","noop":false}   (request and noop only when set)
//     endNs is null (or absent) for a pending operation; object may be null.
//   {"record":"watch","watcher":"w1","operation":9,"type":"MODIFIED","rv":"42",
//    "key":"configmaps/default/foo","timeNs":260}
//   {"record":"journal","droppedOperations":12,"droppedWatchDeliveries":40}
//     first, only when the history dropped records: an import adds the counts to its own.
// Required: record; for operations id, verb, key, startNs; for watch deliveries watcher,
// type, rv. Empty lines are skipped.
class History final {
public:
    static constexpr std::size_t DefaultCapacity = 1'000'000;

    explicit History(std::size_t capacity = DefaultCapacity);

    void append(OperationRecord operation);
    void append(WatchDelivery delivery);

    const std::deque<OperationRecord> &operations() const { return m_operations; }
    const std::deque<WatchDelivery> &watchDeliveries() const { return m_deliveries; }
    std::size_t capacity() const { return m_capacity; }
    std::uint64_t droppedOperations() const { return m_droppedOperations; }
    std::uint64_t droppedWatchDeliveries() const { return m_droppedDeliveries; }
    void clear();

    // The "journal" line when records were dropped, then operations, then watch
    // deliveries, each in append order. Secrets' values are
    // redacted (history/SecretRedaction.h) unless `SecretValues::Included` asks for them.
    enum class SecretValues { Redacted, Included };
    void exportJsonLines(std::ostream &out, SecretValues secrets = SecretValues::Redacted) const;
    // A 400 BadRequest Status naming the (1-based) line number for any invalid line. The
    // returned history has the given capacity (records beyond it are dropped and counted).
    static model::Result<History> importJsonLines(std::istream &in, std::size_t capacity = DefaultCapacity);

    static nlohmann::json toJson(const OperationRecord &operation);
    static nlohmann::json toJson(const WatchDelivery &delivery);

private:
    std::size_t m_capacity;
    std::deque<OperationRecord> m_operations;
    std::deque<WatchDelivery> m_deliveries;
    std::uint64_t m_droppedOperations = 0;
    std::uint64_t m_droppedDeliveries = 0;
};

} // namespace rvscope::history
