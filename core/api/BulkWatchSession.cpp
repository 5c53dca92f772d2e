// SPDX-License-Identifier: MIT
#include "api/BulkWatchSession.h"

#include <nlohmann/json.hpp>

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "api/FaultInjection.h"
#include "api/FaultInjector.h"
#include "api/OpenWatches.h"
#include "api/Watcher.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"

namespace rvscope::api {
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

// The journal's key of a channel's watch: resource[/namespace][/name].
std::string journalKey(const std::string &resource, const std::string &ns, const std::string &name)
{
    std::string key = resource;
    if (!ns.empty())
        key += '/' + ns;
    if (!name.empty())
        key += '/' + name;
    return key;
}
} // namespace

// A channel's events as frames on the session's socket.
class BulkWatchSession::ChannelTransport final : public WatchTransport {
public:
    ChannelTransport(std::weak_ptr<BulkWatchSession> session, std::int64_t channel)
        : m_session(std::move(session))
        , m_channel(channel)
    {
    }
    void send(const std::string &event) override
    {
        if (auto session = m_session.lock(); session && !session->m_closed)
            session->m_send(eventFrame(m_channel, event));
    }
    std::size_t backlog() const override
    {
        auto session = m_session.lock();
        return session && session->m_options.backlog ? session->m_options.backlog() : 0;
    }
    void end(bool) override
    {
        if (auto session = m_session.lock())
            session->forget(m_channel);
    }

private:
    std::weak_ptr<BulkWatchSession> m_session;
    std::int64_t m_channel;
};

BulkWatchSession::BulkWatchSession(std::shared_ptr<ApiHandler> handler, Options options, Send send)
    : m_handler(std::move(handler))
    , m_options(std::move(options))
    , m_send(std::move(send))
{
}

BulkWatchSession::~BulkWatchSession()
{
    close();
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
    auto selector = bulk::parseResourceSelector(watch->at("selector"), "watch.selector");
    if (!selector) {
        sendError(requestId, selector.error());
        return;
    }
    openWatch(requestId, std::move(selector).value());
}

std::optional<model::Status> BulkWatchSession::authorize(const bulk::ResourceSelector &selector) const
{
    if (m_options.authorize)
        return bulk::authorizeSelector(m_options.authorize, m_options.user, "watch", selector);
    std::shared_ptr<AccessControl> access = m_handler->accessControl();
    if (!access)
        return std::nullopt;
    bulk::Authorizer authorizer = [access](const std::string &user, const std::string &verb, const std::string &group,
                                           const std::string &resource, const std::string &ns,
                                           const std::string &name) {
        return access->authorizeBulk(user, verb, group, resource, ns, name);
    };
    return bulk::authorizeSelector(authorizer, m_options.user, "watch", selector);
}

