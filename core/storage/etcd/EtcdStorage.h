// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/EtcdBackend.h"
#include "storage/Storage.h"

namespace rvscope::storage {

class EtcdState;

// The storage contract on a real etcd v3 (one member or a cluster), over etcd's native gRPC
// API, mapped the way kube-apiserver's etcd3 store maps it:
// - every key lives under `prefix` (the storage's "/registry" is replaced by it, so the default
//   prefix gives the apiserver's own layout and separate deployments can share one etcd);
//   values are the objects' JSON without metadata.resourceVersion;
// - resourceVersion = the key's mod_revision; a list's revision = the response header's;
// - create = Txn(If mod_revision(key) == 0 Then Put); guaranteedUpdate and remove =
//   Txn(If mod_revision(key) == r Then Put/Delete Else Get), the Else branch being the next
//   attempt's current object; a Txn whose outcome is unknown is re-read and compared;
// - watch = one etcd watch on the whole prefix (with prev_kv) feeding a bounded in-memory
//   history, from which every storage watch is served in revision order (like the apiserver's
//   watch cache); a watch from before the feed started is first filled in from etcd's own
//   history (within the history bound; past it, 410 as from the watch cache); compaction =
//   etcd compaction, and compacted revisions are 410 Expired.
//
// A write completes only once the watch feed has received its revision, so this instance's
// own watchers have the event before the writer's reply (as with MemoryStorage). Writes of
// other instances on the same prefix arrive by the feed, in revision order.
//
// Nothing blocks the calling thread: results come back from gRPC's threads as queued events
// (see EtcdClient). Create and call on the core thread only. Pending coroutines and watch
// handles may outlive the object.
class EtcdStorage final : public Storage {
public:
    using Options = EtcdOptions;

    explicit EtcdStorage(Options options);
    ~EtcdStorage() override;
    EtcdStorage(const EtcdStorage &) = delete;
    EtcdStorage &operator=(const EtcdStorage &) = delete;

    // Waits until the watch feed is established (etcd answered). An error when no endpoint
    // answers within the request timeout.
    QCoro::Task<model::Result<Revision>> ready();

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
    // The feed's revision: every event up to it has been handed to this storage's watchers.
    QCoro::Task<model::Result<Revision>> progressRevision() override;

    // Other rvscope instances may write the same prefix: their commits arrive by the feed.
    bool shared() const override { return true; }
    // Whether one of this instance's writes committed `revision` (the newest 100,000 kept).
    bool committedHere(Revision revision) const override;

    // How many objects the prefix holds, as the feed knows it (nothing until etcd counted).
    std::optional<std::int64_t> objectCount() const;
    // The newest revision the watch feed has seen (for stats; currentRevision() asks etcd).
    Revision feedRevision() const;
    Revision knownRevision() const override { return feedRevision(); }
    std::size_t knownObjectCount() const override;
    // The oldest revision a watch may start from right now (served from memory).
    Revision oldestWatchableRevision() const;
    const std::string &prefix() const;
    std::vector<std::string> endpoints() const;

private:
    std::shared_ptr<EtcdState> m_state;
};

// EtcdStorage as an EtcdBackend: what the module hands the core (EtcdModuleEntry.cpp), and what
// a test executable that links this code hands over itself (setEtcdBackend).
const EtcdBackend *linkedEtcdBackend();

} // namespace rvscope::storage
