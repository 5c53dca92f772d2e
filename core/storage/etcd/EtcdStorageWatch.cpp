// SPDX-License-Identifier: MIT
// EtcdStorage's history and watch delivery (split from the CRUD paths and the feed, as
// MemoryStorageWatch.cpp is).
#include <algorithm>

#include "model/StatusErrors.h"
#include "storage/StorageErrors.h"
#include "storage/etcd/EtcdState_p.h"

namespace rvscope::storage {
// ---- history and delivery ------------------------------------------------------------------

std::shared_ptr<WatchableHistory::Watcher> EtcdState::addWatcher(std::string watchPrefix, WatchSink sink,
                                                                 Revision after)
{
    // `after` may be ahead of the feed (another instance wrote, or a list's revision): its
    // events are still to come and are skipped when they do.
    return history.addWatcher(std::move(watchPrefix), std::move(sink),
                              history.firstAfter(std::min(after, feedRevision)), after);
}

void EtcdState::pump()
{
    history.pump(nullptr, feedRevision);
}

void EtcdState::trimHistory()
{
    if (history.pumping)
        return; // sinks hold references into the deque
    while (history.events.size() > historyLimit || (!history.events.empty() && history.events.front().revision < compacted)) {
        historyTrimmed = historyTrimmed || history.events.size() > historyLimit;
        if (auto newest = newestEvent.find(history.events.front().key);
            newest != newestEvent.end() && newest->second == history.base)
            newestEvent.erase(newest);
        history.popFront();
    }
}

ObjectPtr EtcdState::latestKnown(const std::string &key) const
{
    auto newest = newestEvent.find(key);
    if (newest == newestEvent.end() || newest->second < history.base)
        return nullptr;
    const WatchEvent &event = history.events[newest->second - history.base];
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
    history.oldestRetained = std::max(history.oldestRetained, revision);
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
        if (fromRevision < state->history.oldestRetained - 1 && !state->historyTrimmed) {
            auto failed = co_await state->backfill(fromRevision);
            if (failed)
                co_return std::move(*failed);
            state->trimHistory();
        }
        if (fromRevision < state->history.oldestRetained - 1)
            co_return errors::watchTooOld(fromRevision, state->history.oldestRetained - 1);
    }

    auto watcher = state->addWatcher(std::move(watchPrefix), std::move(sink), after);
    state->history.deliverInitial(*watcher, initial);
    state->pump();
    co_return WatchableHistory::handle(std::shared_ptr<WatchableHistory>(state, &state->history), std::move(watcher));
}

std::optional<std::int64_t> EtcdStorage::objectCount() const
{
    return m_state->objectCount();
}

std::size_t EtcdStorage::knownObjectCount() const
{
    return std::size_t(std::max<std::int64_t>(m_state->objectCount().value_or(0), 0));
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
    return m_state->history.oldestRetained - 1;
}

} // namespace rvscope::storage
