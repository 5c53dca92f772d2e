// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <coroutine>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <QtCore/QObject>
#include <QtCore/QTimer>
#include <qcoro/qcorotask.h>

#include "storage/StorageTypes.h"
#include "storage/WatchableHistory.h"
#include "storage/etcd/EtcdClient.h"
#include "storage/etcd/EtcdStorage.h"

namespace rvscope::storage {

// EtcdStorage's state, shared with suspended coroutines (which may outlive the storage
// object) and reached by watch handles and the feed's callbacks through weak pointers.
// Core thread only; no locks.
//
// The feed: one etcd watch on [prefix/, prefix0) with prev_kv, from the revision etcd had
// when the storage started. Its events go into `history` (bounded by historyLimit) and from
// there to every storage watcher, exactly as MemoryState delivers its commits: in revision
// order, sinks may write, events caused by a sink are delivered after the current one.
class EtcdState final : public std::enable_shared_from_this<EtcdState> {
public:
    explicit EtcdState(EtcdStorage::Options options);
    ~EtcdState();

    // The storage's "/registry..." keys to etcd keys under `prefix`, and back.
    std::string toEtcd(const std::string &key) const;
    std::string fromEtcd(const std::string &etcdKey) const;
    // The end of the etcd range of every key starting with `etcdPrefix`.
    static std::string rangeEnd(std::string etcdPrefix);

    // ---- the feed (EtcdStorageWatch.cpp)
    void startFeed();
    void shutdown();
    // Suspends until the feed holds every event up to `revision` (a write of ours), or the
    // feed is down for longer than feedWaitTimeout, or the storage shut down.
    struct RevisionAwaiter {
        std::shared_ptr<EtcdState> state;
        Revision revision;
        bool await_ready() const { return state->reached(revision); }
        void await_suspend(std::coroutine_handle<> handle) { state->addWaiter(revision, handle); }
        void await_resume() const noexcept {}
    };
    // revision -1: until the feed's first watch was created or failed.
    RevisionAwaiter waitFor(Revision revision) { return RevisionAwaiter{shared_from_this(), revision}; }
    bool reached(Revision revision) const;

    std::shared_ptr<WatchableHistory::Watcher> addWatcher(std::string prefix, WatchSink sink, Revision after);
    void pump();
    // Bounds the history (historyLimit) and drops what etcd compacted.
    void trimHistory();
    // Local history older than `revision` is gone (etcd compacted there).
    void forgetBefore(Revision revision);
    // The key's newest state the feed has seen, while its event is in history (null: not
    // known, or deleted). A suggestion for guaranteedUpdate, as the apiserver takes one from
    // its watch cache: possibly stale, so the compare-and-swap decides.
    ObjectPtr latestKnown(const std::string &key) const;
    // The revisions this instance's own writes committed (the newest LOCAL_COMMITS_KEPT), to
    // tell other instances' writes apart in the feed (Storage::committedHere).
    void noteLocalCommit(Revision revision);
    bool committedLocally(Revision revision) const { return m_localCommits.contains(revision); }
    // How many objects the prefix holds: etcd's count at the feed's start plus the creates
    // and deletes the feed saw since (for stats). Nothing until etcd answered the count.
    std::optional<std::int64_t> objectCount() const
    {
        return m_countAtStart ? std::optional<std::int64_t>(*m_countAtStart + m_countDelta) : std::nullopt;
    }
    static constexpr std::size_t LOCAL_COMMITS_KEPT = 100000;
    // Extends history back to the events after `from` (older than the feed), read from etcd.
    // An error when etcd compacted them or did not answer.
    QCoro::Task<std::optional<model::Status>> backfill(Revision from);

    etcd::EtcdClient client;
    const std::string prefix; // no trailing '/'
    const std::chrono::milliseconds feedWaitTimeout;

    bool feedCreated = false; // the feed's etcd watch exists (it was created at least once)
    std::optional<model::Status> feedError; // why the first creation failed, if it did
    Revision feedRevision = 0; // every event under the prefix up to here is in history
    Revision compacted = 0;    // the newest compaction this storage made or learned of
    // The feed's events; indexes start high so that a backfill can prepend.
    WatchableHistory history{std::uint64_t(1) << 40, 0};
    std::size_t historyLimit;
    bool historyTrimmed = false; // the history bound dropped events (a backfill would too)
    // key -> absolute history index of its newest event (keys with an event in history only).
    std::unordered_map<std::string, std::uint64_t> newestEvent;
    bool closed = false;

private:
    struct Waiter {
        Revision revision;
        std::coroutine_handle<> handle;
        std::chrono::steady_clock::time_point deadline; // now + feedWaitTimeout when added
    };
    void addWaiter(Revision revision, std::coroutine_handle<> handle);
    void releaseWaiters(bool all);
    void expireWaiters();
    void openFeedStream(Revision startRevision);
    void handleFeedResponse(std::uint64_t generation, etcd::pb::WatchResponse response);
    void handleFeedClosed(std::uint64_t generation, const grpc::Status &status);
    void failAllWatchers(const model::Status &status);

    // Counts the prefix's keys at `revision` (the feed's start), for objectCount().
    static QCoro::Task<> countObjects(std::weak_ptr<EtcdState> weak, Revision revision, std::uint64_t generation);
    std::optional<std::int64_t> m_countAtStart;
    std::int64_t m_countDelta = 0;
    std::vector<Waiter> m_waiters; // in the order added, so by deadline
    // One timer for every waiter's deadline, armed for the first: a timer per write (a
    // QTimer::singleShot) left thousands registered, and Qt finds the timer it stops by a
    // linear search (8% of the core thread under 64 writers).
    QTimer *m_waiterDeadline = nullptr;
    std::unordered_set<Revision> m_localCommits;
    std::deque<Revision> m_localCommitOrder;
    std::shared_ptr<etcd::WatchStream> m_feed;
    std::uint64_t m_feedGeneration = 0;
    std::size_t m_feedFailures = 0; // closes since the feed last worked
    std::size_t m_feedEndpoint = 0; // the member the feed's stream went to
    std::unique_ptr<QObject> m_context; // timers' context object
};

// The object stored in `kv`, with metadata.resourceVersion set to `revision`.
model::Result<ObjectPtr> decodeAt(const etcd::pb::KeyValue &kv, Revision revision);
ObjectPtr restamp(const model::Object &object, Revision revision);

} // namespace rvscope::storage
