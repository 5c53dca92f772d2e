// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <qcoro/qcorotask.h>

#include "bulk/ResourceSelector.h"
#include "model/GroupVersion.h"
#include "model/Status.h"

namespace rvscope::api {

class ApiHandler;
class Watcher;

// One bulk watch connection (one websocket on /apis/bulk.k8s.io/v1/bulkgetoperations):
// watches opened and closed dynamically, each on its own integer channel. JSON text frames:
//   client: {"id":N,"watch":{"selector":{"resource":{...},"options":{...}}}}
//           {"id":N,"closeWatch":{"channel":C}}
//   server: {"requestId":N,"channel":C} | {"requestId":N,"error":<Status>}
//           {"channel":C,"event":{"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}}}
// Channel ids count from 1 per session, in the order watches open; a rejected request
// takes none. A channel is a Watcher with its channel id, like any watch of the API: one
// resource type in increasing resourceVersion, BOOKMARKs when its options allow them, the
// slow-reader 410 (on the socket's backlog), held by the handler's OpenWatches (its limit,
// the ACL re-check, the shutdown), and journaled as a watch of client "bulk:<user>". An
// object several channels select goes to each of them; a channel's response frame precedes
// its first event. An ERROR event (410 for a resourceVersion older than the history, the
// re-check's 403) ends that channel only. A malformed frame gets
// {"requestId":N|null,"error":<400 Status>} and changes nothing; a watch beyond maxChannels
// gets a 429. close() (the socket went away) ends every channel. The handler's fault rules
// apply to each watch request as to a watch of its own (verb watch; a rule that answers
// instead answers that request with its Status; drop drops the whole connection).
//
// Core thread only. `send` is called synchronously with each frame, also from inside a
// storage commit; it must not call back into the session.
class BulkWatchSession final : public std::enable_shared_from_this<BulkWatchSession> {
public:
    static constexpr std::size_t DEFAULT_MAX_CHANNELS = 1000;

    // One open channel, for introspection.
    struct ChannelInfo {
        std::int64_t channel = 0;
        model::GroupVersionResource resource;
        std::string namespaceName;
        std::string name; // from a metadata.name= field selector, else empty
        std::string labelSelector;
        std::string fieldSelector;
        std::string user;
        std::string resourceVersion; // the watch's start, as requested ("" or "0": current state)
        std::uint64_t journalId = 0; // the watch operation its deliveries carry (0: not journaled)
    };

    struct Options {
        std::string user = "system:anonymous"; // ApiHandler::authenticate of the handshake
        std::string peer; // the client's address:port as the transport saw it ("" unknown)
        std::size_t maxChannels = DEFAULT_MAX_CHANNELS;
        // Verb "watch" per channel; empty: the handler's access control (none: allow all).
        bulk::Authorizer authorize;
        // Bytes the socket holds unsent. An event for a channel while it exceeds the handler's
        // maxWatchBacklog ends that channel with ERROR 410 instead.
        std::function<std::size_t()> backlog;
        // The handshake's User-Agent and X-Rvscope-Client, which fault rules name.
        std::string agent;
        std::string client;
        // Drops the connection without a word (an injected drop); null: the session closes.
        std::function<void()> drop;
    };

    using Send = std::function<void(const std::string &frame)>;

    BulkWatchSession(std::shared_ptr<ApiHandler> handler, Options options, Send send);
    ~BulkWatchSession();
    BulkWatchSession(const BulkWatchSession &) = delete;
    BulkWatchSession &operator=(const BulkWatchSession &) = delete;

    // One client text frame. Watch requests complete asynchronously when storage waits.
    void handleFrame(const std::string &frame);
    // Sends an ERROR event carrying `status` on `channel` and closes it. False if no such
    // channel is open.
    bool closeChannel(std::int64_t channel, const model::Status &status);
    // Ends every channel without sending anything more (the socket is gone).
    void close();

    std::vector<ChannelInfo> channels() const;
    std::size_t channelCount() const { return m_channels.size(); }
    const std::string &user() const { return m_options.user; }
    const std::string &peer() const { return m_options.peer; }
    bool closed() const { return m_closed; }

private:
    class ChannelTransport;
    // What channels() reports of one, without what the session or the watcher already
    // holds (its user, its resource): a server holds tens of thousands.
    struct Channel {
        std::shared_ptr<Watcher> watcher;
        std::string namespaceName;
        std::string name;
        std::string labelSelector;
        std::string fieldSelector;
        std::string resourceVersion;
        std::uint64_t journalId = 0;
    };
    QCoro::Task<> openWatch(nlohmann::json requestId, bulk::ResourceSelector selector);
    void closeWatch(const nlohmann::json &requestId, const nlohmann::json &body);
    void sendError(const nlohmann::json &requestId, const model::Status &status);
    std::optional<model::Status> authorize(const bulk::ResourceSelector &selector) const;
    // A channel's watch ended (its transport's end): it is no longer open.
    void forget(std::int64_t channel);

    std::shared_ptr<ApiHandler> m_handler;
    Options m_options;
    Send m_send;
    std::map<std::int64_t, Channel> m_channels;
    std::size_t m_pendingWatches = 0; // watch requests awaiting storage
    std::int64_t m_nextChannel = 1;
    bool m_closed = false;
};

} // namespace rvscope::api
