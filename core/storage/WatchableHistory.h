// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "storage/StorageTypes.h"
#include "storage/WatchHandle.h"

namespace rvscope::storage {

// What etcd calls its watchable store, shared by MemoryStorage and EtcdStorage: the retained
// history of changes, in revision order, and the storage watchers reading it. Each watcher
// gets every event under its prefix exactly once, in order; a sink may write, and what its
// write commits is delivered after the current event (the outer pump goes on). A watcher
// that falls behind the retained history gets 410 Expired and ends. Single-threaded.
class WatchableHistory final {
public:
    struct Watcher {
        std::string prefix;
        WatchSink sink;
        std::uint64_t nextEvent = 0; // absolute index of the next event to consider
        Revision skipUpTo = 0;       // events at or below this revision were covered already
        bool active = true;
    };

    explicit WatchableHistory(std::uint64_t base = 0, Revision oldestRetained = 0)
        : base(base)
        , oldestRetained(oldestRetained)
    {
    }

    // Absolute index one past the newest event.
    std::uint64_t end() const { return base + events.size(); }
    // The absolute index of the first event with revision > `after`.
    std::uint64_t firstAfter(Revision after) const;
    // Drops the oldest event (never while pumping: sinks hold references into the deque).
    void popFront();

    std::shared_ptr<Watcher> addWatcher(std::string prefix, WatchSink sink, std::uint64_t nextEvent,
                                        Revision skipUpTo = 0);
    // Hands a new watcher its first events (a watch from revision 0: the current objects as
    // ADDED) before any history event; what their sinks write waits for the next pump.
    void deliverInitial(Watcher &watcher, const std::vector<WatchEvent> &initial);
    // Delivers every visible event to every active watcher: those before visibleEnd(), asked
    // anew as sinks commit (null: every event held). An ERROR for a watcher behind the
    // history carries `errorRevision`.
    void pump(const std::function<std::uint64_t()> &visibleEnd, Revision errorRevision);
    // Ends every active watcher with an ERROR event.
    void failAll(const WatchEvent &error);
    // The handle Storage::watch returns. `self` shares its owner's lifetime (an aliasing
    // pointer into the storage state); the handle may outlive both.
    static WatchHandle handle(const std::shared_ptr<WatchableHistory> &self, std::shared_ptr<Watcher> watcher);

    std::deque<WatchEvent> events;
    std::uint64_t base; // absolute index of events.front()
    // Changes from this revision on are all in `events` (watchable from oldestRetained - 1).
    Revision oldestRetained;
    std::vector<std::shared_ptr<Watcher>> watchers;
    bool pumping = false;

private:
    void cancel(const std::shared_ptr<Watcher> &watcher);
    void dropInactive();
};

} // namespace rvscope::storage
