// SPDX-License-Identifier: MIT
#include "storage/WatchableHistory.h"

#include <algorithm>

#include "storage/StorageErrors.h"

namespace rvscope::storage {

std::uint64_t WatchableHistory::firstAfter(Revision after) const
{
    auto it = std::upper_bound(events.begin(), events.end(), after,
                               [](Revision rev, const WatchEvent &event) { return rev < event.revision; });
    return base + static_cast<std::uint64_t>(it - events.begin());
}

void WatchableHistory::popFront()
{
    oldestRetained = std::max(oldestRetained, events.front().revision + 1);
    events.pop_front();
    ++base;
}

std::shared_ptr<WatchableHistory::Watcher> WatchableHistory::addWatcher(std::string prefix, WatchSink sink,
                                                                        std::uint64_t nextEvent, Revision skipUpTo)
{
    auto watcher = std::make_shared<Watcher>();
    watcher->prefix = std::move(prefix);
    watcher->sink = std::move(sink);
    watcher->nextEvent = nextEvent;
    watcher->skipUpTo = skipUpTo;
    watchers.push_back(watcher);
    return watcher;
}

void WatchableHistory::deliverInitial(Watcher &watcher, const std::vector<WatchEvent> &initial)
{
    const bool wasPumping = pumping;
    pumping = true; // a sink's write is delivered by the pump after these
    for (const WatchEvent &event : initial) {
        if (!watcher.active)
            break;
        watcher.sink(event);
    }
    pumping = wasPumping;
}

void WatchableHistory::pump(const std::function<std::uint64_t()> &visibleEnd, Revision errorRevision)
{
    if (pumping)
        return; // the outer pump delivers what sinks commit, in order
    pumping = true;
    bool progressed = true;
    while (progressed) {
        progressed = false;
        // Index loop: sinks may add watchers (push_back) while we iterate. A pointer to the
        // heap Watcher, not the vector slot: no Watcher is erased while pumping.
        for (std::size_t i = 0; i < watchers.size(); ++i) {
            Watcher *watcher = watchers[i].get();
            while (watcher->active && watcher->nextEvent < (visibleEnd ? visibleEnd() : end())) {
                progressed = true;
                if (watcher->nextEvent < base) {
                    // Events this watcher never saw were trimmed: it cannot continue gap-free.
                    WatchEvent error;
                    error.type = WatchEventType::Error;
                    error.revision = errorRevision;
                    error.error = errors::watchTooOld(events.front().revision - 1, oldestRetained - 1);
                    watcher->active = false;
                    watcher->sink(error);
                    break;
                }
                const WatchEvent &event = events[watcher->nextEvent - base];
                ++watcher->nextEvent;
                if (event.revision > watcher->skipUpTo
                    && event.key.compare(0, watcher->prefix.size(), watcher->prefix) == 0)
                    watcher->sink(event);
            }
        }
    }
    pumping = false;
    dropInactive();
}

void WatchableHistory::failAll(const WatchEvent &error)
{
    for (const auto &watcher : watchers) {
        if (!watcher->active)
            continue;
        watcher->active = false;
        watcher->sink(error);
    }
    if (!pumping)
        dropInactive();
}

void WatchableHistory::cancel(const std::shared_ptr<Watcher> &watcher)
{
    watcher->active = false;
    if (!pumping)
        dropInactive();
}

void WatchableHistory::dropInactive()
{
    std::erase_if(watchers, [](const auto &w) { return !w->active; });
}

WatchHandle WatchableHistory::handle(const std::shared_ptr<WatchableHistory> &self, std::shared_ptr<Watcher> watcher)
{
    std::weak_ptr<WatchableHistory> weak = self;
    return WatchHandle([weak, watcher]() {
        if (auto alive = weak.lock())
            alive->cancel(watcher);
        else
            watcher->active = false;
    });
}

} // namespace rvscope::storage
