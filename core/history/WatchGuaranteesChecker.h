// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "history/History.h"
#include "history/HistoryWindow.h"
#include "history/Verdict.h"

namespace rvscope::history {

// Checks every recorded watch stream (deliveries grouped by watcherId, in recorded order)
// against the commit log, i.e. the successful writes among the operations (key, type and
// rvProduced; create → ADDED, update/patch → MODIFIED, delete → DELETED).
//   order:     resourceVersions strictly increase (BOOKMARKs may repeat the last one);
//   duplicate: no resourceVersion is delivered twice;
//   gaps:      between the start and the last delivered event, exactly the commits under the
//              watched prefix are delivered (none missing, none invented, same key and type);
//   resume:    a watch started at resourceVersion N (> 0) begins with the first commit
//              after N under its prefix.
// The prefix and start come from the "watch" operation named by WatchDelivery::operationId
// (key = prefix, resourceVersionSent = start). Without that operation, or with a start of
// "" or "0" (which begins with synthetic ADDED events of the current state), only order and
// duplicates are checked, and gaps from the first delivered event on if a prefix is known.
// A delivered resourceVersion missing from the log is accepted when a write to that key had
// an unknown outcome (pending or 5xx). ERROR events are ignored. Events after the last
// delivery cannot be checked (the stream may simply have been closed).
// A history that dropped its oldest records (HistoryWindow) is checked as far as it goes: a
// delivery of a revision at or below its resource's horizon (whose commit may have been
// dropped) is checked for order and duplicates only, gaps are looked for above the horizon,
// and a stream that may have lost its first deliveries is checked from its first kept one;
// the summary says so.
// Pure function; any thread.
class WatchGuaranteesChecker final {
public:
    Verdict check(const History &history) const;
    Verdict check(const std::vector<OperationRecord> &operations, const std::vector<WatchDelivery> &deliveries,
                  const HistoryWindow &window = {}) const;
};

} // namespace rvscope::history
