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

namespace rvscope::storage {

// MemoryStorage's state, shared with suspended coroutines and watch handles so that both may
// outlive the storage object. Single-threaded; no locks.
class MemoryState final {
public:
    struct Entry {
        ObjectPtr object;
        Revision createRevision = 0;
        Revision modRevision = 0;
    };

    struct Watcher {
        std::string prefix;
        WatchSink sink;
        // Absolute index (historyBase-relative) of the next history event to consider.
        std::uint64_t nextEvent = 0;
        bool active = true;
    };

    explicit MemoryState(std::size_t historyLimit);

    // Looks up the current entry; null when the key is absent.
    const Entry *find(const std::string &key) const;

    // Commits one change at revision+1, records it in history and delivers it to watchers.
    // `object` must already carry the new revision (Added/Modified) and for Deleted the
    // last state re-stamped with the deletion revision.
    void commit(WatchEventType type, const std::string &key, ObjectPtr object, ObjectPtr previous);
    Revision nextRevision() const { return revision + 1; }

    // The state of every key under `prefix` exactly at `at` (<= revision), rebuilt by
    // undoing newer history. The caller checks that `at` is still within history.
    std::map<std::string, ObjectPtr> snapshotAt(const std::string &prefix, Revision at) const;

    // The index of the first history event with revision > `after`.
    std::uint64_t firstEventAfter(Revision after) const;
    std::shared_ptr<Watcher> addWatcher(std::string prefix, WatchSink sink, std::uint64_t nextEvent);
    void cancelWatcher(const std::shared_ptr<Watcher> &watcher);
    // Delivers every pending history event to every active watcher, in revision order per
    // watcher, also those committed by sinks while it runs.
    void pump();
    // Bounds the history and keeps parsed trees only for its newest events (see below).
    void trimHistory();

    std::map<std::string, Entry, std::less<>> data;
    Revision revision = 1;
    std::deque<WatchEvent> history;
    std::uint64_t historyBase = 0; // absolute index of history.front()
    std::size_t historyLimit;
    // Events older than the newest RECENT_FULL_EVENTS keep their objects as bytes only: a
    // superseded version then costs its encoding, and its tree is freed while still warm in
    // cache (freeing thousands-of-updates-old trees dominated the update path otherwise).
    static constexpr std::size_t RECENT_FULL_EVENTS = 128;
    std::uint64_t demotedUpTo = 0; // absolute index: events before it hold bytes only
    // Changes from this revision on are all in history (watchable from oldestRetained - 1).
    Revision oldestRetained = 2;
    std::vector<std::shared_ptr<Watcher>> watchers;
    bool pumping = false;
    // With a data directory: every commit is appended here (null: memory only), and
    // lastSequence is the newest record a write waits for.
    std::shared_ptr<CommitLog> log;
    std::uint64_t lastSequence = 0;
    // Hands the whole current state to the log as its new snapshot.
    void snapshotToLog();
};

ObjectPtr stampRevision(model::Object object, Revision revision);

} // namespace rvscope::storage
