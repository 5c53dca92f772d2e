// SPDX-License-Identifier: MIT
// EtcdStorage's history and watch delivery (split from the CRUD paths and the feed, as
// MemoryStorageWatch.cpp is).
#include <algorithm>

#include "model/StatusErrors.h"
#include "storage/StorageErrors.h"
#include "storage/etcd/EtcdState_p.h"

namespace rvscope::storage {
namespace {
bool hasPrefix(const std::string &key, const std::string &prefix)
{
    return key.compare(0, prefix.size(), prefix) == 0;
}
} // namespace

// ---- history and delivery ------------------------------------------------------------------

std::uint64_t EtcdState::firstEventAfter(Revision after) const
{
    auto it = std::upper_bound(history.begin(), history.end(), after,
                               [](Revision rev, const WatchEvent &event) { return rev < event.revision; });
    return historyBase + static_cast<std::uint64_t>(it - history.begin());
}

std::shared_ptr<EtcdState::Watcher> EtcdState::addWatcher(std::string watchPrefix, WatchSink sink, Revision after)
{
    auto watcher = std::make_shared<Watcher>();
    watcher->prefix = std::move(watchPrefix);
    watcher->sink = std::move(sink);
    // `after` may be ahead of the feed (another instance wrote, or a list's revision): its
    // events are still to come and are skipped when they do.
    watcher->nextEvent = firstEventAfter(std::min(after, feedRevision));
    watcher->skipUpTo = after;
    watchers.push_back(watcher);
    return watcher;
}

void EtcdState::cancelWatcher(const std::shared_ptr<Watcher> &watcher)
{
    watcher->active = false;
    if (!pumping)
        std::erase_if(watchers, [](const auto &w) { return !w->active; });
}

void EtcdState::pump()
{
    if (pumping)
        return; // the outer pump delivers what sinks cause, in order
    pumping = true;
    bool progressed = true;
    while (progressed) {
        progressed = false;
        for (std::size_t i = 0; i < watchers.size(); ++i) {
            Watcher *watcher = watchers[i].get();
            while (watcher->active && watcher->nextEvent < historyBase + history.size()) {
                progressed = true;
                if (watcher->nextEvent < historyBase) {
                    WatchEvent error;
                    error.type = WatchEventType::Error;
                    error.revision = feedRevision;
                    error.error = errors::watchTooOld(history.front().revision - 1, oldestRetained - 1);
                    watcher->active = false;
                    watcher->sink(error);
                    break;
                }
                const WatchEvent &event = history[watcher->nextEvent - historyBase];
                ++watcher->nextEvent;
                if (event.revision > watcher->skipUpTo && hasPrefix(event.key, watcher->prefix))
                    watcher->sink(event);
            }
        }
    }
    pumping = false;
    std::erase_if(watchers, [](const auto &w) { return !w->active; });
}

void EtcdState::trimHistory()
{
    if (pumping)
        return; // sinks hold references into the deque
    while (history.size() > historyLimit || (!history.empty() && history.front().revision < compacted)) {
        historyTrimmed = historyTrimmed || history.size() > historyLimit;
        oldestRetained = std::max(oldestRetained, history.front().revision + 1);
        if (auto newest = newestEvent.find(history.front().key);
            newest != newestEvent.end() && newest->second == historyBase)
            newestEvent.erase(newest);
        history.pop_front();
        ++historyBase;
    }
}

ObjectPtr EtcdState::latestKnown(const std::string &key) const
{
    auto newest = newestEvent.find(key);
    if (newest == newestEvent.end() || newest->second < historyBase)
        return nullptr;
    const WatchEvent &event = history[newest->second - historyBase];
    return event.type == WatchEventType::Deleted ? nullptr : event.object;
}

void EtcdState::noteLocalCommit(Revision revision)
{
    if (!m_localCommits.insert(revision).second)
        return;
    m_localCommitOrder.push_back(revision);
    if (m_localCommitOrder.size() > LOCAL_COMMITS_KEPT) {
        m_localCommits.erase(m_localCommitOrder.front());
        m_localCommitOrder.pop_front();
    }
}

void EtcdState::forgetBefore(Revision revision)
{
    compacted = std::max(compacted, revision);
    oldestRetained = std::max(oldestRetained, revision);
    trimHistory();
}

// ---- EtcdStorage::watch ----------------------------------------------------------------------

namespace {
model::Status unavailable(const EtcdState &state)
{
    if (state.feedError)
        return *state.feedError;
    model::Status status;
    status.code = 500;
    status.message = "etcd watch is not available";
    return status;
}
} // namespace

QCoro::Task<model::Result<WatchHandle>> EtcdStorage::watch(std::string watchPrefix, Revision fromRevision,
                                                           WatchSink sink)
{
    std::shared_ptr<EtcdState> state = m_state;
    if (fromRevision < 0)
        co_return model::errors::badRequest("invalid resource version: " + std::to_string(fromRevision));
    co_await state->waitFor(-1);
    if (!state->feedCreated || state->closed)
        co_return unavailable(*state);

    std::vector<WatchEvent> initial;
    Revision after = fromRevision;
    if (fromRevision == 0) {
        // Synthetic ADDED for the current state (the etcd3 watcher's initial sync), read from
        // etcd at one revision; the feed's events up to that revision are then skipped.
        etcd::pb::RangeRequest request;
        request.set_key(state->toEtcd(watchPrefix));
        request.set_range_end(EtcdState::rangeEnd(request.key()));
        auto reply = co_await state->client.range(std::move(request));
        if (!reply.ok()) {
            model::Status error;
            error.code = 500;
            error.message = reply.status.error_message();
            co_return error;
        }
        after = reply.response.header().revision();
        for (const auto &kv : reply.response.kvs()) {
            auto object = decodeAt(kv, kv.mod_revision());
            if (!object)
                co_return std::move(object).error();
            WatchEvent event;
            event.type = WatchEventType::Added;
            event.key = state->fromEtcd(kv.key());
            event.object = std::move(object).value();
            event.revision = kv.mod_revision();
            initial.push_back(std::move(event));
        }
    } else {
        if (fromRevision > state->feedRevision) {
            auto current = co_await currentRevision();
            if (!current)
                co_return std::move(current).error();
            if (fromRevision > *current)
                co_return model::errors::tooLargeResourceVersion(fromRevision, *current);
        }
        if (fromRevision < state->compacted - 1)
            co_return errors::watchTooOld(fromRevision, state->compacted - 1);
        // Only the gap before this instance started is filled from etcd: past the history
        // bound (`--watch-history`), a watch gets 410 as from the apiserver's watch cache.
        if (fromRevision < state->oldestRetained - 1 && !state->historyTrimmed) {
            auto failed = co_await state->backfill(fromRevision);
            if (failed)
                co_return std::move(*failed);
            state->trimHistory();
        }
        if (fromRevision < state->oldestRetained - 1)
            co_return errors::watchTooOld(fromRevision, state->oldestRetained - 1);
    }

    auto watcher = state->addWatcher(std::move(watchPrefix), std::move(sink), after);
    const bool wasPumping = state->pumping;
    state->pumping = true;
    for (const WatchEvent &event : initial) {
        if (!watcher->active)
            break;
        watcher->sink(event);
    }
    state->pumping = wasPumping;
    state->pump();

    std::weak_ptr<EtcdState> weakState = state;
    co_return WatchHandle([weakState, watcher]() {
        if (auto alive = weakState.lock())
            alive->cancelWatcher(watcher);
        else
            watcher->active = false;
    });
}

std::optional<std::int64_t> EtcdStorage::objectCount() const
{
    return m_state->objectCount();
}

bool EtcdStorage::committedHere(Revision revision) const
{
    return m_state->committedLocally(revision);
}

Revision EtcdStorage::feedRevision() const
{
    return m_state->feedRevision;
}

Revision EtcdStorage::oldestWatchableRevision() const
{
    return m_state->oldestRetained - 1;
}

} // namespace rvscope::storage
