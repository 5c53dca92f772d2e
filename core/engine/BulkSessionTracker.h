// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "engine/EngineTypes.h"

namespace rvscope::api {
class BulkWatchSession;
}

namespace rvscope::engine {

// The embedded server's bulk watch sessions as the GUI sees them, each with an id that stays
// with it. Meant for every stats tick: a cheap fingerprint (which sessions, how many
// channels each) every time, the channels themselves only when it changed or every
// FULL_READ_TICKS (a channel closed and another opened within one tick leaves the
// fingerprint alike), and a list only when it differs from the last one.
class BulkSessionTracker final {
public:
    // The open sessions among `sessions`, by id, when that list differs from the last one
    // returned; nothing otherwise.
    std::optional<BulkSessionList> update(std::vector<std::shared_ptr<api::BulkWatchSession>> sessions);

private:
    struct KnownSession {
        std::weak_ptr<api::BulkWatchSession> session;
        quint64 id = 0;
    };
    std::map<const api::BulkWatchSession *, KnownSession> m_ids;
    quint64 m_nextId = 1;
    std::vector<std::pair<const api::BulkWatchSession *, std::size_t>> m_fingerprint;
    unsigned m_ticks = 0;
    BulkSessionList m_last;
};

} // namespace rvscope::engine
