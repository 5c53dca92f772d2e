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

ObjectPtr MemoryState::visibleObject(const std::string &key) const
{
    const Entry *entry = find(key);
    ObjectPtr object = entry ? entry->object : nullptr;
    // Undo the commits not visible yet (a group commit's worth at most), newest first.
    for (auto it = history.events.rbegin(); it != history.events.rend() && it->revision > visibleRevision; ++it) {
        if (it->key == key)
            object = it->previous;
    }
    return object;
}

void MemoryState::commit(WatchEventType type, const std::string &key, ObjectPtr object, ObjectPtr previous)
{
    ++revision;
    if (type == WatchEventType::Deleted) {
        data.erase(key);
    } else {
        Entry &entry = data[key];
        entry.modRevision = revision;
        entry.object = object;
    }
    // Logged before any watcher runs: a sink's own commit must follow this one on disk too.
    if (log) {
        lastSequence = type == WatchEventType::Deleted
                           ? log->append(CommitLog::Change::Delete, revision, key)
                           : log->append(CommitLog::Change::Put, revision, key, object->bytes());
    } else {
        visibleRevision = revision;
    }
    WatchEvent event;
    event.type = type;
    event.key = key;
    event.object = std::move(object);
    event.previous = std::move(previous);
    event.revision = revision;
    history.events.push_back(std::move(event));
    if (log && log->wantsSnapshot())
        snapshotToLog();
    pump();
    trimHistory();
}

void MemoryState::onDurable()
{
    visibleRevision = std::min(revision, std::max(visibleRevision, logBase + Revision(log->durableSequence())));
    pump();
    trimHistory();
}

CommitLog::DurableAwaiter MemoryState::settled()
{
    return CommitLog::DurableAwaiter{log.get(), lastSequence};
}

CommitLog::DurableAwaiter MemoryState::settledFor(const std::string &key)
{
    for (auto it = history.events.rbegin(); it != history.events.rend() && it->revision > visibleRevision; ++it) {
        if (it->key == key)
            return settled();
    }
    return CommitLog::DurableAwaiter{nullptr, 0};
}

void MemoryState::snapshotToLog()
{
    // The state at the oldest revision a watch may still resume from, then every change after it.
    const Revision base = std::max<Revision>(history.oldestRetained - 1, 1);
    std::map<std::string, CommitLog::Entry> entries;
    for (const auto &[key, entry] : data)
        entries.emplace(key, CommitLog::Entry{entry.object->bytes(), entry.modRevision});
    std::vector<CommitLog::Record> records;
    for (auto it = history.events.rbegin(); it != history.events.rend() && it->revision > base; ++it) {
        if (it->previous) {
            entries[it->key] = CommitLog::Entry{it->previous->bytes(),
                                                model::parseResourceVersion(it->previous->resourceVersion()).value_or(0)};
        } else {
            entries.erase(it->key);
        }
        CommitLog::Record record;
        record.revision = it->revision;
        record.key = it->key;
        record.change = it->type == WatchEventType::Deleted ? CommitLog::Change::Delete : CommitLog::Change::Put;
        if (record.change == CommitLog::Change::Put)
            record.object = it->object->bytes();
        records.push_back(std::move(record));
    }
    std::reverse(records.begin(), records.end());
    log->snapshot(revision, base, std::move(entries), std::move(records));
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
    if (history.pumping)
        return;
    while (history.events.size() > historyLimit && history.events.front().revision <= visibleRevision) {
        history.popFront();
    }
    const std::uint64_t end = history.base + history.events.size();
    const std::uint64_t recentStart = end > RECENT_FULL_EVENTS ? end - RECENT_FULL_EVENTS : 0;
    for (demotedUpTo = std::max(demotedUpTo, history.base); demotedUpTo < recentStart; ++demotedUpTo) {
        WatchEvent &event = history.events[demotedUpTo - history.base];
        // A version untouched for RECENT_FULL_EVENTS commits keeps its bytes only, also the
        // current one (it is shared with its entry, which takes the same bytes-only copy):
        // reads serve bytes, and an update parses them again.
        auto current = data.find(event.key);
        const bool isCurrent = current != data.end() && current->second.object == event.object;
        const ObjectPtr version = event.object;
        keepBytesOnly(event.object);
        if (isCurrent) {
            current->second.object = event.object;
        } else if (version != event.object) {
            // The key's next event holds this version as its previous: it takes the same
            // copy (found by pointer among the newer events), not a second one of its own.
            for (std::uint64_t later = demotedUpTo + 1; later < end; ++later) {
                WatchEvent &next = history.events[later - history.base];
                if (next.previous == version) {
                    next.previous = event.object;
                    break;
                }
            }
        }
        keepBytesOnly(event.previous);
    }
}

