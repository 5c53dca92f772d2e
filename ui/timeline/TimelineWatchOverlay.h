// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <vector>

#include <QtCore/QHash>
#include <QtCore/QPointF>
#include <QtCore/QString>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

class TimelineData;
struct TimelineGeometry;

// What the overlay flags on one delivery (UI.md "Watch overlay": a duplicate or a step
// backwards is flagged in red; the ERROR that closes a watch is red too).
enum class DeliveryFlag : quint8 { None, Duplicate, Backwards, Error };

struct TimelineDelivery final {
    qint64 rv = 0;         // the event's resourceVersion (0 for most ERRORs)
    qint64 rvPosition = 0; // where it sits on the RV axis: rv, or for an ERROR the last rv before it
    qint64 previousRv = 0; // the last rv delivered before it (what a flag compares against)
    qint64 timeNs = 0;     // when it was delivered (monotonic ns, the operations' clock)
    int group = 0;         // index into groups()
    int typeText = 0;      // index into TimelineWatchOverlay::text()
    int messageText = -1;  // ERROR: its Status ("410 Expired: ..."), -1: none
    DeliveryFlag flag = DeliveryFlag::None;

    bool flagged() const { return flag != DeliveryFlag::None; }
};

// The deliveries of one object key, or of none (BOOKMARK and ERROR events: group 0).
struct TimelineDeliveryGroup final {
    QString key;                // "configmaps/default/foo"; empty for group 0
    std::vector<int> byRv;      // delivery indices sorted by rvPosition
    std::vector<int> byTime;    // sorted by timeNs
    std::vector<qint64> rvs;    // rvs of its ADDED/MODIFIED/DELETED deliveries, sorted (gap checks)
    bool delivered(qint64 rv) const;
};

// Which revisions the watcher should have received: those committed by journaled writes on
// keys under its collection, after `floor` and up to `ceiling` (its last delivered rv).
struct WatchGapRange final {
    QString prefix; // "configmaps/default/"
    qint64 floor = 0;
    qint64 ceiling = 0;
    bool valid() const { return !prefix.isEmpty() && ceiling > floor; }
    bool covers(const QString &key, qint64 rv) const { return rv > floor && rv <= ceiling && key.startsWith(prefix); }
};

// What lies under a point of the overlay: a delivery, or a gap (a revision of an object lane).
struct WatchOverlayHit final {
    int delivery = -1;
    int objectLane = -1;
    int revision = -1; // the missed revision, index into that lane's revisions
    bool empty() const { return delivery < 0 && revision < 0; }
};

// The timeline's watch overlay: the deliveries of one watcher, in delivery order, grouped by
// object key and sorted for painting only what is visible. Each delivery is checked as it
// is appended against the previous one like the Streams panel does (WatchEventModel): an rv
// not above the previous one is a duplicate (already delivered) or a step backwards, except
// in a leading run of ADDED events (a watch from "0" sends the current state in key order).
// Gaps are not stored: they depend on the operations too (gapRange) and are found while
// painting. GUI thread only; no signals.
class TimelineWatchOverlay final {
public:
    TimelineWatchOverlay();

    // Starts over for `watcherId` (empty: no overlay).
    void reset(const QString &watcherId = {});
    // Appends this watcher's events from `batch` (in delivery order; other watchers' are
    // skipped). `data` places an ERROR that came before any rv at the watch's start.
    // Returns how many were taken.
    int append(const engine::WatchEventBatch &batch, const TimelineData &data);

    bool active() const { return !m_watcherId.isEmpty(); }
    const QString &watcherId() const { return m_watcherId; }
    int deliveryCount() const { return int(m_deliveries.size()); }
    const TimelineDelivery &delivery(int index) const { return m_deliveries[std::size_t(index)]; }
    const QString &text(int index) const { return m_texts[index]; }
    int flaggedCount() const { return m_flagged; }
    // The last delivery time (0: none), so that the time axis can show it.
    qint64 latestNs() const { return m_latestNs; }

    const std::vector<TimelineDeliveryGroup> &groups() const { return m_groups; }
    // The group of an object key, nullptr when the watcher received nothing for it.
    const TimelineDeliveryGroup *groupOf(const QString &key) const;
    const TimelineDeliveryGroup &keylessGroup() const { return m_groups.front(); }

    // Needs the watch request in `data` (the journaled "watch" operation of the events'
    // operationId): without it, no gap is looked for, as the history's watch checker does.
    // Like that checker it knows the watched collection, not the request's label or field
    // selectors: a watch with selectors can show gaps for objects it never selected.
    WatchGapRange gapRange(const TimelineData &data) const;
    bool isGap(const TimelineData &data, const WatchGapRange &range, int objectLane, int revision) const;
    // Where a delivery's diamond is (nullopt: it names an object the timeline has no lane for).
    std::optional<QPointF> position(const TimelineData &data, const TimelineGeometry &geometry, int index) const;
    WatchOverlayHit hitTest(const TimelineData &data, const TimelineGeometry &geometry, const QPointF &point) const;

private:
    int intern(const QString &text);
    int groupFor(const engine::WatchEventSummary &event, bool keyed);
    void flag(TimelineDelivery &delivery, const TimelineDeliveryGroup &group, bool keyed, bool initialAdd);

    QString m_watcherId;
    quint64 m_operationId = 0;
    std::vector<TimelineDelivery> m_deliveries;
    std::vector<TimelineDeliveryGroup> m_groups;
    QHash<QString, int> m_groupByKey;
    QStringList m_texts;
    qint64 m_lastRv = 0;
    bool m_hasLastRv = false;
    bool m_initialState = true;
    qint64 m_firstRv = 0;   // the first keyed delivery's rv
    qint64 m_initialRv = 0; // the highest rv of the leading ADDED run
    qint64 m_maxRv = 0;
    int m_flagged = 0;
    qint64 m_latestNs = 0;
};

} // namespace rvscope::ui
