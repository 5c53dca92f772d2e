// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QtCore/QTimer>
#include <qcoro/qcorotask.h>

#include "api/WatchPlace.h"
#include "model/Status.h"
#include "registry/StoreTypes.h"
#include "storage/WatchHandle.h"

namespace rvscope::registry {
struct ResourceType;
}

namespace rvscope::api {

// Where a watcher's events go: chunked JSON lines of an HTTP response, WebSocket text
// frames, a bulk watch channel's frames (server/WatchTransports.h, api/BulkWatchSession),
// or callbacks in process. Core thread only.
class WatchTransport {
public:
    virtual ~WatchTransport() = default;
    // One event's JSON ({"type":...,"object":...}, no newline), in order.
    virtual void send(const std::string &event) = 0;
    // The same, as the one line the fan-out shares among every watch it goes to: a transport
    // may frame it once for all of them (held while framed, its address names it).
    virtual void sendShared(const std::shared_ptr<const std::string> &line) { send(*line); }
    // Bytes handed to send() that the client has not taken yet; 0 when none or unknown.
    virtual std::size_t backlog() const { return 0; }
    // The watch is over, after its last event (the ERROR, when it ended with one). Called
    // once. `tooSlow`: it ended because its client fell too far behind.
    virtual void end(bool tooSlow) = 0;
};

// Where every event a journaled watch hands to its transport is reported: the watch's
// operation id, its resource ("configmaps") and the event. One per handler, shared by its
// watchers (ApiHandler::setDeliveryObserver).
using DeliveryObserver =
    std::function<void(std::uint64_t operationId, const std::string &resource, const registry::WatchEvent &event)>;

class Watcher;

// What holds open watchers (OpenWatches), told once when one ends or closes.
class WatcherOwner {
public:
    virtual void forget(const Watcher *watcher) = 0;

protected:
    ~WatcherOwner() = default;
};

// A transport of callbacks: the lab's own watches (scenarios, the window) and tests.
class CallbackTransport final : public WatchTransport {
public:
    CallbackTransport(std::function<void(const std::string &event)> onEvent, std::function<void()> onEnd)
        : m_onEvent(std::move(onEvent))
        , m_onEnd(std::move(onEnd))
    {
    }
    void send(const std::string &event) override { m_onEvent(event); }
    void end(bool) override
    {
        if (auto onEnd = std::move(m_onEnd))
            onEnd();
    }

private:
    std::function<void(const std::string &)> m_onEvent;
    std::function<void()> m_onEnd;
};

// One open watch as the API delivers it, whatever carries it (a watch request over HTTP or
// WebSocket, or one channel of a bulk watch session): the registry's events in their wire
// form (serialized once for every watcher of the event: registry::watchEventLine), queued
// until a transport attaches, then handed over in order. It ends with an ERROR event (a
// too-old resourceVersion, an endWithError() such as the ACL re-check's 403), at its timeout
// (timeoutSeconds, or 30-60 minutes like upstream), or silently with close() (the client
// left, the server stops). Optional BOOKMARK events carry the current revision.
//
// A client that stops reading never slows writers or other watchers: once the transport
// holds more than maxBacklogBytes for the client, the next event is replaced by an ERROR
// event with a 410 Expired Status (watchTooSlow) and the watch ends, so that the client
// relists, as the apiserver's cacher drops a watcher whose buffer stays full. Every event
// handed over (ERROR and BOOKMARK included) goes to the journal (Options::deliveries). Core thread
// only; hold by shared_ptr.
class Watcher final : public std::enable_shared_from_this<Watcher> {
public:
    // Kept small: a server holds tens of thousands of watchers (bulk channels).
    struct Options {
        // The watched type: its kind and apiVersion for BOOKMARK objects, its storage's
        // current revision as their resourceVersion, its resource for the journal.
        std::shared_ptr<const registry::ResourceType> type;
        int timeoutMs = 0;          // 0: none
        int bookmarkIntervalMs = 0; // 0: no bookmarks
        std::size_t maxBacklogBytes = 0; // 0: unbounded
        // Each event handed to the transport goes here with the watch's operation id (once
        // setOperationId() gave one). Null: not journaled.
        std::shared_ptr<const DeliveryObserver> deliveries;
        // The bulk watch channel it is (its id in its session); 0 for a watch of its own.
        std::int64_t channel = 0;
        // Writes each event in another form than the shared wire line (Table output); null:
        // the shared line.
        std::function<std::string(const registry::WatchEvent &)> encode;
    };

    explicit Watcher(Options options);
    ~Watcher();
    Watcher(const Watcher &) = delete;
    Watcher &operator=(const Watcher &) = delete;

