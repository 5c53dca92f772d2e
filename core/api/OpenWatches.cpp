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

std::optional<model::Status> OpenWatches::admit() const
{
    if (m_state->watches.size() < m_max)
        return std::nullopt;
    return model::errors::tooManyRequests("too many open watches (" + std::to_string(m_max)
                                              + "), please try again later",
                                          1);
}

void OpenWatches::add(const std::shared_ptr<Watcher> &watcher, std::optional<auth::Attributes> attributes)
{
    if (watcher->ended())
        return;
    const Watcher *key = watcher.get();
    watcher->setOwner(m_state);
    Entry entry;
    entry.watcher = watcher;
    if (attributes)
        entry.attributes = std::make_unique<const auth::Attributes>(std::move(*attributes));
    m_state->watches.insert_or_assign(key, std::move(entry));
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
