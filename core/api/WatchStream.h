// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <QtCore/QTimer>
#include <qcoro/qcorotask.h>

#include "registry/StoreTypes.h"
#include "storage/WatchHandle.h"

namespace rvscope::api {

// How far a watch's client may fall behind: `backlog` tells the bytes the transport has
// accepted but not yet sent; beyond maxBytes the watch ends with the 410.
struct WatchBacklogLimit {
    std::function<std::size_t()> backlog;
    std::size_t maxBytes = 0; // 0: unbounded
};

// One open watch as the API sends it: every registry event in its wire form (shared with the
// other watchers of the event when the watch hub computed it once: registry::watchEventLine), queued until a transport attaches, ended by an ERROR
// event, the timeout (timeoutSeconds, or 30-60 minutes like upstream), the client leaving,
// or shutdown. Optional BOOKMARK events carry the current revision.
//
// A client that stops reading never slows writers or other watchers: the transport reports
// how many bytes it still holds for the client, and once that passes its limit the
// next event is replaced by an ERROR event with a 410 Expired Status (watchTooSlow) and the
// watch ends, so that the client relists, as the apiserver's cacher drops a watcher whose
// buffer stays full. Core thread only.
class WatchStream final : public std::enable_shared_from_this<WatchStream> {
public:
    // What the journal learns about one event handed to the transport.
    struct Delivery {
        std::string type; // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
        std::string resourceVersion;
        std::string namespaceName;
        std::string name;
        std::string message; // ERROR: "<code> <reason>: <message>" of the Status
    };

    struct Options {
        std::string kind;       // of the watched type, for BOOKMARK objects
        std::string apiVersion;
        int timeoutMs = 0;      // 0: none
        int bookmarkIntervalMs = 0; // 0: no bookmarks
        // For bookmarks: the revision the watch has caught up with (storage's current).
        std::function<QCoro::Task<std::int64_t>()> currentRevision;
        // Called as each event is handed to the transport (never before attach()).
        std::function<void(const Delivery &)> onDelivered;
    };

    using BacklogLimit = WatchBacklogLimit;

    // What the journal learns of `event`.
    static Delivery describe(const registry::WatchEvent &event);

    explicit WatchStream(Options options);
    ~WatchStream();
    WatchStream(const WatchStream &) = delete;
    WatchStream &operator=(const WatchStream &) = delete;

    // The sink to give the registry; it may be called before attach().
    registry::WatchSink sink();
    void setHandle(storage::WatchHandle handle);

    // The transport's side: each event line (JSON, no newline) in order, then `end` once.
    // Starts the timers. Events queued before attaching are delivered first; the backlog
    // limit applies from then on.
    void attach(std::function<void(const std::string &event)> onEvent, std::function<void()> onEnd,
                BacklogLimit limit = {});
    // True once the watch ended because the client did not keep up.
    bool endedTooSlow() const { return m_tooSlow; }
    // The client went away or the server stops: no more callbacks.
    void close();
    bool ended() const { return m_ended; }

private:
    void deliver(std::shared_ptr<const std::string> line, Delivery delivery);
    void hand(const std::string &line, const Delivery &delivery);
    // True (and the watch ended with the 410) when the client fell too far behind.
    bool endIfTooSlow();
    void finish();
    QCoro::Task<> sendBookmark();

    Options m_options;
    storage::WatchHandle m_handle;
    std::deque<std::pair<std::shared_ptr<const std::string>, Delivery>> m_pending;
    std::function<void(const std::string &)> m_onEvent;
    std::function<void()> m_onEnd;
    BacklogLimit m_limit;
    std::unique_ptr<QTimer> m_timeout;
    std::unique_ptr<QTimer> m_bookmarks;
    bool m_ended = false;
    bool m_finishPending = false;
    bool m_tooSlow = false;
};

} // namespace rvscope::api
