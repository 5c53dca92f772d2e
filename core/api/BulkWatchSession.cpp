// SPDX-License-Identifier: MIT
#include "bulk/BulkWatchSession.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"
#include "storage/WatchHandle.h"

namespace rvscope::bulk {

struct BulkWatchSession::Channel final {
    std::int64_t id = 0; // 0 until its response frame is out
    ChannelInfo info;
    storage::WatchHandle handle;
    // Events that arrived before the response frame (the initial ADDED events arrive while
    // the watch is being opened).
    std::vector<registry::WatchEvent> early;
    bool ended = false; // an ERROR event was seen: nothing more goes out
    std::shared_ptr<const registry::ResourceType> type;
    bool bookmarks = false; // allowWatchBookmarks
};

namespace {
std::string eventFrame(std::int64_t channel, const std::string &event)
{
    std::string frame = R"({"channel":)";
    frame += std::to_string(channel);
    frame += R"(,"event":)";
    frame += event;
    frame += '}';
    return frame;
}

registry::WatchEvent errorEvent(const model::Status &status)
{
    registry::WatchEvent event;
    event.type = registry::WatchEventType::Error;
    event.error = status;
    return event;
}
} // namespace

BulkWatchSession::BulkWatchSession(std::shared_ptr<registry::Registry> registry, Options options, Send send)
    : m_registry(std::move(registry))
    , m_options(std::move(options))
    , m_send(std::move(send))
{
}

BulkWatchSession::~BulkWatchSession()
{
    close();
}

void BulkWatchSession::startBookmarks()
{
    if (m_bookmarks || m_options.bookmarkIntervalMs <= 0)
        return;
    m_bookmarks = std::make_unique<QTimer>();
    std::weak_ptr<BulkWatchSession> weak = weak_from_this();
    QObject::connect(m_bookmarks.get(), &QTimer::timeout, m_bookmarks.get(), [weak] {
        if (auto self = weak.lock())
            self->sendBookmarks();
    });
    m_bookmarks->start(m_options.bookmarkIntervalMs);
}

QCoro::Task<> BulkWatchSession::sendBookmarks()
{
    std::shared_ptr<BulkWatchSession> self = shared_from_this();
    std::vector<std::shared_ptr<Channel>> wanting;
    for (const auto &[id, channel] : m_channels) {
        if (channel->bookmarks && !channel->ended)
            wanting.push_back(channel);
    }
    for (const std::shared_ptr<Channel> &channel : wanting) {
        // The storage's current revision: every event up to it has been sent on the channel
        // (storage delivers synchronously with its commits), later ones will be newer.
        auto revision = co_await channel->type->storage->currentRevision();
        if (m_closed)
            co_return;
        if (!revision || channel->ended || !m_channels.contains(channel->id))
            continue;
        const registry::WatchEvent bookmark =
            registry::bookmarkEvent(channel->type->kind, channel->type->apiVersion(), *revision);
        sendEvent(*channel, bookmark);
    }
    if (std::none_of(m_channels.begin(), m_channels.end(), [](const auto &entry) { return entry.second->bookmarks; }))
        stopBookmarks();
}

void BulkWatchSession::stopBookmarks()
{
    // Possibly from the timer's own timeout: the event loop deletes it.
    if (m_bookmarks) {
        m_bookmarks->stop();
        m_bookmarks.release()->deleteLater();
    }
}

void BulkWatchSession::handleFrame(const std::string &frame)
{
    if (m_closed)
        return;
    const nlohmann::json request = model::parseJson(frame).value_or(nlohmann::json());
    const nlohmann::json noId;
    if (!request.is_object()) {
        sendError(noId, model::errors::badRequest("a request must be a JSON object {\"id\":N, \"watch\"|\"closeWatch\"}"));
        return;
    }
    auto id = request.find("id");
    if (id == request.end() || !id->is_number_integer()) {
        sendError(noId, model::errors::badRequest("id: expected an integer"));
        return;
    }
    const nlohmann::json requestId = *id;
    auto watch = request.find("watch");
    auto closing = request.find("closeWatch");
    const bool isWatch = watch != request.end();
    const bool isClose = closing != request.end();
    if (isWatch == isClose) {
        sendError(requestId, model::errors::badRequest("a request must hold exactly one of \"watch\" and \"closeWatch\""));
        return;
    }
    if (isClose) {
        closeWatch(requestId, *closing);
        return;
    }
    if (!watch->is_object() || !watch->contains("selector")) {
        sendError(requestId, model::errors::badRequest("watch: expected {\"selector\":{\"resource\":...,\"options\":...}}"));
        return;
    }
    auto selector = parseResourceSelector(watch->at("selector"), "watch.selector");
    if (!selector) {
        sendError(requestId, selector.error());
        return;
    }
    openWatch(requestId, std::move(selector).value());
}

QCoro::Task<> BulkWatchSession::openWatch(nlohmann::json requestId, ResourceSelector selector)
{
    std::shared_ptr<BulkWatchSession> self = shared_from_this();
    const registry::Registry::Entry *entry = m_registry->find(selector.resource);
    if (!entry || (!entry->type->namespaced() && !selector.namespaceName.empty())) {
        sendError(requestId, model::errors::pathNotFound());
        co_return;
    }
    if (auto denied = authorizeSelector(m_options.authorize, m_options.user, "watch", selector)) {
        sendError(requestId, *denied);
        co_return;
    }
    if (m_channels.size() + m_pendingWatches >= m_options.maxChannels) {
        sendError(requestId, model::errors::tooManyRequests("too many open channels in this bulk watch session ("
                                                                + std::to_string(m_options.maxChannels)
                                                                + "), close some first",
                                                            1));
        co_return;
    }

    auto channel = std::make_shared<Channel>();
    channel->info.resource = selector.resource;
    channel->info.namespaceName = selector.namespaceName;
    channel->info.name = selector.objectName();
    channel->info.labelSelector = selector.options.labelSelector;
    channel->info.fieldSelector = selector.options.fieldSelector;
    channel->info.user = m_options.user;
    channel->info.resourceVersion = selector.options.resourceVersion;
    channel->type = entry->type;
    channel->bookmarks = selector.options.allowWatchBookmarks;
    std::weak_ptr<BulkWatchSession> weakSession = self;
    std::weak_ptr<Channel> weakChannel = channel;
    registry::WatchSink sink = [weakSession, weakChannel](const registry::WatchEvent &event) {
        auto session = weakSession.lock();
        auto target = weakChannel.lock();
        if (!session || !target || target->ended || session->m_closed)
            return;
        session->handleEvent(target, event);
    };
    std::shared_ptr<registry::Store> store = entry->store;
    std::string ns = selector.namespaceName;
    registry::ListOptions options = selector.options;
    ++m_pendingWatches;
    auto handle = co_await store->watch(std::move(ns), std::move(options), std::move(sink));
    --m_pendingWatches;
    if (m_closed)
        co_return;
    // A too-old resourceVersion opens the channel and ends it with an ERROR event (as a
    // regular watch opens its stream and sends one); other failures reject the request.
    if (!handle && handle.error().code != 410) {
        sendError(requestId, handle.error());
        co_return;
    }
    if (handle) {
        channel->handle = std::move(handle).value();
    } else {
        channel->early.push_back(errorEvent(handle.error()));
        channel->ended = true;
    }
    channel->id = m_nextChannel++;
    channel->info.channel = channel->id;
    if (m_options.onChannelOpened)
        channel->info.journalId = m_options.onChannelOpened(channel->info);
    m_channels.emplace(channel->id, channel);
    nlohmann::json response = {{"requestId", requestId}, {"channel", channel->id}};
    m_send(response.dump());
    for (const registry::WatchEvent &event : channel->early)
        sendEvent(*channel, event);
    channel->early.clear();
    if (channel->ended)
        removeChannel(channel->id);
    else if (channel->bookmarks)
        startBookmarks();
}

void BulkWatchSession::handleEvent(const std::shared_ptr<Channel> &channel, const registry::WatchEvent &event)
{
    const bool error = event.type == registry::WatchEventType::Error;
    if (error)
        channel->ended = true;
    if (channel->id == 0) {
        channel->early.push_back(event);
        return;
    }
    if (!error && m_options.backlog && m_options.maxBacklogBytes > 0) {
        const std::size_t backlog = m_options.backlog();
        if (backlog > m_options.maxBacklogBytes) {
            closeChannel(channel->id, model::errors::watchTooSlow(backlog, m_options.maxBacklogBytes));
            return;
        }
    }
    sendEvent(*channel, event);
    if (error)
        removeChannel(channel->id);
}

void BulkWatchSession::sendEvent(const Channel &channel, const registry::WatchEvent &event)
{
    m_send(eventFrame(channel.id, event.wire ? *event.wire : registry::watchEventJson(event)));
    if (m_options.onDelivered)
        m_options.onDelivered(channel.info, event);
}

void BulkWatchSession::closeWatch(const nlohmann::json &requestId, const nlohmann::json &body)
{
    auto channelField = body.is_object() ? body.find("channel") : body.end();
    if (!body.is_object() || channelField == body.end() || !channelField->is_number_integer()) {
        sendError(requestId, model::errors::badRequest("closeWatch: expected {\"channel\":C} with an integer C"));
        return;
    }
    const std::int64_t id = channelField->get<std::int64_t>();
    if (!m_channels.count(id)) {
        model::Status unknown;
        unknown.code = 404;
        unknown.reason = "NotFound";
        unknown.message = "channel " + std::to_string(id) + " is not open";
        sendError(requestId, unknown);
        return;
    }
    removeChannel(id);
    nlohmann::json response = {{"requestId", requestId}, {"channel", id}};
    m_send(response.dump());
}

bool BulkWatchSession::closeChannel(std::int64_t id, const model::Status &status)
{
    auto it = m_channels.find(id);
    if (it == m_channels.end() || m_closed)
        return false;
    it->second->ended = true;
    sendEvent(*it->second, errorEvent(status));
    removeChannel(id);
    return true;
}

void BulkWatchSession::removeChannel(std::int64_t id)
{
    auto it = m_channels.find(id);
    if (it == m_channels.end())
        return;
    // Moved out first: stopping the storage watch may run arbitrary cleanup.
    std::shared_ptr<Channel> channel = std::move(it->second);
    m_channels.erase(it);
    channel->ended = true;
    channel->handle.stop();
}

void BulkWatchSession::close()
{
    if (m_closed)
        return;
    m_closed = true;
    stopBookmarks();
    auto channels = std::move(m_channels);
    m_channels.clear();
    for (auto &[id, channel] : channels) {
        channel->ended = true;
        channel->handle.stop();
    }
}

void BulkWatchSession::sendError(const nlohmann::json &requestId, const model::Status &status)
{
    if (m_closed)
        return;
    nlohmann::json response = {{"requestId", requestId}, {"error", status.toJson()}};
    m_send(response.dump());
}

std::vector<BulkWatchSession::ChannelInfo> BulkWatchSession::channels() const
{
    std::vector<ChannelInfo> out;
    out.reserve(m_channels.size());
    for (const auto &[id, channel] : m_channels)
        out.push_back(channel->info);
    return out;
}

} // namespace rvscope::bulk
