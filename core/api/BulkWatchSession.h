// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QtCore/QTimer>
#include <nlohmann/json_fwd.hpp>
#include <qcoro/qcorotask.h>

#include "bulk/ResourceSelector.h"
#include "model/GroupVersion.h"
#include "model/Status.h"
#include "registry/StoreTypes.h"

namespace rvscope::registry {
class Registry;
}

namespace rvscope::bulk {

// One bulk watch connection (one websocket on /apis/bulk.k8s.io/v1/bulkgetoperations):
// watches opened and closed dynamically, each on its own integer channel. JSON text frames:
//   client: {"id":N,"watch":{"selector":{"resource":{...},"options":{...}}}}
//           {"id":N,"closeWatch":{"channel":C}}
//   server: {"requestId":N,"channel":C} | {"requestId":N,"error":<Status>}
//           {"channel":C,"event":{"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}}}
// Channel ids count from 1 per session, in the order watches open; a rejected request
// takes none. A channel carries one resource type in increasing resourceVersion (one
// registry watch per channel); an object several channels select goes to each of them. Its
// response frame precedes its first event. An ERROR event (410 for a resourceVersion older
// than the history, a closeChannel() by the ACL re-check) ends that channel only. A
// malformed frame gets {"requestId":N|null,"error":<400 Status>} and changes nothing; a
// watch beyond maxChannels gets a 429. close() (the socket went away) ends every channel.
// A channel opened with allowWatchBookmarks also gets periodic BOOKMARK events.
//
// Core thread only. `send` is called synchronously with each frame, also from inside a
// storage commit; it must not call back into the session.
class BulkWatchSession final : public std::enable_shared_from_this<BulkWatchSession> {
public:
    static constexpr std::size_t DEFAULT_MAX_CHANNELS = 1000;

    // One open channel, for introspection and the ACL re-check.
    struct ChannelInfo {
        std::int64_t channel = 0;
        model::GroupVersionResource resource;
        std::string namespaceName;
        std::string name; // from a metadata.name= field selector, else empty
        std::string labelSelector;
        std::string fieldSelector;
        std::string user;
        std::string resourceVersion; // the watch's start, as requested ("" or "0": current state)
        std::uint64_t journalId = 0; // what onChannelOpened returned
    };

    struct Options {
        std::string user = "system:anonymous";
        std::string peer; // the client's address:port as the transport saw it ("" unknown)
        std::size_t maxChannels = DEFAULT_MAX_CHANNELS;
        Authorizer authorize; // verb "watch"; empty: allow everything
        // Bytes the socket holds unsent. An event for a channel while it exceeds
        // maxBacklogBytes (0: unbounded) ends that channel with an ERROR event carrying 410
        // Expired instead (the client relists); channels with nothing to send stay open.
        std::function<std::size_t()> backlog;
        std::size_t maxBacklogBytes = 0;
        // Journaling (optional): a channel that opened, returning the id its deliveries
        // carry (ChannelInfo::journalId), then every event it sends, ERROR included.
        std::function<std::uint64_t(const ChannelInfo &)> onChannelOpened;
        std::function<void(const ChannelInfo &, const registry::WatchEvent &)> onDelivered;
        // Channels whose options asked for bookmarks (allowWatchBookmarks) get a BOOKMARK
        // event this often, carrying the revision the channel has caught up with, like a
        // regular watch (ApiHandler::Options::bookmarkIntervalMs). 0: never.
        int bookmarkIntervalMs = 60000;
    };

    using Send = std::function<void(const std::string &frame)>;

    BulkWatchSession(std::shared_ptr<registry::Registry> registry, Options options, Send send);
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
    struct Channel;
    QCoro::Task<> openWatch(nlohmann::json requestId, ResourceSelector selector);
    void closeWatch(const nlohmann::json &requestId, const nlohmann::json &body);
    void sendError(const nlohmann::json &requestId, const model::Status &status);
    void handleEvent(const std::shared_ptr<Channel> &channel, const registry::WatchEvent &event);
    // The event's frame to the socket, then to the journal.
    void sendEvent(const Channel &channel, const registry::WatchEvent &event);
    void removeChannel(std::int64_t id);
    void startBookmarks();
    void stopBookmarks();
    QCoro::Task<> sendBookmarks();

    std::shared_ptr<registry::Registry> m_registry;
    Options m_options;
    Send m_send;
    std::map<std::int64_t, std::shared_ptr<Channel>> m_channels;
    std::size_t m_pendingWatches = 0; // watch requests awaiting storage
    std::int64_t m_nextChannel = 1;
    bool m_closed = false;
    std::unique_ptr<QTimer> m_bookmarks; // while a channel wants bookmarks
};

} // namespace rvscope::bulk
