// SPDX-License-Identifier: MIT
#include "api/WatchStream.h"

#include <nlohmann/json.hpp>

#include "model/StatusErrors.h"

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
} // namespace

WatchStream::WatchStream(Options options)
    : m_options(std::move(options))
{
}

WatchStream::~WatchStream()
{
    dropTimer(m_timeout);
    dropTimer(m_bookmarks);
}

WatchStream::Delivery WatchStream::describe(const registry::WatchEvent &event)
{
    Delivery delivery;
    delivery.type = registry::watchEventTypeName(event.type);
    if (event.type == registry::WatchEventType::Error && event.error)
        delivery.message = std::to_string(event.error->code) + ' ' + event.error->reason + ": " + event.error->message;
    if (event.object) {
        delivery.resourceVersion = event.object->resourceVersion();
        delivery.namespaceName = event.object->namespaceName();
        delivery.name = event.object->name();
    }
    return delivery;
}

registry::WatchSink WatchStream::sink()
{
    std::weak_ptr<WatchStream> weak = weak_from_this();
    return [weak](const registry::WatchEvent &event) {
        auto self = weak.lock();
        if (!self || self->m_ended || self->m_finishPending)
            return;
        WatchStream::Delivery delivery;
        if (self->m_options.onDelivered)
            delivery = describe(event);
        self->deliver(registry::watchEventLine(event), std::move(delivery));
        if (event.type == registry::WatchEventType::Error)
            self->finish();
    };
}

void WatchStream::setHandle(storage::WatchHandle handle)
{
    m_handle = std::move(handle);
}

void WatchStream::deliver(std::shared_ptr<const std::string> line, Delivery delivery)
{
    if (!m_onEvent) {
        m_pending.emplace_back(std::move(line), std::move(delivery));
        return;
    }
    if (endIfTooSlow())
        return;
    hand(*line, delivery);
}

void WatchStream::hand(const std::string &line, const Delivery &delivery)
{
    m_onEvent(line);
    if (m_options.onDelivered)
        m_options.onDelivered(delivery);
}

bool WatchStream::endIfTooSlow()
{
    if (!m_limit.backlog || m_limit.maxBytes == 0)
        return false;
    const std::size_t backlog = m_limit.backlog();
    if (backlog <= m_limit.maxBytes)
        return false;
    registry::WatchEvent error;
    error.type = registry::WatchEventType::Error;
    error.error = model::errors::watchTooSlow(backlog, m_limit.maxBytes);
    const Delivery delivery = describe(error);
    m_tooSlow = true;
    hand(registry::watchEventJson(error), delivery);
    finish();
    return true;
}

void WatchStream::attach(std::function<void(const std::string &)> onEvent, std::function<void()> onEnd,
                         BacklogLimit limit)
{
    m_onEvent = std::move(onEvent);
    m_onEnd = std::move(onEnd);
    m_limit = std::move(limit);
    // Queued before the transport existed: handed over whole (the backlog check starts now).
    while (!m_pending.empty() && m_onEvent) {
        auto [line, delivery] = std::move(m_pending.front());
        m_pending.pop_front();
        hand(*line, delivery);
    }
    if (m_finishPending) {
        finish();
        return;
    }
    std::weak_ptr<WatchStream> weak = weak_from_this();
    if (m_options.timeoutMs > 0) {
        m_timeout = std::make_unique<QTimer>();
        m_timeout->setSingleShot(true);
        QObject::connect(m_timeout.get(), &QTimer::timeout, m_timeout.get(), [weak] {
            if (auto self = weak.lock())
                self->finish();
        });
        m_timeout->start(m_options.timeoutMs);
    }
    if (m_options.bookmarkIntervalMs > 0 && m_options.currentRevision) {
        m_bookmarks = std::make_unique<QTimer>();
        QObject::connect(m_bookmarks.get(), &QTimer::timeout, m_bookmarks.get(), [weak] {
            if (auto self = weak.lock())
                self->sendBookmark();
        });
        m_bookmarks->start(m_options.bookmarkIntervalMs);
    }
}

QCoro::Task<> WatchStream::sendBookmark()
{
    std::weak_ptr<WatchStream> weak = weak_from_this();
    const std::int64_t revision = co_await m_options.currentRevision();
    auto self = weak.lock();
    if (!self || self->m_ended)
        co_return;
    Delivery delivery;
    delivery.type = "BOOKMARK";
    delivery.resourceVersion = std::to_string(revision);
    deliver(registry::watchEventLine(registry::bookmarkEvent(m_options.kind, m_options.apiVersion, revision)),
            std::move(delivery));
}

void WatchStream::finish()
{
    if (m_ended)
        return;
    if (!m_onEnd) {
        // Not attached yet: end right after the queued events are handed over.
        m_finishPending = true;
        m_handle.stop();
        return;
    }
    m_ended = true;
    m_handle.stop();
    dropTimer(m_timeout);
    dropTimer(m_bookmarks);
    auto onEnd = std::move(m_onEnd);
    m_onEvent = nullptr;
    onEnd();
}

void WatchStream::close()
{
    m_ended = true;
    m_handle.stop();
    dropTimer(m_timeout);
    dropTimer(m_bookmarks);
    m_onEvent = nullptr;
    m_onEnd = nullptr;
    m_limit = {};
    m_pending.clear();
}

} // namespace rvscope::api
