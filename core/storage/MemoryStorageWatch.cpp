// SPDX-License-Identifier: MIT
// MemoryStorage's history and watch delivery (split from the CRUD paths, as etcd's
// watchable_store is split from kvstore).
#include <algorithm>

#include "model/StatusErrors.h"
#include "storage/MemoryState_p.h"
#include "storage/MemoryStorage.h"
#include "storage/StorageErrors.h"

namespace rvscope::storage {
namespace {
bool hasPrefix(const std::string &key, const std::string &prefix)
{
    return key.compare(0, prefix.size(), prefix) == 0;
}
} // namespace

ObjectPtr stampRevision(model::Object object, Revision revision)
{
    object.setResourceVersion(std::to_string(revision));
    object.bytes(); // publish with the encoding computed: shared objects are never mutated
    return std::make_shared<const model::Object>(std::move(object));
}

MemoryState::MemoryState(std::size_t historyLimit)
    : historyLimit(std::max<std::size_t>(historyLimit, 1))
{
}

const MemoryState::Entry *MemoryState::find(const std::string &key) const
{
    auto it = data.find(key);
    return it == data.end() ? nullptr : &it->second;
}

void MemoryState::commit(WatchEventType type, const std::string &key, ObjectPtr object, ObjectPtr previous)
{
    ++revision;
    if (type == WatchEventType::Deleted) {
        data.erase(key);
    } else {
        Entry &entry = data[key];
        if (type == WatchEventType::Added)
            entry.createRevision = revision;
        entry.modRevision = revision;
        entry.object = object;
    }
    // Logged before any watcher runs: a sink's own commit must follow this one on disk too.
    if (log) {
        const Entry *entry = type == WatchEventType::Deleted ? nullptr : &data[key];
        lastSequence = entry ? log->append(CommitLog::Change::Put, revision, key, object->bytes(), entry->createRevision)
                             : log->append(CommitLog::Change::Delete, revision, key);
        if (log->wantsSnapshot())
            snapshotToLog();
    }
    WatchEvent event;
    event.type = type;
    event.key = key;
    event.object = std::move(object);
    event.previous = std::move(previous);
    event.revision = revision;
    history.push_back(std::move(event));
    pump();
    trimHistory();
}

void MemoryState::snapshotToLog()
{
    std::map<std::string, CommitLog::Entry> entries;
    for (const auto &[key, entry] : data)
        entries.emplace(key, CommitLog::Entry{entry.object->bytes(), entry.createRevision, entry.modRevision});
    log->snapshot(revision, entries);
}

namespace {
void keepBytesOnly(ObjectPtr &object)
{
    if (object && object->holdsTree())
        object = std::make_shared<const model::Object>(model::Object::fromTrustedBytes(object->bytes()));
}
} // namespace

void MemoryState::trimHistory()
{
    // Never while delivering: sinks hold references into the deque.
    if (pumping)
        return;
    while (history.size() > historyLimit) {
        oldestRetained = std::max(oldestRetained, history.front().revision + 1);
        history.pop_front();
        ++historyBase;
    }
    const std::uint64_t end = historyBase + history.size();
    const std::uint64_t recentStart = end > RECENT_FULL_EVENTS ? end - RECENT_FULL_EVENTS : 0;
    for (demotedUpTo = std::max(demotedUpTo, historyBase); demotedUpTo < recentStart; ++demotedUpTo) {
        WatchEvent &event = history[demotedUpTo - historyBase];
        // The current version keeps its tree for reads and updates; copying its bytes
        // would free nothing.
        auto current = data.find(event.key);
        if (current == data.end() || current->second.object != event.object)
            keepBytesOnly(event.object);
        keepBytesOnly(event.previous);
    }
}

std::map<std::string, ObjectPtr> MemoryState::snapshotAt(const std::string &prefix, Revision at) const
{
    std::map<std::string, ObjectPtr> snapshot;
    for (auto it = data.lower_bound(prefix); it != data.end() && hasPrefix(it->first, prefix); ++it)
        snapshot.emplace(it->first, it->second.object);
    // Undo, newest first, every change made after `at`.
    for (auto it = history.rbegin(); it != history.rend() && it->revision > at; ++it) {
        if (!hasPrefix(it->key, prefix))
            continue;
        if (it->previous)
            snapshot[it->key] = it->previous;
        else
            snapshot.erase(it->key);
    }
    return snapshot;
}

std::uint64_t MemoryState::firstEventAfter(Revision after) const
{
    auto it = std::upper_bound(history.begin(), history.end(), after,
                               [](Revision rev, const WatchEvent &event) { return rev < event.revision; });
    return historyBase + static_cast<std::uint64_t>(it - history.begin());
}

std::shared_ptr<MemoryState::Watcher> MemoryState::addWatcher(std::string prefix, WatchSink sink,
                                                              std::uint64_t nextEvent)
{
    auto watcher = std::make_shared<Watcher>();
    watcher->prefix = std::move(prefix);
    watcher->sink = std::move(sink);
    watcher->nextEvent = nextEvent;
    watchers.push_back(watcher);
    return watcher;
}

void MemoryState::cancelWatcher(const std::shared_ptr<Watcher> &watcher)
{
    watcher->active = false;
    if (!pumping)
        std::erase_if(watchers, [](const auto &w) { return !w->active; });
}

void MemoryState::pump()
{
    if (pumping)
        return; // the outer pump delivers what sinks commit, in order
    pumping = true;
    bool progressed = true;
    while (progressed) {
        progressed = false;
        // Index loop: sinks may add watchers (push_back) while we iterate.
        for (std::size_t i = 0; i < watchers.size(); ++i) {
            // A reference to the heap Watcher, not the vector slot: the vector may grow
            // during a sink call, but no Watcher is erased while pumping.
            Watcher *watcher = watchers[i].get();
            while (watcher->active && watcher->nextEvent < historyBase + history.size()) {
                progressed = true;
                if (watcher->nextEvent < historyBase) {
                    // Events this watcher never saw were trimmed: it cannot continue gap-free.
                    WatchEvent error;
                    error.type = WatchEventType::Error;
                    error.revision = revision;
                    error.error = errors::watchTooOld(history.front().revision - 1, oldestRetained - 1);
                    watcher->active = false;
                    watcher->sink(error);
                    break;
                }
                const WatchEvent &event = history[watcher->nextEvent - historyBase];
                ++watcher->nextEvent;
                if (hasPrefix(event.key, watcher->prefix))
                    watcher->sink(event);
            }
        }
    }
    pumping = false;
    std::erase_if(watchers, [](const auto &w) { return !w->active; });
}

QCoro::Task<model::Result<WatchHandle>> MemoryStorage::watch(std::string prefix, Revision fromRevision,
                                                             WatchSink sink)
{
    std::shared_ptr<MemoryState> state = m_state;
    if (fromRevision < 0)
        co_return model::errors::badRequest("invalid resource version: " + std::to_string(fromRevision));
    if (fromRevision > state->revision)
        co_return model::errors::tooLargeResourceVersion(fromRevision, state->revision);
    if (fromRevision > 0 && fromRevision < state->oldestRetained - 1)
        co_return errors::watchTooOld(fromRevision, state->oldestRetained - 1);

    const Revision startAfter = fromRevision == 0 ? state->revision : fromRevision;
    std::vector<WatchEvent> initial;
    if (fromRevision == 0) {
        // Synthetic ADDED for the current state (etcd3 watcher's initial sync).
        for (auto it = state->data.lower_bound(prefix); it != state->data.end() && hasPrefix(it->first, prefix);
             ++it) {
            WatchEvent event;
            event.type = WatchEventType::Added;
            event.key = it->first;
            event.object = it->second.object;
            event.revision = it->second.modRevision;
            initial.push_back(std::move(event));
        }
    }
    auto watcher = state->addWatcher(std::move(prefix), std::move(sink), state->firstEventAfter(startAfter));
    // Delivered outside the map iteration, so sinks may write; those writes land after
    // startAfter and reach this watcher through pump() below.
    const bool wasPumping = state->pumping;
    state->pumping = true;
    for (const WatchEvent &event : initial) {
        if (!watcher->active)
            break;
        watcher->sink(event);
    }
    state->pumping = wasPumping;
    state->pump();
    state->trimHistory();

    std::weak_ptr<MemoryState> weakState = state;
    co_return WatchHandle([weakState, watcher]() {
        if (auto alive = weakState.lock())
            alive->cancelWatcher(watcher);
        else
            watcher->active = false;
    });
}

} // namespace rvscope::storage
