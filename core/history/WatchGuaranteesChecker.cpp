// SPDX-License-Identifier: MIT
#include "history/WatchGuaranteesChecker.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "model/Object.h"

namespace rvscope::history {

namespace {

struct CommittedChange final {
    std::string key; // normalized
    std::string eventType;
    std::uint64_t operationId = 0;
};

std::string expectedEventType(const std::string &verb)
{
    return verb == "create" ? "ADDED" : verb == "delete" ? "DELETED" : "MODIFIED";
}

bool underPrefix(const std::string &key, const std::string &prefix)
{
    return key.compare(0, prefix.size(), prefix) == 0;
}

} // namespace

Verdict WatchGuaranteesChecker::check(const History &history) const
{
    return check(std::vector<OperationRecord>(history.operations().begin(), history.operations().end()),
                 std::vector<WatchDelivery>(history.watchDeliveries().begin(), history.watchDeliveries().end()),
                 HistoryWindow::of(history));
}

Verdict WatchGuaranteesChecker::check(const std::vector<OperationRecord> &operations,
                                      const std::vector<WatchDelivery> &deliveries, const HistoryWindow &window) const
{
    if (deliveries.empty())
        return Verdict::noHistory("no watch delivery was recorded");
    std::map<std::int64_t, CommittedChange> log;
    std::set<std::string> keysWithUnknownWrites;
    std::unordered_map<std::uint64_t, const OperationRecord *> watchOps;
    std::size_t beforeHorizon = 0;
    Verdict verdict;
    for (const OperationRecord &op : operations) {
        if (op.verb == "watch")
            watchOps[op.id] = &op;
        if (!op.isWrite() || op.refusedByFault())
            continue;
        if (op.pending() || op.statusCode >= 500) {
            keysWithUnknownWrites.insert(normalizedKey(op.key));
            continue;
        }
        if (!op.succeeded())
            continue;
        if (auto rv = model::parseResourceVersion(op.resourceVersionProduced))
            log[*rv] = CommittedChange{normalizedKey(op.key), expectedEventType(op.verb), op.id};
    }

    // Group by watcher, keeping each stream's recorded order.
    std::vector<std::string> watcherOrder;
    std::map<std::string, std::vector<const WatchDelivery *>> streams;
    for (const WatchDelivery &d : deliveries) {
        auto &stream = streams[d.watcherId];
        if (stream.empty())
            watcherOrder.push_back(d.watcherId);
        stream.push_back(&d);
    }

    for (const std::string &watcher : watcherOrder) {
        const auto &stream = streams[watcher];
        const std::string who = "watcher " + watcher + ": ";
        std::optional<std::string> prefix;
        std::optional<std::int64_t> start;
        std::optional<std::int64_t> openedNs;
        if (auto it = watchOps.find(stream.front()->operationId); stream.front()->operationId != 0 && it != watchOps.end()) {
            prefix = normalizedKey(it->second->key);
            openedNs = it->second->startNs;
            if (auto rv = model::parseResourceVersion(it->second->resourceVersionSent); rv && *rv > 0)
                start = *rv;
        }
        // Its first events may be among the dropped deliveries: check from the first kept one.
        if (window.mayHaveDroppedDeliveries(openedNs))
            start.reset();
        std::optional<std::int64_t> last;
        std::optional<std::int64_t> first;
        std::set<std::int64_t> delivered;
        for (const WatchDelivery *d : stream) {
            if (d->eventType == "ERROR")
                continue;
            auto rv = model::parseResourceVersion(d->resourceVersion);
            if (!rv) {
                verdict.findings.push_back(who + "event with unparsable resourceVersion \"" + d->resourceVersion + "\"");
                continue;
            }
            if (d->eventType == "BOOKMARK") {
                if (last && *rv < *last)
                    verdict.findings.push_back(who + "BOOKMARK rv " + std::to_string(*rv) + " after rv " + std::to_string(*last));
                continue;
            }
            const std::string here = d->eventType + " rv " + std::to_string(*rv) + " (" + normalizedKey(d->key) + ")";
            if (delivered.count(*rv))
                verdict.findings.push_back(who + "duplicate " + here);
            else if (last && *rv < *last)
                verdict.findings.push_back(who + "out of order: " + here + " after rv " + std::to_string(*last));
            if (!first && start && *rv <= *start)
                verdict.findings.push_back(who + "resume from rv " + std::to_string(*start) + " delivered " + here
                                           + ", not after the start");
            if (!first)
                first = rv;
            delivered.insert(*rv);
            last = last ? std::max(*last, *rv) : *rv;

            if (*rv <= window.horizonOf(d->key)) {
                ++beforeHorizon; // its commit may be among the dropped operations
                continue;
            }
            auto commit = log.find(*rv);
            if (commit == log.end()) {
                if (!keysWithUnknownWrites.count(normalizedKey(d->key)))
                    verdict.findings.push_back(who + "delivered " + here + " which is not in the commit log");
            } else if (commit->second.key != normalizedKey(d->key) || commit->second.eventType != d->eventType) {
                verdict.findings.push_back(who + "delivered " + here + " but the commit at that rv is " + commit->second.eventType
                                           + " of " + commit->second.key + " (op " + std::to_string(commit->second.operationId) + ")");
            }
        }
        if (!prefix || !last)
            continue;
        // Gaps: every commit under the prefix between the start and the last delivered rv,
        // above the horizon (below it, commits may have been dropped).
        const std::int64_t from = std::max(start ? *start : *first, window.horizonOf(*prefix));
        for (auto it = log.upper_bound(from); it != log.end() && it->first <= *last; ++it) {
            if (underPrefix(it->second.key, *prefix) && !delivered.count(it->first))
                verdict.findings.push_back(who + "gap: missed " + it->second.eventType + " rv " + std::to_string(it->first) + " ("
                                           + it->second.key + ", op " + std::to_string(it->second.operationId) + ")");
        }
    }
    const std::string counts = std::to_string(streams.size()) + " watch streams, " + std::to_string(deliveries.size())
                               + " deliveries, " + std::to_string(log.size()) + " commits";
    if (!verdict.findings.empty()) {
        verdict.outcome = Verdict::Outcome::Fail;
        verdict.summary = std::to_string(verdict.findings.size()) + " watch guarantee violations in " + counts;
    } else {
        verdict.summary = "watch guarantees hold: " + counts;
    }
    if (window.truncated())
        verdict.summary += " (" + window.note() + ": checked what it kept; " + std::to_string(beforeHorizon)
                           + " deliveries of revisions it may not hold were checked for order and duplicates only)";
    return verdict;
}

} // namespace rvscope::history
