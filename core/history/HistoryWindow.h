// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

namespace rvscope::history {

class History;

// What a bounded history kept, so that the checkers check that and say so. A full History
// drops its oldest operations and its oldest watch deliveries (each kind on its own), and an
// export carries the counts (History::exportJsonLines), so an imported history knows too.
//
// Operations are recorded in completion order, so every dropped operation ended no later
// than the first kept one (operationsCutNs). A write that started after that instant
// committed after every dropped write of its revision series; so, per resource, every commit
// above `horizon` (the smallest revision such a write produced, minus one) is among the kept
// operations, and commits at or below it may have been dropped. Deliveries are recorded in
// the order they were handed over, so a watch stream that was open before the first kept
// delivery (deliveriesCutNs) may have lost its first events. Pure value; any thread.
struct HistoryWindow final {
    static constexpr std::int64_t NOTHING_COMPLETE = std::numeric_limits<std::int64_t>::max();

    std::uint64_t droppedOperations = 0;
    std::uint64_t droppedWatchDeliveries = 0;
    std::optional<std::int64_t> operationsCutNs; // set when operations were dropped
    std::optional<std::int64_t> deliveriesCutNs; // set when deliveries were dropped
    // Resource ("configmaps") -> the revision above which all of its commits were kept.
    std::map<std::string, std::int64_t> horizons;

    static HistoryWindow of(const History &history);

    bool truncated() const { return droppedOperations > 0 || droppedWatchDeliveries > 0; }
    // The revision above which every commit of `key`'s resource is kept: 0 when no operation
    // was dropped; NOTHING_COMPLETE when no write of that resource started after the cut.
    std::int64_t horizonOf(const std::string &key) const;
    // Whether a stream opened at `watchStartNs` (nullopt: unknown) may have lost deliveries.
    bool mayHaveDroppedDeliveries(std::optional<std::int64_t> watchStartNs) const;
    // "the journal dropped its oldest 1200 operations and 5000 watch deliveries"; empty when
    // nothing was dropped.
    std::string note() const;
};

// "configmaps" for "configmaps/default/foo" and "/registry/configmaps/default/foo".
std::string resourceOfKey(const std::string &key);

} // namespace rvscope::history
