// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QPointF>
#include <QtCore/QRectF>
#include <QtCore/QString>

#include "timeline/TimelineTypes.h"

namespace rvscope::ui {

class TimelineData;
struct TimelineStyle;

// What lies under a point: an operation (client lanes, or the write behind a revision dot)
// and, on an object lane, the revision.
struct TimelineHit final {
    int operation = -1;
    int objectLane = -1;
    int revision = -1; // index into that lane's revisions
    bool empty() const { return operation < 0 && revision < 0; }
};

struct TimelineTick final {
    double x = 0;
    QString label;
};

// Where things are on screen for one view state: a ruler on top, a gutter of lane names on
// the left and the lanes (an "Objects" header, one lane per object, a "Clients" header, one
// lane per client) scrolled vertically by yScroll. On the x axis a raw value (a
// resourceVersion, or monotonic ns on the time axis) maps to
// plot().left() + (raw - origin - x0) * pixelsPerUnit. Cheap to copy; no Qt objects.
struct TimelineGeometry final {
    TimelineGeometry(const QRectF &area, const TimelineStyle &style, TimelineAxis axis, int objectLanes,
                     int clientLanes);

    QRectF area;
    TimelineAxis axis = TimelineAxis::ResourceVersion;
    qint64 origin = 0; // 0 on the RV axis; the first operation's start on the time axis
    double x0 = 0;
    double pixelsPerUnit = 1;
    double yScroll = 0;
    int objectLanes = 0;
    int clientLanes = 0;
    double laneHeight = 0;
    double headerHeight = 0;
    double rulerHeight = 0;
    double gutterWidth = 0;
    double markerRadius = 0;

    QRectF plot() const;
    double xOf(qint64 raw) const { return plot().left() + (double(raw - origin) - x0) * pixelsPerUnit; }
    double rawAt(double x) const { return double(origin) + x0 + (x - plot().left()) / pixelsPerUnit; }
    // The raw values at the plot's edges, widened by `marginPx` pixels each side.
    qint64 visibleLow(double marginPx = 0) const;
    qint64 visibleHigh(double marginPx = 0) const;

    double contentHeight() const;
    double objectHeaderTop() const;
    double clientHeaderTop() const;
    double objectLaneCenter(int lane) const;
    double clientLaneCenter(int lane) const;
    // The watch overlay's rows: below an object lane's revisions, and (BOOKMARK, ERROR) in
    // the middle of the objects' header band.
    double deliveryY(int objectLane) const { return objectLaneCenter(objectLane) + laneHeight * 0.3; }
    double keylessDeliveryY() const { return objectHeaderTop() + headerHeight / 2; }

    // The x of an operation's mark: its rvPosition, or on the time axis its end (start while pending).
    double markX(const TimelineOperation &op) const;
    // The y of its mark: the lane's centre, a little lower for a stacked mark on the RV axis.
    double markY(const TimelineOperation &op) const;
    QPointF markPoint(const TimelineOperation &op) const;
    double revisionX(const TimelineRevision &revision) const;

    TimelineHit hitTest(const TimelineData &data, const QPointF &point) const;
    // Ruler ticks at a 1-2-5 step at least `minSpacingPx` apart, with labels.
    std::vector<TimelineTick> ticks(double minSpacingPx) const;

private:
    int clientOperationAt(const TimelineData &data, int lane, const QPointF &point, double tolerance) const;
};

} // namespace rvscope::ui
