// SPDX-License-Identifier: MIT
// CoreWorker: access control. Tokens and policy come from files; the node authorizer's graph
// follows every pod through a watch on the pods store, and a change to it, like the periodic
// timer, re-authorizes every open watch.
#include "engine/CoreWorker.h"

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "registry/Registry.h"
#include "server/ApiServer.h"
#include "storage/WatchHandle.h"

namespace rvscope::engine {

void CoreWorker::buildAccessControl()
{
    m_podWatch.reset();
    m_accessError.clear();
    if (!m_options.accessControlled())
        return;
    auth::TokenFile tokens;
    if (!m_options.tokenFile.isEmpty()) {
        auto loaded = auth::TokenFile::load(m_options.tokenFile.toStdString());
        if (!loaded) {
            m_accessError = QStringLiteral("--token-file: %1").arg(QString::fromStdString(loaded.error().message));
            return;
        }
        tokens = std::move(loaded).value();
    }
    tokens.setAnonymousAllowed(m_options.anonymous != EngineOptions::Anonymous::Refused);
    auth::Policy policy = auth::Policy::allowAll();
    if (!m_options.policyFile.isEmpty()) {
        auto loaded = auth::Policy::load(m_options.policyFile.toStdString());
        if (!loaded) {
            m_accessError = QStringLiteral("--policy-file: %1").arg(QString::fromStdString(loaded.error().message));
            return;
        }
        policy = std::move(loaded).value();
    }
    auto access = std::make_shared<api::AccessControl>(std::move(tokens), std::move(policy));
    m_handler->setAccessControl(access);

    const registry::Registry::Entry *pods = m_registry->find("", "v1", "pods");
    if (!pods)
        return;
    std::weak_ptr<api::AccessControl> weak = access;
    QPointer<CoreWorker> self(this);
    registry::WatchSink sink = [weak, self](const registry::WatchEvent &event) {
        auto shared = weak.lock();
        if (!shared || !event.object)
            return;
        auth::Authorizer &authorizer = shared->authorizer();
        const std::uint64_t before = authorizer.generation();
        if (event.type == registry::WatchEventType::Deleted)
            authorizer.nodeGraph().podDeleted(event.object->namespaceName(), event.object->name());
        else if (event.type == registry::WatchEventType::Added || event.type == registry::WatchEventType::Modified)
            authorizer.nodeGraph().podUpdated(event.object->json());
        // Not from inside storage's notification: ending a watch may touch other watchers.
        if (authorizer.generation() != before && self)
            QMetaObject::invokeMethod(self.data(), &CoreWorker::recheckWatches, Qt::QueuedConnection);
    };
    registry::ListOptions options;
    options.resourceVersion = "0";
    auto handle = QCoro::waitFor(pods->store->watch(std::string(), std::move(options), std::move(sink)));
    if (handle)
        m_podWatch = std::make_unique<storage::WatchHandle>(std::move(handle).value());
}

void CoreWorker::recheckWatches()
{
    if (auto access = m_handler ? m_handler->accessControl() : nullptr)
        access->recheckWatches();
    if (m_server)
        m_server->recheckBulkWatches();
}

} // namespace rvscope::engine
