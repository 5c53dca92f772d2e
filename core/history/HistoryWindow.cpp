// SPDX-License-Identifier: MIT
#include "history/HistoryWindow.h"

#include <algorithm>

#include "history/History.h"
#include "model/Object.h"

namespace rvscope::history {

std::string resourceOfKey(const std::string &key)
{
    const std::string normalized = normalizedKey(key);
    return normalized.substr(0, normalized.find('/'));
}

HistoryWindow HistoryWindow::of(const History &history)
{
    HistoryWindow window;
    window.droppedOperations = history.droppedOperations();
    window.droppedWatchDeliveries = history.droppedWatchDeliveries();
    if (window.droppedWatchDeliveries > 0 && !history.watchDeliveries().empty())
        window.deliveriesCutNs = history.watchDeliveries().front().timeNs;
    if (window.droppedOperations == 0)
        return window;
    const auto &operations = history.operations();
    // The first kept operation that ended (a pending one has no end; all later ones ended
    // after it, in completion order).
    auto first = std::find_if(operations.begin(), operations.end(), [](const OperationRecord &op) { return !op.pending(); });
    if (first == operations.end())
        return window;
    const std::int64_t cut = *first->endNs;
    window.operationsCutNs = cut;
    for (const OperationRecord &op : operations) {
        // A remote write's start is unknown (0); a no-op write produced no revision.
        if (!op.isWrite() || !op.succeeded() || op.noop || op.remote || op.startNs <= cut)
            continue;
        const auto rv = model::parseResourceVersion(op.resourceVersionProduced);
        if (!rv)
            continue;
        const std::string resource = resourceOfKey(op.key);
        auto it = window.horizons.find(resource);
        if (it == window.horizons.end())
            window.horizons.emplace(resource, *rv - 1);
        else
            it->second = std::min(it->second, *rv - 1);
    }
    return window;
}

std::int64_t HistoryWindow::horizonOf(const std::string &key) const
{
    if (droppedOperations == 0)
        return 0;
    auto it = horizons.find(resourceOfKey(key));
    return it == horizons.end() ? NOTHING_COMPLETE : it->second;
}

bool HistoryWindow::mayHaveDroppedDeliveries(std::optional<std::int64_t> watchStartNs) const
{
    if (droppedWatchDeliveries == 0)
        return false;
    return !deliveriesCutNs || !watchStartNs || *watchStartNs <= *deliveriesCutNs;
}

std::string HistoryWindow::note() const
{
    std::string dropped;
    if (droppedOperations > 0)
        dropped = std::to_string(droppedOperations) + " operations";
    if (droppedWatchDeliveries > 0)
        dropped += (dropped.empty() ? "" : " and ") + std::to_string(droppedWatchDeliveries) + " watch deliveries";
    return dropped.empty() ? std::string() : "the journal dropped its oldest " + dropped;
}

} // namespace rvscope::history
