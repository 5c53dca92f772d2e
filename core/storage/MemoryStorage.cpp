// SPDX-License-Identifier: MIT
#include "storage/MemoryStorage.h"

#include "model/StatusErrors.h"
#include "storage/CommitLog.h"
#include "storage/MemoryState_p.h"
#include "storage/StorageErrors.h"

namespace rvscope::storage {
namespace {

// Pages over a key-ordered range of (key, object) pairs; `objectOf` adapts the element type.
template <typename It, typename ObjectOf>
ListResult paginate(It begin, It end, const std::string &prefix, const ListOptions &options,
                    ObjectOf objectOf)
{
    ListResult result;
    It it = begin;
    for (; it != end && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
        if (options.limit > 0 && static_cast<std::int64_t>(result.items.size()) >= options.limit)
            break;
        const ObjectPtr &object = objectOf(*it);
        if (!options.predicate || options.predicate(*object)) {
            result.items.push_back(object);
            if (options.withKeys)
                result.keys.push_back(it->first);
        }
    }
    if (it != end && it->first.compare(0, prefix.size(), prefix) == 0) {
        // Restart strictly after the last key examined, whatever the next key will be.
        auto last = std::prev(it);
        result.continueKey = last->first + '\0';
        if (!options.predicate) {
            std::int64_t remaining = 0;
            for (; it != end && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
                ++remaining;
            result.remainingItemCount = remaining;
        }
    }
    return result;
}

// What a write returns when its commit could not be made durable.
model::Status notDurable(const CommitLog &log)
{
    return model::Status::internalError("the change was applied but could not be written to the data directory ("
                                        + log.failure() + ")");
}

} // namespace

MemoryStorage::MemoryStorage()
    : MemoryStorage(Options{})
{
}

MemoryStorage::MemoryStorage(Options options)
    : m_state(std::make_shared<MemoryState>(options.historyLimit))
{
}

MemoryStorage::~MemoryStorage() = default;

model::Result<std::unique_ptr<MemoryStorage>> MemoryStorage::openDurable(const std::string &directory,
                                                                         const std::string &series, Options options)
{
    CommitLog::Recovered recovered;
    auto log = CommitLog::open(directory, series, recovered);
    if (!log)
        return std::move(log).error();
    auto storage = std::make_unique<MemoryStorage>(options);
    MemoryState &state = *storage->m_state;
    for (auto &[key, entry] : recovered.entries) {
        state.data[key] = MemoryState::Entry{
            std::make_shared<const model::Object>(model::Object::fromTrustedBytes(std::move(entry.object))),
            entry.createRevision, entry.modRevision};
    }
    if (recovered.revision > 0) {
        state.revision = recovered.revision;
        state.oldestRetained = recovered.revision + 1; // no history before the restart
    }
    state.log = std::move(log).value();
    return storage;
}

const std::shared_ptr<CommitLog> &MemoryStorage::commitLog() const
{
    return m_state->log;
}

QCoro::Task<model::Result<ObjectPtr>> MemoryStorage::get(std::string key)
{
    const MemoryState::Entry *entry = m_state->find(key);
    if (!entry)
        co_return errors::keyNotFound(key);
    co_return ObjectPtr(entry->object); // a copy: QCoro moves from a co_returned lvalue
}

QCoro::Task<model::Result<ObjectPtr>> MemoryStorage::create(std::string key, model::Object object)
{
    if (!object.resourceVersion().empty())
        co_return model::Status::internalError("resourceVersion should not be set on objects to be created");
    if (m_state->find(key))
        co_return errors::keyExists(key);
    std::shared_ptr<MemoryState> state = m_state; // `this` may go while the write waits for the disk
    ObjectPtr stored = stampRevision(std::move(object), state->nextRevision());
    state->commit(WatchEventType::Added, key, stored, nullptr);
    if (state->log) {
        const bool durable = co_await state->log->durable(state->lastSequence);
        if (!durable)
            co_return notDurable(*state->log);
    }
    co_return stored;
}

QCoro::Task<model::Result<RemoveResult>> MemoryStorage::remove(std::string key, Preconditions preconditions,
                                                               ValidateDeletion validate)
{
    const MemoryState::Entry *entry = m_state->find(key);
    if (!entry)
        co_return errors::keyNotFound(key);
    if (auto failed = preconditions.check(key, *entry->object))
        co_return *failed;
    if (validate) {
        if (auto rejected = validate(*entry->object))
            co_return *rejected;
    }
    // Nothing above suspends, so the compare-and-swap of a remote store cannot fail here.
    RemoveResult result;
    result.object = entry->object;
    result.revision = m_state->nextRevision();
    model::Object tombstone = *entry->object;
    ObjectPtr last = stampRevision(std::move(tombstone), result.revision);
    std::shared_ptr<MemoryState> state = m_state;
    state->commit(WatchEventType::Deleted, key, last, result.object);
    if (state->log) {
        const bool durable = co_await state->log->durable(state->lastSequence);
        if (!durable)
            co_return notDurable(*state->log);
    }
    co_return result;
}

QCoro::Task<model::Result<ListResult>> MemoryStorage::list(std::string prefix, ListOptions options)
{
    MemoryState &state = *m_state;
    const Revision at = options.revision == 0 ? state.revision : options.revision;
    if (at > state.revision)
        co_return model::errors::tooLargeResourceVersion(at, state.revision);
    if (at < state.oldestRetained - 1)
        co_return errors::listTooOld();

    const std::string &from = options.startKey > prefix ? options.startKey : prefix;
    ListResult result;
    if (at == state.revision) {
        result = paginate(state.data.lower_bound(from), state.data.end(), prefix, options,
                          [](const auto &pair) -> const ObjectPtr & { return pair.second.object; });
    } else {
        const auto snapshot = state.snapshotAt(prefix, at);
        result = paginate(snapshot.lower_bound(from), snapshot.end(), prefix, options,
                          [](const auto &pair) -> const ObjectPtr & { return pair.second; });
    }
    result.revision = at;
    co_return result;
}

QCoro::Task<model::Result<UpdateResult>> MemoryStorage::guaranteedUpdate(std::string key, Preconditions preconditions,
                                                                         TryUpdate tryUpdate, ObjectPtr suggestion,
                                                                         bool ignoreNotFound)
{
    // The frame keeps the state alive: the storage object may go away while tryUpdate waits.
    std::shared_ptr<MemoryState> state = m_state;
    struct Origin {
        ObjectPtr object;
        Revision modRevision = 0;
    };
    auto readCurrent = [&state, &key]() {
        const MemoryState::Entry *entry = state->find(key);
        return entry ? Origin{entry->object, entry->modRevision} : Origin{};
    };

    Origin origin;
    bool originIsCurrent = true;
    if (suggestion) {
        origin = {suggestion, model::parseResourceVersion(suggestion->resourceVersion()).value_or(-1)};
        originIsCurrent = false;
    } else {
        origin = readCurrent();
    }

    UpdateResult result;
    for (;;) {
        if (!origin.object && !ignoreNotFound) {
            if (!originIsCurrent) {
                origin = readCurrent();
                originIsCurrent = true;
                continue;
            }
            co_return errors::keyNotFound(key);
        }
        if (origin.object) {
            if (auto failed = preconditions.check(key, *origin.object)) {
                if (!originIsCurrent) {
                    origin = readCurrent();
                    originIsCurrent = true;
                    continue;
                }
                co_return *failed;
            }
        }

        model::Result<model::Object> updated = co_await tryUpdate(origin.object);
        if (!updated) {
            // The error may stem from stale data; only a verdict on fresh data is final.
            if (!originIsCurrent) {
                origin = readCurrent();
                originIsCurrent = true;
                continue;
            }
            co_return std::move(updated).error();
        }
        model::Object next = std::move(updated).value();

        if (origin.object) {
            // Canonical JSON encoding is a function of the tree (objects are key-sorted), so
            // comparing trees is comparing the bytes we would write, without encoding twice.
            next.setResourceVersion(origin.object->resourceVersion());
            if (next.json() == origin.object->json()) {
                const Origin current = readCurrent();
                if (current.modRevision == origin.modRevision) {
                    result.object = origin.object;
                    result.noop = true;
                    co_return result;
                }
                // A no-op against a stale copy proves nothing: redo it on the current state.
                origin = current;
                originIsCurrent = true;
                continue;
            }
        }

        // Compare-and-swap on the key's modification revision: did anyone commit since we read?
        const Origin current = readCurrent();
        if (current.modRevision != origin.modRevision) {
            origin = current;
            originIsCurrent = true;
            ++result.retries;
            continue;
        }
        next.setResourceVersion(std::string());
        result.object = stampRevision(std::move(next), state->nextRevision());
        result.created = !origin.object;
        state->commit(origin.object ? WatchEventType::Modified : WatchEventType::Added, key, result.object,
                      origin.object);
        if (state->log) {
            const bool durable = co_await state->log->durable(state->lastSequence);
            if (!durable)
                co_return notDurable(*state->log);
        }
        co_return result;
    }
}

QCoro::Task<model::Result<Revision>> MemoryStorage::compact(Revision revision)
{
    MemoryState &state = *m_state;
    if (revision > state.revision)
        co_return model::errors::tooLargeResourceVersion(revision, state.revision);
    while (!state.history.empty() && state.history.front().revision < revision && !state.pumping) {
        state.history.pop_front();
        ++state.historyBase;
    }
    state.oldestRetained = std::max(state.oldestRetained, revision);
    co_return Revision(state.oldestRetained);
}

QCoro::Task<model::Result<Revision>> MemoryStorage::currentRevision()
{
    co_return Revision(m_state->revision);
}

Revision MemoryStorage::revision() const
{
    return m_state->revision;
}

Revision MemoryStorage::oldestWatchableRevision() const
{
    return m_state->oldestRetained - 1;
}

std::size_t MemoryStorage::objectCount() const
{
    return m_state->data.size();
}

} // namespace rvscope::storage