    // The sink to give the registry; it may be called before attach().
    registry::WatchSink sink();
    void setHandle(storage::WatchHandle handle);

    // Starts delivering through `transport`: first what was queued, then as it comes. Starts
    // the timers; the backlog limit applies from then on.
    void attach(std::shared_ptr<WatchTransport> transport);
    // attach() with a CallbackTransport.
    void attach(std::function<void(const std::string &event)> onEvent, std::function<void()> onEnd);
    // Ends the watch with an ERROR event carrying `status`, after what was queued.
    void endWithError(const model::Status &status);
    // Ends the watch as its timeout does: the transport's end, no event (the server stops).
    void end() { finish(/*tooSlow=*/false); }
    // The client went away or the server stops: nothing more is sent, the transport is
    // dropped without end().
    void close();
    // Ends the watch once `events` more ADDED, MODIFIED or DELETED events have been handed to
    // its transport: cleanly (end()) or, with `expire`, with an ERROR 410 Expired event first
    // (the fault actions end-after and expire-after). Set before attach().
    void limitEvents(std::int64_t events, bool expire)
    {
        m_eventsLeft = events;
        m_expireAtLimit = expire;
    }
    // The same, `milliseconds` after the transport attaches, whatever was sent.
    void limitTime(int milliseconds, bool expire)
    {
        m_limitMs = milliseconds;
        m_expireAtLimit = expire;
    }
    // Told, when limitEvents or limitTime end the watch with its 410, the oldest
    // resourceVersion the 410 says is left (the last one handed over, plus one; 1 when none
    // was). The fault layer remembers it, as a compaction would be.
    void onExpiredAtLimit(std::function<void(std::int64_t oldest)> expired) { m_expiredAtLimit = std::move(expired); }
    // Ends the watch with an ERROR event carrying `status` instead of anything queued, and
    // stops its storage watch: a resume from a resourceVersion that is gone (a sticky
    // injected expiry). Before attach().
    void expireNow(const model::Status &status);
    // Sends nothing more (the fault action stall): the events it holds back count as its
    // backlog, and past the backlog limit it ends as a too-slow watch does. Set before attach().
    void stall() { m_stalled = true; }
    // Told once when the watch ends or closes.
    void setOwner(std::weak_ptr<WatcherOwner> owner) { m_owner = std::move(owner); }
    // The place among the open watches this one holds while it starts (OpenWatches::admit),
    // given back once it is open (OpenWatches::add) or when it goes.
    void holdPlace(WatchPlace place) { m_place = std::move(place); }
    void givePlaceBack() { m_place.giveBack(); }

    bool ended() const { return m_ended; }
    std::int64_t channel() const { return m_options.channel; }
    void setChannel(std::int64_t channel) { m_options.channel = channel; }
    // The journal's id of this watch, which its deliveries carry (set before attach()).
    void setOperationId(std::uint64_t id) { m_operationId = id; }
    const Options &options() const { return m_options; }

private:
    void deliver(std::shared_ptr<const std::string> line, const registry::WatchEvent &event);
    void hand(const std::shared_ptr<const std::string> &line, const registry::WatchEvent &event);
    void handError(const registry::WatchEvent &error);
    // True (and the watch ended with the 410) when the client fell too far behind.
    bool endIfTooSlow();
    void finish(bool tooSlow);
    // limitEvents' end, once its last event was handed out.
    void endAtLimit();
    void stopTimers();
    void notifyFinished();
    QCoro::Task<> sendBookmark();

    Options m_options;
    storage::WatchHandle m_handle;
    // Queued before attach(): the line and the event it came from (for the journal). A
    // vector, not a deque: an empty deque allocates, and most watchers queue nothing.
    std::vector<std::pair<std::shared_ptr<const std::string>, registry::WatchEvent>> m_pending;
    std::uint64_t m_operationId = 0;
    std::int64_t m_eventsLeft = 0; // limitEvents: 0 for no limit
    std::string m_lastRevision;    // the resourceVersion of the last object event handed over
    int m_limitMs = 0;             // limitTime: 0 for no limit
    bool m_expireAtLimit = false;
    std::function<void(std::int64_t)> m_expiredAtLimit;
    bool m_stalled = false;
    std::size_t m_stalledBytes = 0; // stall: the bytes held back
    std::shared_ptr<WatchTransport> m_transport;
    std::unique_ptr<QTimer> m_timeout;
    std::unique_ptr<QTimer> m_bookmarks;
    std::unique_ptr<QTimer> m_limit; // limitTime
    std::weak_ptr<WatcherOwner> m_owner;
    WatchPlace m_place; // holdPlace()
    bool m_ended = false;
    bool m_finishPending = false;
};

} // namespace rvscope::api
