// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/CommitLog.h"
#include "storage/StorageTypes.h"
#include "storage/WatchableHistory.h"

namespace rvscope::storage {

// MemoryStorage's state, shared with suspended coroutines and watch handles so that both may
// outlive the storage object. Single-threaded; no locks.
class MemoryState final {
public:
    struct Entry {
        ObjectPtr object;
        Revision modRevision = 0;
    };

    explicit MemoryState(std::size_t historyLimit);

    // Looks up the newest entry, durable or not (what a compare-and-swap compares with);
    // null when the key is absent.
    const Entry *find(const std::string &key) const;
    // The key's object at the visible revision; null when it was absent then.
    ObjectPtr visibleObject(const std::string &key) const;

    // Commits one change at revision+1 and records it in history. Watchers get it once it
    // is visible: at once in memory, once its record is on disk with a data directory.
    // `object` must already carry the new revision (Added/Modified) and for Deleted the
    // last state re-stamped with the deletion revision.
    void commit(WatchEventType type, const std::string &key, ObjectPtr object, ObjectPtr previous);
    Revision nextRevision() const { return revision + 1; }

    // How the keys under `prefix` differ at `at` (<= revision) from their newest state:
    // key -> its object at `at`, or null where the key did not exist then. Rebuilt by
    // undoing newer history; the caller checks that `at` is still within history.
    std::map<std::string, ObjectPtr> changesSince(const std::string &prefix, Revision at) const;

    // Delivers every visible history event to the watchers (WatchableHistory::pump).
    void pump();
    // Bounds the history and keeps parsed trees only for its newest events (see below).
    void trimHistory();

    std::map<std::string, Entry, std::less<>> data;
    // The newest commit. Reads, lists, watches and currentRevision see only commits up to
    // `visibleRevision`: with a data directory those on disk (DESIGN.md "Durable before
    // visible"); in memory every commit at once. History holds every event up to
    // `revision`, and never trims one that is not visible yet.
    Revision revision = 1;
    Revision visibleRevision = 1;
    WatchableHistory history{0, 2}; // from revision 2 on (1 is the empty store)
    std::size_t historyLimit;
    // Events older than the newest RECENT_FULL_EVENTS keep their objects as bytes only: a
    // superseded version then costs its encoding, and its tree is freed while still warm in
    // cache (freeing thousands-of-updates-old trees dominated the update path otherwise).
    static constexpr std::size_t RECENT_FULL_EVENTS = 128;
    std::uint64_t demotedUpTo = 0; // absolute index: events before it hold bytes only
    // With a data directory: every commit is appended here (null: memory only), and
    // lastSequence is the newest record a write waits for.
    std::shared_ptr<CommitLog> log;
    std::uint64_t lastSequence = 0;
    Revision logBase = 0; // the revision the log was opened at: a commit's sequence is revision - logBase
    // Hands the state at the oldest retained revision and the history after it to the log
    // as its new snapshot.
    void snapshotToLog();
    // The log reports more records on disk: they become visible to reads and watchers.
    void onDurable();
    // Awaits every commit made so far on disk (ready at once in memory). A write awaits this
    // before it answers with anything it read from commits that may not be durable yet.
    CommitLog::DurableAwaiter settled();
    // settled(), when a commit to `key` is not on disk yet; ready at once otherwise.
    CommitLog::DurableAwaiter settledFor(const std::string &key);
    // History events [visibleEnd(), end) are not visible yet.
    std::uint64_t visibleEnd() const
    {
        return history.end() - static_cast<std::uint64_t>(revision - visibleRevision);
    }
};

// Walks the keys under a prefix in key order as they were at some revision: the newest
// entries with MemoryState::changesSince laid over them. Valid while the state is unchanged.
class VisibleCursor final {
public:
    VisibleCursor(const MemoryState &state, std::string prefix, const std::string &from,
                  std::map<std::string, ObjectPtr> changes);
    bool valid() const { return m_valid; }
    const std::string &key() const { return *m_key; }
    const ObjectPtr &object() const { return *m_object; }
    Revision modRevision() const;
    void next();

private:
    void settle();
    using DataIt = std::map<std::string, MemoryState::Entry, std::less<>>::const_iterator;
    std::string m_prefix;
    std::map<std::string, ObjectPtr> m_changes;
    DataIt m_data, m_dataEnd;
    std::map<std::string, ObjectPtr>::const_iterator m_change;
    const std::string *m_key = nullptr;
    const ObjectPtr *m_object = nullptr;
    bool m_valid = false;
    bool m_fromChanges = false;
    bool m_alsoInData = false;
};

ObjectPtr stampRevision(model::Object object, Revision revision);

} // namespace rvscope::storage
