// SPDX-License-Identifier: MIT
#include "storage/MemoryStorage.h"

#include "model/StatusErrors.h"
#include "storage/CommitLog.h"
#include "storage/MemoryState_p.h"
#include "storage/StorageErrors.h"

namespace rvscope::storage {
namespace {

// One page of what `cursor` walks.
ListResult paginate(VisibleCursor cursor, const ListOptions &options)
{
    ListResult result;
    const std::string *lastKey = nullptr;
    for (; cursor.valid(); cursor.next()) {
        if (options.limit > 0 && static_cast<std::int64_t>(result.items.size()) >= options.limit)
            break;
        lastKey = &cursor.key();
        const ObjectPtr &object = cursor.object();
        if (!options.predicate || options.predicate(*object)) {
            result.items.push_back(object);
            if (options.withKeys)
                result.keys.push_back(cursor.key());
        }
    }
    if (cursor.valid() && lastKey) {
        // Restart strictly after the last key examined, whatever the next key will be.
        result.continueKey = *lastKey + '\0';
        if (!options.predicate) {
            std::int64_t remaining = 0;
            for (; cursor.valid(); cursor.next())
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
    auto log = CommitLog::open(directory, series, options.historyLimit, recovered);
    if (!log)
        return std::move(log).error();
    auto storage = std::make_unique<MemoryStorage>(options);
    MemoryState &state = *storage->m_state;
    for (auto &[key, entry] : recovered.entries) {
        state.data[key] = MemoryState::Entry{
            std::make_shared<const model::Object>(model::Object::fromTrustedBytes(std::move(entry.object))),
            entry.modRevision};
    }
    if (recovered.base > 0) {
        state.revision = state.visibleRevision = recovered.base;
        state.history.oldestRetained = recovered.base + 1;
    }
    // The retained history, replayed so that watches and lists resume across the restart.
    for (CommitLog::Record &record : recovered.records) {
        const MemoryState::Entry *entry = state.find(record.key);
        ObjectPtr previous = entry ? entry->object : nullptr;
        state.revision = record.revision - 1; // commit() takes the next revision (no log yet: visible at once)
        if (record.change == CommitLog::Change::Delete) {
            if (!previous)
                return model::Status::internalError("data directory: the delete of " + record.key + " at revision "
                                                    + std::to_string(record.revision) + " finds no object");
            state.commit(WatchEventType::Deleted, record.key, stampRevision(*previous, record.revision), previous);
        } else {
            ObjectPtr object =
                std::make_shared<const model::Object>(model::Object::fromTrustedBytes(std::move(record.object)));
            const WatchEventType type = previous ? WatchEventType::Modified : WatchEventType::Added;
            state.commit(type, record.key, std::move(object), std::move(previous));
        }
    }
    state.log = std::move(log).value();
    state.logBase = state.revision;
    std::weak_ptr<MemoryState> weak = storage->m_state;
    state.log->setDurableListener([weak] {
        if (auto alive = weak.lock())
            alive->onDurable();
    });
    return storage;
}

const std::shared_ptr<CommitLog> &MemoryStorage::commitLog() const
{
    return m_state->log;
}

QCoro::Task<model::Result<ObjectPtr>> MemoryStorage::get(std::string key)
{
    // A key with a commit on its way to disk is read once that commit is there (as etcd's
    // linearizable read waits for the apply to catch up): the reader then gets the newest
    // state rather than one its next compare-and-swap is bound to lose against.
    std::shared_ptr<MemoryState> state = m_state;
    co_await state->settledFor(key);
    ObjectPtr object = state->visibleObject(key);
    if (!object)
        co_return errors::keyNotFound(key);
    co_return object;
}

QCoro::Task<model::Result<ObjectPtr>> MemoryStorage::create(std::string key, model::Object object)
{
    if (!object.resourceVersion().empty())
        co_return model::Status::internalError("resourceVersion should not be set on objects to be created");
    std::shared_ptr<MemoryState> state = m_state; // `this` may go while the write waits for the disk
    if (state->find(key)) {
        co_await state->settledFor(key); // the key may exist only in a commit not on disk yet
        co_return errors::keyExists(key);
    }
    ObjectPtr stored = stampRevision(std::move(object), state->nextRevision());
    state->commit(WatchEventType::Added, key, stored, nullptr);
    if (!co_await state->settled())
        co_return notDurable(*state->log);
    co_return stored;
}

QCoro::Task<model::Result<RemoveResult>> MemoryStorage::remove(std::string key, Preconditions preconditions,
                                                               ValidateDeletion validate)
{
    std::shared_ptr<MemoryState> state = m_state;
    const MemoryState::Entry *entry = state->find(key);
    std::optional<model::Status> refused;
    if (!entry)
        refused = errors::keyNotFound(key);
    else if (auto failed = preconditions.check(key, *entry->object))
        refused = std::move(failed);
    else if (validate)
        refused = validate(*entry->object);
    if (refused) {
        co_await state->settledFor(key); // a verdict on a commit not on disk yet waits for it
        co_return *refused;
    }
    // Nothing above suspends, so the compare-and-swap of a remote store cannot fail here.
    RemoveResult result;
    result.object = entry->object;
    result.revision = state->nextRevision();
    model::Object tombstone = *entry->object;
    ObjectPtr last = stampRevision(std::move(tombstone), result.revision);
    state->commit(WatchEventType::Deleted, key, last, result.object);
    if (!co_await state->settled())
        co_return notDurable(*state->log);
    co_return result;
}

QCoro::Task<model::Result<ListResult>> MemoryStorage::list(std::string prefix, ListOptions options)
{
    MemoryState &state = *m_state;
    const Revision at = options.revision == 0 ? state.visibleRevision : options.revision;
    if (at > state.visibleRevision)
        co_return model::errors::tooLargeResourceVersion(at, state.visibleRevision);
    if (at < state.history.oldestRetained - 1)
        co_return errors::listTooOld();

    const std::string &from = options.startKey > prefix ? options.startKey : prefix;
    ListResult result = paginate(VisibleCursor(state, prefix, from, state.changesSince(prefix, at)), options);
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
            co_await state->settledFor(key); // a verdict on a commit not on disk yet waits for it
            co_return errors::keyNotFound(key);
        }
        if (origin.object) {
            if (auto failed = preconditions.check(key, *origin.object)) {
                if (!originIsCurrent) {
                    origin = readCurrent();
                    originIsCurrent = true;
                    continue;
                }
                co_await state->settledFor(key);
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
            co_await state->settledFor(key);
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
                    co_await state->settledFor(key);
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
        if (!co_await state->settled())
            co_return notDurable(*state->log);
        co_return result;
    }
}

QCoro::Task<model::Result<Revision>> MemoryStorage::compact(Revision revision)
{
    MemoryState &state = *m_state;
    if (revision > state.visibleRevision)
        co_return model::errors::tooLargeResourceVersion(revision, state.visibleRevision);
    while (!state.history.events.empty() && state.history.events.front().revision < revision && !state.history.pumping) {
        state.history.popFront();
    }
    state.history.oldestRetained = std::max(state.history.oldestRetained, revision);
    if (state.log)
        state.log->appendCompaction(state.history.oldestRetained);
    co_return Revision(state.history.oldestRetained);
}

QCoro::Task<model::Result<Revision>> MemoryStorage::currentRevision()
{
    co_return Revision(m_state->visibleRevision);
}

Revision MemoryStorage::revision() const
{
    return m_state->visibleRevision;
}

Revision MemoryStorage::oldestWatchableRevision() const
{
    return m_state->history.oldestRetained - 1;
}

std::size_t MemoryStorage::objectCount() const
{
    return m_state->data.size();
}

} // namespace rvscope::storage