QCoro::Task<> BulkWatchSession::openWatch(nlohmann::json requestId, bulk::ResourceSelector selector)
{
    std::shared_ptr<BulkWatchSession> self = shared_from_this();
    std::shared_ptr<ApiHandler> handler = m_handler;
    const std::shared_ptr<const registry::Registry::Entry> entry = handler->registry()->find(selector.resource);
    if (!entry || (!entry->type->namespaced() && !selector.namespaceName.empty())) {
        sendError(requestId, model::errors::pathNotFound());
        co_return;
    }
    if (auto denied = authorize(selector)) {
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
    WatchPlace place; // held until the channel's watch is added, or fails
    if (auto full = handler->openWatches().admit(m_options.user, place)) {
        sendError(requestId, *full);
        co_return;
    }

    // The fault rules, as for a watch request of its own.
    FaultInjector &injector = handler->faultInjector();
    std::optional<faults::FaultFiring> fault;
    faults::FaultRequest faultRequest;
    if (!injector.empty()) {
        faultRequest.verb = "watch";
        faultRequest.resource = selector.resource.resource;
        faultRequest.group = selector.resource.group;
        faultRequest.namespaceName = selector.namespaceName;
        faultRequest.name = selector.objectName();
        faultRequest.user = m_options.user;
        faultRequest.agent = m_options.agent.substr(0, m_options.agent.find('/'));
        faultRequest.client = m_options.client;
        fault = injector.decide(faultRequest, selector.options.resourceVersion);
    }
    ++m_pendingWatches; // (what the fault waits for counts against the channel bound)
    if (fault && fault->expireNow) {
        const bool gone = co_await FaultInjector::stillGone(*fault, entry->type->storage);
        if (!gone) // a resume from the head: the rules as for any watch
            fault = injector.rules().decide(faultRequest);
    }
    if (fault && !faults::answersInstead(fault->action))
        co_await injector.before(*fault, entry->type->storage);
    --m_pendingWatches;
    if (m_closed)
        co_return;
    if (fault && faults::answersInstead(fault->action)) {
        OperationReport refused;
        refused.clientId = "bulk:" + m_options.user;
        refused.key = journalKey(selector.resource.resource, selector.namespaceName, selector.objectName());
        refused.outcome.resourceVersionSent = selector.options.resourceVersion;
        refused.injected = std::string(faults::actionName(fault->action));
        refused.faultRuleId = fault->ruleId;
        auto status = injectedStatus(*fault, entry->type->groupResource(), selector.objectName());
        refused.statusCode = status ? status->code : 0;
        if (status)
            refused.outcome.reason = status->reason;
        handler->reportWatch(std::move(refused));
        if (status)
            sendError(requestId, *status);
        else if (m_options.drop)
            m_options.drop(); // the whole connection, as a network drop takes every channel
        else
            close();
        co_return;
    }

    Channel channel;
    channel.namespaceName = selector.namespaceName;
    channel.name = selector.objectName();
    channel.labelSelector = selector.options.labelSelector;
    channel.fieldSelector = selector.options.fieldSelector;
    channel.resourceVersion = selector.options.resourceVersion;

    // Journaled like a watch: the operation id is known once the channel opens.
    Watcher::Options watcherOptions =
        handler->watcherOptions(entry->type, selector.options.allowWatchBookmarks, bool(m_options.backlog));
    auto watcher = std::make_shared<Watcher>(std::move(watcherOptions));
    std::shared_ptr<registry::Store> store = entry->store;
    std::string ns = selector.namespaceName;
    registry::ListOptions options = selector.options;
    registry::WatchSink sink = watcher->sink();
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
    if (handle)
        watcher->setHandle(std::move(handle).value());
    else
        watcher->endWithError(handle.error());
    const std::int64_t id = m_nextChannel++;
    const model::GroupVersionResource &resource = selector.resource;
    OperationReport opened;
    opened.clientId = "bulk:" + m_options.user;
    opened.key = journalKey(resource.resource, channel.namespaceName, channel.name);
    opened.outcome.resourceVersionSent = channel.resourceVersion;
    opened.statusCode = 200;
    if (fault) {
        opened.injected = std::string(faults::actionName(fault->action));
        opened.faultRuleId = fault->ruleId;
        injector.shapeWatch(*watcher, *fault, faultRequest, channel.resourceVersion);
    }
    channel.journalId = handler->reportWatch(std::move(opened));
    watcher->setOperationId(channel.journalId);
    watcher->setChannel(id);
    std::optional<auth::Attributes> attributes;
    if (const std::shared_ptr<AccessControl> &access = handler->accessControl())
        attributes = access->bulkAttributes(m_options.user, "watch", resource.group, resource.resource,
                                            channel.namespaceName, channel.name);
    channel.watcher = watcher;
    m_channels.emplace(id, std::move(channel));
    place.giveBack(); // counted as open from here on
    handler->openWatches().add(watcher, m_options.user, std::move(attributes));
    nlohmann::json response = {{"requestId", requestId}, {"channel", id}};
    m_send(response.dump());
    // What arrived meanwhile (the initial ADDED events, a 410) follows the response frame.
    watcher->attach(std::make_shared<ChannelTransport>(self, id));
}

void BulkWatchSession::closeWatch(const nlohmann::json &requestId, const nlohmann::json &body)
{
    auto channelField = body.is_object() ? body.find("channel") : body.end();
    if (!body.is_object() || channelField == body.end() || !channelField->is_number_integer()) {
        sendError(requestId, model::errors::badRequest("closeWatch: expected {\"channel\":C} with an integer C"));
        return;
    }
    const std::int64_t id = channelField->get<std::int64_t>();
    auto it = m_channels.find(id);
    if (it == m_channels.end()) {
        model::Status unknown;
        unknown.code = 404;
        unknown.reason = "NotFound";
        unknown.message = "channel " + std::to_string(id) + " is not open";
        sendError(requestId, unknown);
        return;
    }
    // Moved out first: closing the watch may run arbitrary cleanup.
    std::shared_ptr<Watcher> watcher = std::move(it->second.watcher);
    m_channels.erase(it);
    watcher->close();
    nlohmann::json response = {{"requestId", requestId}, {"channel", id}};
    m_send(response.dump());
}

bool BulkWatchSession::closeChannel(std::int64_t id, const model::Status &status)
{
    auto it = m_channels.find(id);
    if (it == m_channels.end() || m_closed)
        return false;
    std::shared_ptr<Watcher> watcher = it->second.watcher;
    watcher->endWithError(status); // its transport's end forgets the channel
    return true;
}

void BulkWatchSession::forget(std::int64_t channel)
{
    m_channels.erase(channel);
}

void BulkWatchSession::close()
{
    if (m_closed)
        return;
    m_closed = true;
    auto channels = std::move(m_channels);
    m_channels.clear();
    for (auto &[id, channel] : channels)
        channel.watcher->close();
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
    for (const auto &[id, channel] : m_channels) {
        ChannelInfo info;
        info.channel = id;
        info.resource = channel.watcher->options().type->gvr;
        info.namespaceName = channel.namespaceName;
        info.name = channel.name;
        info.labelSelector = channel.labelSelector;
        info.fieldSelector = channel.fieldSelector;
        info.user = m_options.user;
        info.resourceVersion = channel.resourceVersion;
        info.journalId = channel.journalId;
        out.push_back(std::move(info));
    }
    return out;
}

} // namespace rvscope::api
