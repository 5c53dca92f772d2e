// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "storage/Storage.h"

namespace rvscope::watch {

using model::ObjectPtr;

struct WatchHubOptions {
    // Recent events kept per shared stream, so that a watch starting from a recent
    // resourceVersion (typically a list's) joins the shared stream.
    std::size_t bufferEvents = 1024;
    // ... and at most about this many bytes of encoded objects: the buffer keeps the
    // versions it holds alive, so a type of huge objects keeps fewer of them.
    std::size_t bufferBytes = 8 * 1024 * 1024;
};

struct WatchHubStats {
    int upstreams = 0;      // storage watches the hub holds: one per watched resource type
    int sharedWatchers = 0; // watches served from them
    int directWatchers = 0; // watches each on a storage watch of their own (see WatchHub)
};

// The watch fan-out of one storage (DESIGN "Watch fan-out"; the apiserver's Cacher plays
// this part): a Storage that forwards every call to `inner` except watch(), which it serves
// from one upstream storage watch per root (the registry adds one root per resource type,
// "/registry/configmaps/"; a prefix under no root is its own root). Each event of a root is
// handed to every watcher whose prefix it falls under as one shared WatchEvent carrying one
// WatchEventEncodings, so the layers above serialize it once, not once per watcher.
//
// Watchers get exactly the Storage::watch contract:
// - from revision 0: the current objects (a list) as ADDED events, then the shared stream
//   after the list's revision;
// - from revision N: the inner storage first validates N (410 Expired / 504 with its own
//   messages, by opening and dropping a watch there); the watcher then replays the
//   buffered events after N and joins the live stream. Only when N is older than what the
//   stream holds (before it started, or trimmed from its buffer) is the watcher served by
//   a storage watch of its own ("direct").
// An upstream that fails (an ERROR from the inner storage) ends its watchers with that
// ERROR; the next watch starts a new one. Upstreams live as long as the hub.
//
// Core thread only. Handles may outlive the hub.
class WatchHub final : public storage::Storage {
public:
    explicit WatchHub(std::shared_ptr<storage::Storage> inner, WatchHubOptions options = {});
    ~WatchHub() override;
    WatchHub(const WatchHub &) = delete;
    WatchHub &operator=(const WatchHub &) = delete;

    // Watches of prefixes under `root` (ending in '/') share one upstream.
    void addRoot(std::string root);
    const std::shared_ptr<storage::Storage> &inner() const { return m_inner; }
    WatchHubStats stats() const;

    QCoro::Task<model::Result<ObjectPtr>> get(std::string key) override;
    QCoro::Task<model::Result<ObjectPtr>> create(std::string key, model::Object object) override;
    QCoro::Task<model::Result<storage::RemoveResult>> remove(std::string key, storage::Preconditions preconditions,
                                                             storage::ValidateDeletion validate = {}) override;
    QCoro::Task<model::Result<storage::ListResult>> list(std::string prefix, storage::ListOptions options) override;
    QCoro::Task<model::Result<storage::WatchHandle>> watch(std::string prefix, storage::Revision fromRevision,
                                                           storage::WatchSink sink) override;
    QCoro::Task<model::Result<storage::UpdateResult>> guaranteedUpdate(std::string key,
                                                                       storage::Preconditions preconditions,
                                                                       storage::TryUpdate tryUpdate,
                                                                       ObjectPtr suggestion = {},
                                                                       bool ignoreNotFound = false) override;
    QCoro::Task<model::Result<storage::Revision>> compact(storage::Revision revision) override;
    QCoro::Task<model::Result<storage::Revision>> currentRevision() override;
    QCoro::Task<model::Result<storage::Revision>> progressRevision() override;
    bool shared() const override;
    bool committedHere(storage::Revision revision) const override;

    struct Watcher;
    struct Upstream;

private:
    std::string rootOf(const std::string &prefix) const;
    // The live upstream of `root`, started (at `from`, or the current revision for 0) if
    // there is none.
    QCoro::Task<model::Result<std::shared_ptr<Upstream>>> upstreamFor(std::string root, storage::Revision from);
    QCoro::Task<model::Result<storage::WatchHandle>> watchDirect(std::string prefix, storage::Revision fromRevision,
                                                                 storage::WatchSink sink);

    std::shared_ptr<storage::Storage> m_inner;
    WatchHubOptions m_options;
    std::set<std::string> m_roots;
    std::map<std::string, std::shared_ptr<Upstream>> m_upstreams;
    std::shared_ptr<int> m_directWatchers = std::make_shared<int>(0);
};

} // namespace rvscope::watch
