// SPDX-License-Identifier: MIT
#include "sim/NodeGraphFeeder.h"

#include <qcoro/qcorotask.h>

#include "api/AccessControl.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"
#include "registry/Store.h"

namespace rvscope::sim {

NodeGraphFeeder::NodeGraphFeeder(std::weak_ptr<api::AccessControl> access, Recheck recheck)
    : m_access(std::move(access))
    , m_recheck(std::move(recheck))
{
}

NodeGraphFeeder::~NodeGraphFeeder() = default;

model::Result<std::shared_ptr<NodeGraphFeeder>> NodeGraphFeeder::start(registry::Registry &registry,
                                                                       const std::shared_ptr<api::AccessControl> &access,
                                                                       Recheck recheck)
{
    const std::shared_ptr<const registry::Registry::Entry> pods = registry.find("", "v1", "pods");
    if (!pods)
        return model::errors::pathNotFound();
    std::shared_ptr<NodeGraphFeeder> feeder(new NodeGraphFeeder(access, std::move(recheck)));
    feeder->watchPods(pods->store);
    return feeder;
}

QCoro::Task<> NodeGraphFeeder::watchPods(std::shared_ptr<registry::Store> pods)
{
    std::weak_ptr<NodeGraphFeeder> weak = weak_from_this();
    registry::WatchSink sink = [weak](const registry::WatchEvent &event) {
        if (auto shared = weak.lock())
            shared->handlePodEvent(event);
    };
    registry::ListOptions options;
    options.resourceVersion = "0"; // every existing pod as ADDED first, then every change
    auto handle = co_await pods->watch(std::string(), std::move(options), std::move(sink));
    auto self = weak.lock();
    if (!self)
        co_return; // gone meanwhile: the handle closes the watch
    if (!handle) {
        qWarning("rvscope: the node authorizer cannot follow pods: %s", handle.error().message.c_str());
        co_return;
    }
    self->m_podWatch = std::move(handle).value();
}

void NodeGraphFeeder::handlePodEvent(const registry::WatchEvent &event)
{
    auto access = m_access.lock();
    if (!access || !event.object)
        return;
    auth::Authorizer &authorizer = access->authorizer();
    const std::uint64_t before = authorizer.generation();
    if (event.type == registry::WatchEventType::Deleted)
        authorizer.nodeGraph().podDeleted(event.object->namespaceName(), event.object->name());
    else if (event.type == registry::WatchEventType::Added || event.type == registry::WatchEventType::Modified)
        authorizer.nodeGraph().podUpdated(event.object->json());
    if (authorizer.generation() == before || m_queued)
        return;
    m_queued = true;
    std::weak_ptr<NodeGraphFeeder> weak = weak_from_this();
    QMetaObject::invokeMethod(
        &m_queue,
        [weak] {
            if (auto shared = weak.lock())
                shared->recheckNow();
        },
        Qt::QueuedConnection);
}

bool NodeGraphFeeder::recheckNow()
{
    if (!m_queued)
        return false;
    m_queued = false;
    if (m_recheck) {
        m_recheck();
    } else if (auto access = m_access.lock()) {
        access->recheckWatches();
    }
    return true;
}

} // namespace rvscope::sim