std::map<std::string, ObjectPtr> MemoryState::changesSince(const std::string &prefix, Revision at) const
{
    std::map<std::string, ObjectPtr> changes;
    // Undo, newest first, every change made after `at`: the oldest one's previous state wins.
    for (auto it = history.events.rbegin(); it != history.events.rend() && it->revision > at; ++it) {
        if (hasPrefix(it->key, prefix))
            changes[it->key] = it->previous;
    }
    return changes;
}

VisibleCursor::VisibleCursor(const MemoryState &state, std::string prefix, const std::string &from,
                             std::map<std::string, ObjectPtr> changes)
    : m_prefix(std::move(prefix))
    , m_changes(std::move(changes))
    , m_data(state.data.lower_bound(from))
    , m_dataEnd(state.data.end())
    , m_change(m_changes.lower_bound(from))
{
    settle();
}

void VisibleCursor::settle()
{
    for (;;) {
        const bool inData = m_data != m_dataEnd && hasPrefix(m_data->first, m_prefix);
        const bool inChanges = m_change != m_changes.end();
        if (!inData && !inChanges) {
            m_valid = false;
            return;
        }
        if (inChanges && (!inData || m_change->first <= m_data->first)) {
            m_alsoInData = inData && m_change->first == m_data->first;
            if (!m_change->second) { // the key did not exist then
                ++m_change;
                if (m_alsoInData)
                    ++m_data;
                continue;
            }
            m_key = &m_change->first;
            m_object = &m_change->second;
            m_fromChanges = true;
        } else {
            m_key = &m_data->first;
            m_object = &m_data->second.object;
            m_fromChanges = false;
        }
        m_valid = true;
        return;
    }
}

void VisibleCursor::next()
{
    if (m_fromChanges) {
        ++m_change;
        if (m_alsoInData)
            ++m_data;
    } else {
        ++m_data;
    }
    settle();
}

Revision VisibleCursor::modRevision() const
{
    if (!m_fromChanges)
        return m_data->second.modRevision;
    return model::parseResourceVersion((*m_object)->resourceVersion()).value_or(0);
}

void MemoryState::pump()
{
    history.pump([this]() { return visibleEnd(); }, visibleRevision);
}

QCoro::Task<model::Result<WatchHandle>> MemoryStorage::watch(std::string prefix, Revision fromRevision,
                                                             WatchSink sink)
{
    std::shared_ptr<MemoryState> state = m_state;
    if (fromRevision < 0)
        co_return model::errors::badRequest("invalid resource version: " + std::to_string(fromRevision));
    if (fromRevision > state->visibleRevision)
        co_return model::errors::tooLargeResourceVersion(fromRevision, state->visibleRevision);
    if (fromRevision > 0 && fromRevision < state->history.oldestRetained - 1)
        co_return errors::watchTooOld(fromRevision, state->history.oldestRetained - 1);

    const Revision startAfter = fromRevision == 0 ? state->visibleRevision : fromRevision;
    std::vector<WatchEvent> initial;
    if (fromRevision == 0) {
        // Synthetic ADDED for the visible state (etcd3 watcher's initial sync).
        for (VisibleCursor cursor(*state, prefix, prefix, state->changesSince(prefix, startAfter)); cursor.valid();
             cursor.next()) {
            WatchEvent event;
            event.type = WatchEventType::Added;
            event.key = cursor.key();
            event.object = cursor.object();
            event.revision = cursor.modRevision();
            initial.push_back(std::move(event));
        }
    }
    auto watcher = state->history.addWatcher(std::move(prefix), std::move(sink), state->history.firstAfter(startAfter));
    // Delivered outside the map iteration, so sinks may write; those writes land after
    // startAfter and reach this watcher through pump() below.
    state->history.deliverInitial(*watcher, initial);
    state->pump();
    state->trimHistory();
    co_return WatchableHistory::handle(std::shared_ptr<WatchableHistory>(state, &state->history), std::move(watcher));
}

} // namespace rvscope::storage
