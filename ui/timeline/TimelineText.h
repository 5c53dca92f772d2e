// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QString>

#include "timeline/TimelineTypes.h"

namespace rvscope::ui {

class TimelineData;
class TimelineWatchOverlay;

// The timeline's words: tooltips and ruler labels. Pure functions; GUI thread (they read TimelineData).
namespace TimelineText {

QLatin1String verbName(TimelineVerb verb);
// "850 ns", "12.3 µs", "1.25 ms", "2.50 s".
QString duration(qint64 ns);
// A ruler label for `ns` after the origin, in the unit that suits ticks `stepNs` apart.
QString timeOffset(double ns, double stepNs);
// client, verb and key, RV sent/produced, status, latency, and what the timeline derived
// (a 409's live revision, CAS retries, no-op, lost update); one fact per line.
QString describeOperation(const TimelineData &data, int operation);
// The object, the revision, and which write committed it (or that a read saw it).
QString describeRevision(const TimelineData &data, int objectLane, int revision);
// The watch overlay: the watcher, the event's type, key and RV, when it was delivered (after
// the timeline's first operation, and after the write that committed it), and what it flags.
QString describeDelivery(const TimelineData &data, const TimelineWatchOverlay &overlay, int delivery);
// A revision the overlaid watcher should have received and did not.
QString describeGap(const TimelineData &data, const TimelineWatchOverlay &overlay, int objectLane, int revision);

} // namespace TimelineText
} // namespace rvscope::ui
