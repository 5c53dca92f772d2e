// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>

#include <QtCore/QObject>
#include <qcoro/qcorotask.h>

#include "model/Result.h"
#include "storage/WatchHandle.h"

namespace rvscope::api {
class AccessControl;
}
namespace rvscope::registry {
class Registry;
class Store;
struct WatchEvent;
}

namespace rvscope::sim {

// Keeps an AccessControl's node graph in step with the pods of a registry, and re-authorizes
// open watches when the graph changes: the apiserver's graph populator (informers on pods
// feeding the node authorizer) plus the re-check of issue 7. A watch on every pod, from
// resourceVersion 0 so that existing pods are fed first, calls NodeGraph::podUpdated /
// podDeleted; when that changes the authorizer's generation (an edge appeared or vanished:
// a pod was bound to a node, deleted, or stopped referencing a secret), a re-check is queued
// on the event loop, once however many pods changed meanwhile. It is never run inside
// storage's notification, because ending a watch may touch other watchers.
//
// Like an informer it would have to relist after an ERROR on the pod watch; in-memory
// storage never ends a watcher that keeps up, and this one always does (delivery is
// synchronous), so an ERROR is ignored.
//
// The engine's access control (serve --token-file/--policy-file) and a scenario with an
// "access" section use the same feeder. Core thread only; hold by shared_ptr.
class NodeGraphFeeder final : public std::enable_shared_from_this<NodeGraphFeeder> {
public:
    // Runs the re-check: AccessControl::recheckWatches() and whatever else holds watches
    // (the engine adds the server's bulk watch channels).
    using Recheck = std::function<void()>;

    // Starts feeding `access` from the pods of `registry`. An empty `recheck` means
    // access->recheckWatches(). The pod watch opens without blocking: with in-memory
    // storage the existing pods are in the graph when this returns (a watch that cannot
    // open is logged). Fails with pathNotFound() when pods are not served.
    // The feeder holds `access` weakly: once the access control is gone it does nothing.
    static model::Result<std::shared_ptr<NodeGraphFeeder>> start(registry::Registry &registry,
                                                                 const std::shared_ptr<api::AccessControl> &access,
                                                                 Recheck recheck = {});
    ~NodeGraphFeeder(); // stops the pod watch; a queued re-check is dropped
    NodeGraphFeeder(const NodeGraphFeeder &) = delete;
    NodeGraphFeeder &operator=(const NodeGraphFeeder &) = delete;

    // Whether a graph change is waiting for its re-check.
    bool recheckQueued() const { return m_queued; }
    // Runs the queued re-check now instead of on the next event loop turn (a scenario step
    // does this before it reports, so the ERROR 403 its pod change causes belongs to it).
    // Returns false, doing nothing, when none is queued.
    bool recheckNow();

private:
    NodeGraphFeeder(std::weak_ptr<api::AccessControl> access, Recheck recheck);
    // A member coroutine: it keeps the feeder only weakly across the wait.
    QCoro::Task<> watchPods(std::shared_ptr<registry::Store> pods);
    void handlePodEvent(const registry::WatchEvent &event);

    std::weak_ptr<api::AccessControl> m_access;
    Recheck m_recheck;
    storage::WatchHandle m_podWatch;
    QObject m_queue; // the context of queued re-checks: they are dropped with the feeder
    bool m_queued = false;
};

} // namespace rvscope::sim
