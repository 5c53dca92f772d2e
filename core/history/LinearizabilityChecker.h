// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <vector>

#include "history/History.h"
#include "history/HistoryWindow.h"
#include "history/Verdict.h"

namespace rvscope::history {

// Checks that each key's operations are linearizable as a register with compare-and-swap on
// resourceVersion. Model state: (exists, resourceVersion, value).
//   get 2xx          returns the state (same resourceVersion; same value, compared without
//                    volatile metadata, when both sides recorded it); get 404: absent.
//   create 2xx       only if absent;             create 409: only if present.
//   update/patch 2xx conditional (resourceVersionSent non-empty) only if sent == state rv;
//                    unconditional always (when present); sets (rvProduced, value).
//   update/patch 2xx marked noop (nothing changed, no new resourceVersion): a read of the
//                    state (for a conditional one, sent == rvProduced).
//   update/patch/delete 409 with a precondition: only at a point where sent != state rv.
//   update/patch/delete 404: only if absent.    delete 2xx: like update, then absent.
//   pending (no endNs) or 5xx writes: may or may not take effect, at any point after their
//                    start; their resourceVersion is unknown and is bound by the first read
//                    or precondition that names an unexplained ("orphan") resourceVersion.
//   list, watch and other failures (400, 403, 410, 422, 429, ...) have no effect and are
//   ignored. Patch values are not compared (the record may hold the patch, not the result).
// The history of a key is assumed to begin with the object absent if its first successful
// write is a create, else present at an unknown resourceVersion.
//
// Search: Wing & Gong / Lowe just-in-time linearization as in Porcupine (a linked list of
// call/return entries, linearize at a call when the model allows it, backtrack at a return of
// an unlinearized operation) with memoization of (linearized set, state). The set is keyed
// compactly as (first unlinearized operation in start order, linearized operations after it),
// which stays small because only operations overlapping the frontier can be in it.
// Pruning from resourceVersions being unique and increasing: the successful writes of a key
// form a chain ordered by rvProduced, and a write may only be linearized as the next link
// of that chain; and it may not be linearized while a read of the current resourceVersion is
// still unlinearized (that read could never be placed afterwards). Valid histories then need
// almost no backtracking, so a hot key with ~100k operations checks in about a second.
//
// A history that dropped its oldest operations (HistoryWindow) is checked as far as it goes:
// each key starts in an unknown state, which lasts until its first write above the key's
// horizon (the writes at or below it may interleave with dropped ones and are not checked);
// until then reads of revisions up to the horizon, 404s and 409s are accepted, afterwards
// everything is checked as usual (a read of an old revision is then a stale read). The
// summary says so.
//
// The time budget covers the whole check; keys not finished get Unknown findings (a Fail
// on any other key still makes the verdict Fail). Pure function; any thread.
class LinearizabilityChecker final {
public:
    struct Options {
        std::chrono::milliseconds timeBudget{5000};
    };

    LinearizabilityChecker();
    explicit LinearizabilityChecker(Options options);

    Verdict check(const History &history) const;
    Verdict check(const std::vector<OperationRecord> &operations, const HistoryWindow &window = {}) const;

private:
    Options m_options;
};

} // namespace rvscope::history
