// SPDX-License-Identifier: MIT
#include "api/OpenWatches.h"

#include <algorithm>
#include <vector>

#include "api/AccessControl.h"
#include "api/Watcher.h"
#include "model/StatusErrors.h"

namespace rvscope::api {

OpenWatches::OpenWatches()
    : m_state(std::make_shared<State>())
{
}

OpenWatches::~OpenWatches() = default;

std::optional<model::Status> OpenWatches::admit(const std::string &user, WatchPlace &place)
{
    State &state = *m_state;
    if (state.watches.size() + state.starting >= m_max)
        return model::errors::tooManyRequests("too many open watches (" + std::to_string(m_max)
                                                  + "), please try again later",
                                              1);
    if (m_maxPerUser != 0) {
        const auto open = state.perUser.find(user);
        const auto starting = state.startingPerUser.find(user);
        const std::size_t mine = (open != state.perUser.end() ? open->second : 0)
            + (starting != state.startingPerUser.end() ? starting->second : 0);
        if (mine >= m_maxPerUser)
            return model::errors::tooManyRequests("too many open watches of user \"" + user + "\" ("
                                                      + std::to_string(m_maxPerUser) + "), close some first",
                                                  1);
    }
    ++state.starting;
    ++state.startingPerUser[user];
    place = WatchPlace([weak = std::weak_ptr<State>(m_state), user] {
        const std::shared_ptr<State> state = weak.lock();
        if (!state)
            return;
        --state->starting;
        if (auto it = state->startingPerUser.find(user); it != state->startingPerUser.end() && --it->second == 0)
            state->startingPerUser.erase(it);
    });
    return std::nullopt;
}

void OpenWatches::add(const std::shared_ptr<Watcher> &watcher, const std::string &user,
                      std::optional<auth::Attributes> attributes)
{
    watcher->givePlaceBack(); // counted as open from here on
    if (watcher->ended())
        return;
    const Watcher *key = watcher.get();
    watcher->setOwner(m_state);
    Entry entry;
    entry.watcher = watcher;
    if (attributes)
        entry.attributes = std::make_unique<const auth::Attributes>(std::move(*attributes));
    m_state->forget(key); // (added twice: counted once)
    auto &counted = *m_state->perUser.try_emplace(user, 0).first; // nodes stay where they are
    ++counted.second;
    entry.user = &counted;
    m_state->watches.emplace(key, std::move(entry));
}

void OpenWatches::State::forget(const Watcher *watcher)
{
    auto it = watches.find(watcher);
    if (it == watches.end())
        return;
    if (auto *user = it->second.user; user && --user->second == 0) {
        const std::string name = user->first;
        perUser.erase(name);
    }
    watches.erase(it);
}

int OpenWatches::recheck(const AccessControl &access)
{
    std::vector<std::pair<std::shared_ptr<Watcher>, model::Status>> lost;
    for (const auto &[key, entry] : m_state->watches) {
        if (!entry.attributes || entry.watcher->ended())
            continue;
        if (auto denied = access.authorize(*entry.attributes))
            lost.emplace_back(entry.watcher, std::move(*denied));
    }
    // Ended outside the loop: an ending watch leaves the map and may call into its transport.
    for (auto &[watcher, status] : lost)
        watcher->endWithError(status);
    return int(lost.size());
}

void OpenWatches::claim(const std::shared_ptr<Watcher> &watcher, const void *server)
{
    auto it = m_state->watches.find(watcher.get());
    if (it != m_state->watches.end())
        it->second.server = server;
}

void OpenWatches::endAll(const void *server)
{
    std::vector<std::shared_ptr<Watcher>> watchers;
    for (const auto &[key, entry] : m_state->watches) {
        if (entry.server == server)
            watchers.push_back(entry.watcher);
    }
    // Ended outside the loop: an ending watch leaves the map.
    for (const auto &watcher : watchers)
        watcher->end();
}

std::size_t OpenWatches::countOf(const void *server) const
{
    return std::size_t(std::count_if(m_state->watches.begin(), m_state->watches.end(),
                                     [server](const auto &entry) { return entry.second.server == server; }));
}

std::size_t OpenWatches::authorizedCount() const
{
    return std::size_t(std::count_if(m_state->watches.begin(), m_state->watches.end(),
                                     [](const auto &entry) { return entry.second.attributes != nullptr; }));
}

} // namespace rvscope::api
