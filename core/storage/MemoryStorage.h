// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>

#include "storage/Storage.h"
#include "storage/StorageLimits.h"

namespace rvscope::storage {

class CommitLog;
class MemoryState;

// The embedded MVCC store: one global revision (starting at 1, like etcd), per key the latest
// value with its create and modification revisions, and a bounded history of change events
// that serves watches, resumes and exact-revision reads ("list at revision N" undoes the
// newer events). Compaction and the history bound both move the oldest revision still
// served; older requests get 410 Expired.
//
// Calls complete synchronously unless a TryUpdate suspends; a commit made while another
// update is suspended makes that update's compare-and-swap fail and retry, exactly as
// against etcd. Core thread only. Pending coroutines and watch handles may outlive the
// MemoryStorage object.
class MemoryStorage final : public Storage {
public:
    struct Options {
        // How many change events are kept for watch/resume (`serve --watch-history N`).
        std::size_t historyLimit = DEFAULT_WATCH_HISTORY;
    };

    MemoryStorage();
    explicit MemoryStorage(Options options);
    // A durable store in `directory` (`serve --data-dir`): the state and the retained watch
    // history are restored from <series>.snapshot and <series>.log. A commit is on disk
    // (CommitLog's group commit) before its write is acknowledged and before any read or
    // watcher sees it; until then only later compare-and-swaps see it.
    static model::Result<std::unique_ptr<MemoryStorage>> openDurable(const std::string &directory,
                                                                     const std::string &series, Options options);
    ~MemoryStorage() override;
    MemoryStorage(const MemoryStorage &) = delete;
    MemoryStorage &operator=(const MemoryStorage &) = delete;

    QCoro::Task<model::Result<ObjectPtr>> get(std::string key) override;
    QCoro::Task<model::Result<ObjectPtr>> create(std::string key, model::Object object) override;
    QCoro::Task<model::Result<RemoveResult>> remove(std::string key, Preconditions preconditions,
                                                    ValidateDeletion validate = {}) override;
    QCoro::Task<model::Result<ListResult>> list(std::string prefix, ListOptions options) override;
    QCoro::Task<model::Result<WatchHandle>> watch(std::string prefix, Revision fromRevision,
                                                  WatchSink sink) override;
    QCoro::Task<model::Result<UpdateResult>> guaranteedUpdate(std::string key, Preconditions preconditions,
                                                              TryUpdate tryUpdate, ObjectPtr suggestion = {},
                                                              bool ignoreNotFound = false) override;
    QCoro::Task<model::Result<Revision>> compact(Revision revision) override;
    QCoro::Task<model::Result<Revision>> currentRevision() override;

    // The current revision, synchronously (for stats; the Storage call is the contract).
    Revision revision() const;
    // The oldest revision a watch may start from (fromRevision >= this) right now.
    Revision oldestWatchableRevision() const;
    std::size_t objectCount() const;
    Revision knownRevision() const override { return revision(); }
    std::size_t knownObjectCount() const override { return objectCount(); }
    // The data directory's log (null in memory only).
    const std::shared_ptr<CommitLog> &commitLog() const;

private:
    std::shared_ptr<MemoryState> m_state;
};

} // namespace rvscope::storage
