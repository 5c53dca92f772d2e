// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "api/ApiTypes.h"
#include "history/History.h"

namespace rvscope::history {

// The core's operation journal: turns the API handler's reports into numbered
// OperationRecords (ids from 1, in completion order) in a bounded History. The recorded
// object is a bytes-only copy, so the journal holds no live trees and no storage memory;
// operations that saw the same stored object share one copy (a key read again and again
// costs its bytes once). Core thread only.
class Journal final {
public:
    explicit Journal(std::size_t capacity = History::DefaultCapacity);

    // Returns the new record's id.
    std::uint64_t record(api::OperationReport report);
    void record(WatchDelivery delivery) { m_history.append(std::move(delivery)); }
    // A write another instance made on the same etcd, seen by watch at `arrivalNs`: verb
    // create/update/delete, key resource[/namespace]/name, the revision it committed and the
    // object (for a delete, its last state). When it happened is unknown, only that it was
    // before it arrived: startNs is 0, so the checkers place it anywhere before its arrival.
    // Its client is REMOTE_CLIENT. Returns the record's id.
    std::uint64_t recordRemote(std::string verb, std::string key, std::string revision, model::ObjectPtr object,
                               std::int64_t arrivalNs);
    static constexpr const char *REMOTE_CLIENT = "another instance";

    const History &history() const { return m_history; }
    // The id the next record gets (ids are never reused, even across clear()).
    std::uint64_t nextId() const { return m_nextId; }
    void clear() { m_history.clear(); }
    // Replaces the journal's content (an imported history); ids continue after its largest.
    void replace(History history);

private:
    // The bytes-only copy of `object`, shared with earlier records of the same object.
    model::ObjectPtr recordedCopy(const model::ObjectPtr &object);

    History m_history;
    struct RecordedCopy {
        std::weak_ptr<const model::Object> source; // tells a reused address from the object
        model::ObjectPtr copy;
    };
    std::unordered_map<const model::Object *, RecordedCopy> m_copies;
    std::uint64_t m_nextId = 1;
};

} // namespace rvscope::history
