// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "api/WatchLimits.h"
#include "api/WatchPlace.h"
#include "api/Watcher.h"
#include "auth/Attributes.h"
#include "model/Status.h"

namespace rvscope::api {

class AccessControl;

// Every open watch of the API, whatever carries it (a watch request over HTTP or WebSocket,
// a bulk watch channel, or the lab's in-process clients): the one place that owns them while
// they are open, bounds how many may be open at once, re-authorizes them, and ends those of a
// server that stops. A watcher leaves when it ends or closes. Core thread only.
class OpenWatches final {
public:
    OpenWatches();
    ~OpenWatches();
    OpenWatches(const OpenWatches &) = delete;
    OpenWatches &operator=(const OpenWatches &) = delete;

    void setMax(std::size_t max) { m_max = max; }
    // At most this many open watches of one user (0: no bound of its own).
    void setMaxPerUser(std::size_t max) { m_maxPerUser = max; }
    // The 429 for one more watch of `user`, or nullopt when there is room, and then `place`
    // holds that room until the watch is added or fails (watches still starting count).
    std::optional<model::Status> admit(const std::string &user, WatchPlace &place);
    // Holds `watcher`, opened by `user`, until it ends. With `attributes` (access control is
    // on), the re-check authorizes them again and again.
    void add(const std::shared_ptr<Watcher> &watcher, const std::string &user,
             std::optional<auth::Attributes> attributes = {});
    // Ends, with an ERROR event carrying the 403 Status, every watch `access` no longer
    // allows. Returns how many.
    int recheck(const AccessControl &access);
    // `server` carries `watcher` (an HTTP or WebSocket watch it attached a transport to).
    void claim(const std::shared_ptr<Watcher> &watcher, const void *server);
    // Ends, through their transports, the watches `server` carries (a chunked stream gets
    // its last chunk): the server stops.
    void endAll(const void *server);

    std::size_t count() const { return m_state->watches.size(); }
    // The watches `server` carries.
    std::size_t countOf(const void *server) const;
    // Those re-checked against access control.
    std::size_t authorizedCount() const;

private:
    struct Entry {
        std::shared_ptr<Watcher> watcher;
        // Held apart: most watches have none, and an inline optional would triple the entry.
        std::unique_ptr<const auth::Attributes> attributes;
        const void *server = nullptr;
        std::pair<const std::string, std::size_t> *user = nullptr; // its user's count in State::perUser
    };
    // The watchers' owner, shared with them (they may outlive this).
    struct State final : WatcherOwner {
        void forget(const Watcher *watcher) override;
        std::unordered_map<const Watcher *, Entry> watches;
        std::unordered_map<std::string, std::size_t> perUser; // open watches by user
        std::size_t starting = 0; // admitted, not open yet (WatchPlace)
        std::unordered_map<std::string, std::size_t> startingPerUser;
    };
    std::shared_ptr<State> m_state;
    std::size_t m_max = DEFAULT_MAX_WATCHES;
    std::size_t m_maxPerUser = DEFAULT_MAX_WATCHES_PER_USER;
};

} // namespace rvscope::api
