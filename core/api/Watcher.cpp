// SPDX-License-Identifier: MIT
#include "api/Watcher.h"

#include <cstdlib>
#include <utility>

#include "model/StatusErrors.h"
#include "registry/ResourceType.h"
#include "storage/Storage.h"

namespace rvscope::api {
namespace {
// A timer may be stopped from its own timeout: let the event loop delete it.
void dropTimer(std::unique_ptr<QTimer> &timer)
{
    if (timer) {
        timer->stop();
        timer.release()->deleteLater();
    }
}

registry::WatchEvent errorEvent(const model::Status &status)
{
    registry::WatchEvent event;
    event.type = registry::WatchEventType::Error;
    event.error = status;
    return event;
}
} // namespace

Watcher::Watcher(Options options)
    : m_options(std::move(options))
{
}

Watcher::~Watcher()
{
    stopTimers();
}

registry::WatchSink Watcher::sink()
{
    std::weak_ptr<Watcher> weak = weak_from_this();
    return [weak](const registry::WatchEvent &event) {
        auto self = weak.lock();
        if (!self || self->m_ended || self->m_finishPending)
            return;
        self->deliver(registry::watchEventLine(event), event);
        if (event.type == registry::WatchEventType::Error)
            self->finish(/*tooSlow=*/false);
    };
}

void Watcher::setHandle(storage::WatchHandle handle)
{
    m_handle = std::move(handle);
}

void Watcher::deliver(std::shared_ptr<const std::string> line, const registry::WatchEvent &event)
{
    if (!m_transport) {
        m_pending.emplace_back(std::move(line), event);
        return;
    }
    if (m_stalled) {
        // Counted, not kept: the stream stays silent until the backlog limit ends it.
        m_stalledBytes += line->size() + 1;
        if (m_options.maxBacklogBytes > 0 && m_stalledBytes > m_options.maxBacklogBytes) {
            const registry::WatchEvent error =
                errorEvent(model::errors::watchTooSlow(m_stalledBytes, m_options.maxBacklogBytes));
            handError(error);
            finish(/*tooSlow=*/true);
        }
        return;
    }
    if (endIfTooSlow())
        return;
    hand(line, event);
}

void Watcher::handError(const registry::WatchEvent &error)
{
    hand(std::make_shared<const std::string>(registry::watchEventJson(error)), error);
}

void Watcher::hand(const std::shared_ptr<const std::string> &line, const registry::WatchEvent &event)
{
    if (m_options.encode)
        m_transport->send(m_options.encode(event));
    else
        m_transport->sendShared(line);
    if (m_options.deliveries && m_operationId != 0)
        (*m_options.deliveries)(m_operationId, m_options.type->gvr.resource, event);
    const bool counted = event.type == registry::WatchEventType::Added
        || event.type == registry::WatchEventType::Modified || event.type == registry::WatchEventType::Deleted;
    if (counted && event.object)
        m_lastRevision = event.object->resourceVersion();
    if (counted && m_eventsLeft > 0 && --m_eventsLeft == 0)
        endAtLimit();
}

void Watcher::endAtLimit()
{
    if (!m_transport || m_ended)
        return;
    if (m_expireAtLimit) {
        // The Status the apiserver ends a watch with when its start is compacted away,
        // worded as etcd's compaction: the client's last resourceVersion is older than the
        // oldest one left. client-go's reflector relists on it.
        const long long last = std::atoll(m_lastRevision.c_str());
        const registry::WatchEvent error = errorEvent(model::errors::expired(
            "too old resource version: " + std::to_string(last) + " (" + std::to_string(last + 1) + ")"));
        handError(error);
        if (auto expired = std::move(m_expiredAtLimit))
            expired(last + 1);
    }
    finish(/*tooSlow=*/false);
}

void Watcher::expireNow(const model::Status &status)
{
    if (m_ended || m_finishPending)
        return; // already ending with its own ERROR (a compacted start)
    m_handle.stop();
    m_pending.clear();
    endWithError(status);
}

bool Watcher::endIfTooSlow()
{
    if (m_options.maxBacklogBytes == 0)
        return false;
    const std::size_t backlog = m_transport->backlog();
    if (backlog <= m_options.maxBacklogBytes)
        return false;
    const registry::WatchEvent error = errorEvent(model::errors::watchTooSlow(backlog, m_options.maxBacklogBytes));
    handError(error);
    finish(/*tooSlow=*/true);
    return true;
}

void Watcher::attach(std::shared_ptr<WatchTransport> transport)
{
    m_transport = std::move(transport);
    // Queued before the transport existed: handed over whole (the backlog check starts now).
    auto pending = std::move(m_pending);
    m_pending.clear();
    for (std::size_t i = 0; i < pending.size() && m_transport && !m_ended; ++i) {
        if (m_stalled)
            deliver(pending[i].first, pending[i].second); // held back, counted
        else
            hand(pending[i].first, pending[i].second);
    }
    if (m_finishPending) {
        finish(/*tooSlow=*/false);
        return;
    }
    if (!m_transport || m_ended)
        return;
    std::weak_ptr<Watcher> weak = weak_from_this();
    if (m_options.timeoutMs > 0) {
        m_timeout = std::make_unique<QTimer>();
        m_timeout->setSingleShot(true);
        QObject::connect(m_timeout.get(), &QTimer::timeout, m_timeout.get(), [weak] {
            if (auto self = weak.lock())
                self->finish(/*tooSlow=*/false);
        });
        m_timeout->start(m_options.timeoutMs);
    }
    if (m_limitMs > 0) {
        m_limit = std::make_unique<QTimer>();
        m_limit->setSingleShot(true);
        QObject::connect(m_limit.get(), &QTimer::timeout, m_limit.get(), [weak] {
            if (auto self = weak.lock(); self && !self->m_ended)
                self->endAtLimit();
        });
        m_limit->start(m_limitMs);
    }
    if (m_options.bookmarkIntervalMs > 0 && m_options.type) {
        m_bookmarks = std::make_unique<QTimer>();
        QObject::connect(m_bookmarks.get(), &QTimer::timeout, m_bookmarks.get(), [weak] {
            if (auto self = weak.lock())
                self->sendBookmark();
        });
        m_bookmarks->start(m_options.bookmarkIntervalMs);
    }
}

void Watcher::attach(std::function<void(const std::string &)> onEvent, std::function<void()> onEnd)
{
    attach(std::make_shared<CallbackTransport>(std::move(onEvent), std::move(onEnd)));
}

QCoro::Task<> Watcher::sendBookmark()
{
    std::weak_ptr<Watcher> weak = weak_from_this();
    std::shared_ptr<const registry::ResourceType> type = m_options.type;
    // Not the store's current revision: on etcd that may be ahead of the events this watch
    // was handed, and a client resuming from the bookmark would miss the ones in between.
    auto current = co_await type->storage->progressRevision();
    auto self = weak.lock();
    if (!self || self->m_ended)
        co_return;
    const registry::WatchEvent bookmark =
        registry::bookmarkEvent(type->kind, type->apiVersion(), current ? *current : 0);
    deliver(registry::watchEventLine(bookmark), bookmark);
}

void Watcher::endWithError(const model::Status &status)
{
    sink()(errorEvent(status));
}

void Watcher::finish(bool tooSlow)
{
    if (m_ended)
        return;
    if (!m_transport) {
        // Not attached yet: end right after the queued events are handed over.
        m_finishPending = true;
        m_handle.stop();
        return;
    }
    m_ended = true;
    m_handle.stop();
    stopTimers();
    // Keeps the watcher alive through the transport's end, which may drop the last owner.
    std::shared_ptr<Watcher> self = shared_from_this();
    std::shared_ptr<WatchTransport> transport = std::move(m_transport);
    transport->end(tooSlow);
    notifyFinished();
}

void Watcher::close()
{
    // Alive to the end of this, even if notifyFinished() drops the last owner.
    std::shared_ptr<Watcher> self = weak_from_this().lock();
    m_ended = true;
    m_handle.stop();
    stopTimers();
    m_transport.reset();
    m_pending.clear();
    notifyFinished();
}

void Watcher::stopTimers()
{
    dropTimer(m_timeout);
    dropTimer(m_bookmarks);
    dropTimer(m_limit);
}

void Watcher::notifyFinished()
{
    if (auto owner = std::exchange(m_owner, {}).lock())
        owner->forget(this);
}

} // namespace rvscope::api
