// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>

#include <qcoro/qcorotask.h>

#include "model/Object.h"
#include "model/Result.h"
#include "storage/StorageTypes.h"
#include "storage/WatchHandle.h"

namespace rvscope::storage {

// The storage contract (mirrors k8s.io/apiserver storage.Interface over etcd). Keys are
// strings such as "/registry/configmaps/default/foo"; values are Kubernetes objects whose
// metadata.resourceVersion the storage owns: it is the decimal revision of the key's last
// modification, set on every object the storage returns.
//
// Every call is asynchronous so that a networked implementation never blocks the core
// thread. Implementations are single-threaded: call them from the thread that owns them.
// Durable before visible: where a storage is durable, get, list, watch and currentRevision
// reflect a commit only once it is durable, and a write's answer (success or failure) that
// rests on a commit waits until that commit is durable (so does a get of a key whose commit
// is on its way to disk: it then returns the newest state, as a linearizable read would). A crash then loses only writes no
// client was told of, and a restart never hands out a revision a client may have seen
// (StorageConformanceDurability.cpp checks it; tests/e2e/test_kill_durability.py kills).
//
// Errors are Statuses with a StorageCode (KeyNotFound, KeyExists, InvalidObj for failed
// preconditions) that the registry translates into resource-specific messages, or the
// API errors 410 Expired / 504 Timeout for revisions outside the available range.
class Storage {
public:
    virtual ~Storage() = default;

    // The current object; KeyNotFound when absent.
    virtual QCoro::Task<model::Result<ObjectPtr>> get(std::string key) = 0;

    // Stores a new object at a new revision; KeyExists when the key is taken.
    virtual QCoro::Task<model::Result<ObjectPtr>> create(std::string key, model::Object object) = 0;

    // Deletes after checking preconditions and `validate` against the current object, as
    // one compare-and-swap loop. KeyNotFound when absent; InvalidObj on a failed precondition.
    virtual QCoro::Task<model::Result<RemoveResult>> remove(std::string key, Preconditions preconditions,
                                                            ValidateDeletion validate = {}) = 0;

    // Objects under `prefix` in key order, consistent with one revision (see ListOptions).
    virtual QCoro::Task<model::Result<ListResult>> list(std::string prefix, ListOptions options) = 0;

    // Streams changes under `prefix` to `sink`:
    // - fromRevision 0: an Added event for every current object (at its own revision), then
    //   every change after the revision that snapshot was taken at;
    // - fromRevision N: every change with revision > N, in order, with no gaps; 410 Expired
    //   ("too old resource version: N (M)") when N is older than the retained history, 504
    //   when N is newer than the current revision.
    // Catch-up events may be delivered before this call completes.
    virtual QCoro::Task<model::Result<WatchHandle>> watch(std::string prefix, Revision fromRevision,
                                                          WatchSink sink) = 0;

    // The seed's read-modify-write loop: starts from `suggestion` (a possibly stale cached
    // copy) or a fresh read, checks preconditions, calls tryUpdate(existing), and commits by
    // compare-and-swap on the key's modification revision, re-reading and calling tryUpdate
    // again whenever another commit got in first (counted in UpdateResult::retries). A
    // precondition or tryUpdate error computed from a stale suggestion is re-checked against
    // the current object before it is returned. An update that encodes to the stored bytes
    // writes nothing (no revision, no event) and reports noop. KeyNotFound when the key is
    // missing unless ignoreNotFound, in which case tryUpdate(nullptr) may create it.
    virtual QCoro::Task<model::Result<UpdateResult>> guaranteedUpdate(std::string key, Preconditions preconditions,
                                                                      TryUpdate tryUpdate,
                                                                      ObjectPtr suggestion = {},
                                                                      bool ignoreNotFound = false) = 0;

    // Forgets history before `revision`: reads and watches from older revisions then fail
    // with 410. Returns the compacted revision. 504 for a revision not reached yet.
    virtual QCoro::Task<model::Result<Revision>> compact(Revision revision) = 0;

    virtual QCoro::Task<model::Result<Revision>> currentRevision() = 0;

    // The newest revision every watch of this storage has been handed: what a bookmark may
    // carry (a client resuming from it misses nothing). A storage that delivers its commits
    // as it makes them answers currentRevision(); one fed by a remote watch (etcd) answers
    // how far its feed got, which may be behind the remote's current revision.
    virtual QCoro::Task<model::Result<Revision>> progressRevision() { return currentRevision(); }

    // Whether other processes write to this storage too (several rvscope instances on one
    // etcd): their commits then reach this one only by watch.
    virtual bool shared() const { return false; }
    // Whether this process committed `revision` (of a shared storage); asked of revisions a
    // watch delivered, once this process's own writes of that time have completed.
    virtual bool committedHere(Revision revision) const
    {
        (void)revision;
        return true;
    }

    // What the status bar shows of a storage without waiting (not part of the contract): the
    // newest revision it knows of, and how many objects it holds (0 while it does not know).
    virtual Revision knownRevision() const { return 0; }
    virtual std::size_t knownObjectCount() const { return 0; }
};

} // namespace rvscope::storage
