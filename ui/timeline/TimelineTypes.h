// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include <QtCore/QString>
#include <QtCore/QtGlobal>

// Value types shared by the timeline's store, painter and view. GUI thread only.
namespace rvscope::ui {

// What the x axis measures.
enum class TimelineAxis { ResourceVersion, Time };

// What an operation did, as the timeline classifies it.
enum class TimelineOutcome : quint8 {
    Success,  // 2xx
    Conflict, // 409 other than AlreadyExists: a stale resourceVersion precondition
    OwnershipConflict, // 409 of a server-side apply: a field another manager owns
    Error,    // any other failure (404, 422, 409 AlreadyExists, 5xx, no response)
    Noop,     // a successful write that changed nothing (no new revision)
    Pending,  // no response yet
};

enum class TimelineVerb : quint8 { Get, List, Create, Update, Patch, Delete, Watch, Other };

// The kinds of mark the painter draws; the view counts each kind per paint (see TimelinePaintStats).
enum class MarkerKind {
    Success,    // filled circle (blue)
    Conflict,   // hollow square at the stale RV with a dashed line to the current RV (red)
    Error,      // triangle (grey)
    CasRetry,   // one small tick per server-side retry (orange)
    Noop,       // hollow circle
    LostUpdate, // the arrow (RV axis) or bar (time axis) of a lost update (magenta)
    Revision,   // a committed revision's dot on an object lane
    Pending,    // an operation without a response yet
    // The watch overlay (one selected watcher), below its object lanes' revisions:
    WatchDelivery, // an event it received: filled diamond (bluish green); BOOKMARK hollow
    WatchFlagged,  // a duplicate or a step backwards (red diamond), the closing ERROR (red, crossed)
    WatchGap,      // a revision it should have received and did not: hollow dashed red diamond
    Remote,        // the ring around a revision another instance wrote (sky blue)
    OwnershipConflict, // hollow square notched by a diamond (red): a field another manager owns
    Injected, // over the mark of the outcome it imitates: a dotted outline and a small bolt
};
inline constexpr std::size_t MARKER_KIND_COUNT = 14;

// One operation, with the facts the timeline derives from the ones before it. Strings are
// indices into TimelineData::text(); lanes are indices into TimelineData's lane vectors.
struct TimelineOperation final {
    quint64 id = 0;
    qint64 rvSent = 0;     // the precondition sent, 0: unconditional
    qint64 rvProduced = 0; // the revision committed (writes) or read (reads), 0: none
    qint64 rvRead = 0;     // the revision the op was based on: rvSent, else the client's last seen RV of the key
    qint64 rvCurrent = 0;  // the key's latest committed revision when the op ended (a 409's live RV)
    qint64 rvLost = 0;     // lost update: another client's revision this write overwrote unseen, 0: none
    qint64 rvPosition = 0; // where the op's mark sits on the RV axis
    qint64 startNs = 0;
    qint64 endNs = -1; // -1: pending
    int statusCode = 0;
    int casRetries = 0;
    int clientLane = -1; // -1: a write another instance made (remote), known by watch only
    int objectLane = -1; // -1: list and watch (their key is a prefix)
    int clientText = -1;
    int keyText = -1;
    int strategyText = -1;
    int reasonText = -1;
    int lostClientText = -1; // the client whose revision was lost
    int injectedText = -1;   // the action of the fault rule that acted on it, -1: none (a real outcome)
    TimelineVerb verb = TimelineVerb::Other;
    TimelineOutcome outcome = TimelineOutcome::Success;
    // How many earlier operations of the same client sit at the same rvPosition (a 409 where
    // the client read): the RV axis draws those marks a little lower so they do not hide it.
    quint16 stackSlot = 0;
    bool remote = false; // written by another rvscope instance on the same etcd
    bool apply = false;  // a server-side apply: it merges by field ownership

    // Where the operation ends on the time axis: at its start while it is pending.
    qint64 drawnEndNs() const
    {
        return endNs >= 0 ? endNs : startNs;
    }

    bool isWrite() const
    {
        return verb == TimelineVerb::Create || verb == TimelineVerb::Update || verb == TimelineVerb::Patch
            || verb == TimelineVerb::Delete;
    }
    bool lostUpdate() const { return rvLost > 0; }
    // Where the arrow of a successful write starts (the revision it was based on; for a lost
    // update never preceded by a read, the revision it overwrote), 0: no arrow.
    qint64 arrowTailRv() const
    {
        if (outcome != TimelineOutcome::Success || !isWrite() || rvProduced <= 0)
            return 0;
        const qint64 tail = rvRead > 0 ? rvRead : rvLost;
        return tail != rvProduced ? tail : 0;
    }
    // Where the dashed line of a 409 ends, 0: none.
    qint64 conflictLineRv() const
    {
        return outcome == TimelineOutcome::Conflict && rvCurrent > 0 && rvCurrent != rvPosition ? rvCurrent : 0;
    }
    // The leftmost and rightmost RV the op's marks reach (marker, arrow, dashed line).
    qint64 rvLow() const
    {
        qint64 low = rvPosition;
        for (qint64 rv : {arrowTailRv(), conflictLineRv()})
            if (rv > 0 && rv < low)
                low = rv;
        return low;
    }
    qint64 rvHigh() const
    {
        qint64 high = rvPosition;
        for (qint64 rv : {arrowTailRv(), conflictLineRv()})
            if (rv > high)
                high = rv;
        return high;
    }
};

// A revision of one object: committed by a journaled write (operation >= 0) or only seen by
// a read (operation == -1, e.g. the revision an object had before the run began).
struct TimelineRevision final {
    qint64 rv = 0;
    qint64 timeNs = 0; // when the committing write (or the first read seeing it) ended
    int operation = -1;
    bool overwrittenUnseen = false; // a lost update jumped over it
};

struct TimelineLane final {
    QString name;  // the full key or client id
    QString label; // what the lane's gutter shows
    QString detail; // a second, quieter line: the object's resource, the client's strategy
    // Client lanes: the lane's operations by rvHigh() and by endNs (startNs while pending).
    std::vector<int> byRv;
    std::vector<int> byTime;
    qint64 maxRvSpan = 0;      // largest rvHigh() - rvLow() in the lane
    qint64 maxDurationNs = 0;  // longest operation in the lane
    std::vector<TimelineRevision> revisions; // object lanes: sorted by rv
};

// What the last paint drew: `markers` counts marks drawn one by one; when a lane is too dense
// (level of detail), its operations are drawn as per-pixel-column bars and counted in
// `aggregatedOperations` by the kind of their mark instead.
struct TimelinePaintStats final {
    std::array<int, MARKER_KIND_COUNT> markers{};
    std::array<int, MARKER_KIND_COUNT> aggregatedOperations{};
    int aggregatedColumns = 0;
    int lanesPainted = 0;
    bool levelOfDetail = false; // some lane was aggregated
};

} // namespace rvscope::ui
