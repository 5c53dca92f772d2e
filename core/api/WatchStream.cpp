// SPDX-License-Identifier: MIT
#include "api/WatchStream.h"

#include <nlohmann/json.hpp>

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

std::string WatchStream::serialize(const registry::WatchEvent &event)
{
    std::string line = R"({"type":")";
    line += registry::watchEventTypeName(event.type);
    line += R"(","object":)";
    if (event.type == registry::WatchEventType::Error && event.error)
        line += event.error->toJson().dump();
    else if (event.object)
        line += event.object->bytes();
    else
        line += "null";
    line += '}';
    return line;
}

registry::WatchSink WatchStream::sink()
{
    std::weak_ptr<WatchStream> weak = weak_from_this();
    return [weak](const registry::WatchEvent &event) {
        auto self = weak.lock();
        if (!self || self->m_ended || self->m_finishPending)
            return;
        WatchStream::Delivery delivery;
        if (self->m_options.onDelivered) {
            delivery.type = registry::watchEventTypeName(event.type);
            if (event.type == registry::WatchEventType::Error && event.error)
                delivery.message = std::to_string(event.error->code) + ' ' + event.error->reason + ": "
                    + event.error->message;
            if (event.object) {
                delivery.resourceVersion = event.object->resourceVersion();
                delivery.namespaceName = event.object->namespaceName();
                delivery.name = event.object->name();
            }
        }
        self->deliver(serialize(event), std::move(delivery));
        if (event.type == registry::WatchEventType::Error)
            self->finish();
    };
}

void WatchStream::setHandle(storage::WatchHandle handle)
{
    m_handle = std::move(handle);
}

void WatchStream::deliver(std::string line, Delivery delivery)
{
    if (!m_onEvent) {
        m_pending.emplace_back(std::move(line), std::move(delivery));
        return;
    }
    m_onEvent(line);
    if (m_options.onDelivered)
        m_options.onDelivered(delivery);
}

void WatchStream::attach(std::function<void(const std::string &)> onEvent, std::function<void()> onEnd)
{
    m_onEvent = std::move(onEvent);
    m_onEnd = std::move(onEnd);
    while (!m_pending.empty() && m_onEvent) {
        auto [line, delivery] = std::move(m_pending.front());
        m_pending.pop_front();
        m_onEvent(line);
        if (m_options.onDelivered)
            m_options.onDelivered(delivery);
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
    const nlohmann::json bookmark = {
        {"type", "BOOKMARK"},
        {"object",
         {{"kind", m_options.kind},
          {"apiVersion", m_options.apiVersion},
          {"metadata", {{"resourceVersion", std::to_string(revision)}, {"creationTimestamp", nullptr}}}}},
    };
    Delivery delivery;
    delivery.type = "BOOKMARK";
    delivery.resourceVersion = std::to_string(revision);
    deliver(bookmark.dump(), std::move(delivery));
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
    m_pending.clear();
}

} // namespace rvscope::api
