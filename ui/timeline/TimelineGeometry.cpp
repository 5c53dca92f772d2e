// SPDX-License-Identifier: MIT
#include "timeline/TimelineGeometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "timeline/TimelineData.h"
#include "timeline/TimelineStyle.h"
#include "timeline/TimelineText.h"

namespace rvscope::ui {
namespace {
// Clamped so that a far zoom-out never overflows qint64.
qint64 toRaw(double value)
{
    constexpr double LIMIT = 4e18;
    return qint64(std::clamp(value, -LIMIT, LIMIT));
}
} // namespace

TimelineGeometry::TimelineGeometry(const QRectF &area, const TimelineStyle &style, TimelineAxis axis,
                                   int objectLanes, int clientLanes)
    : area(area)
    , axis(axis)
    , objectLanes(objectLanes)
    , clientLanes(clientLanes)
    , laneHeight(style.laneHeight)
    , headerHeight(style.headerHeight)
    , rulerHeight(style.rulerHeight)
    , gutterWidth(std::min(style.gutterWidth, area.width() * 0.4))
    , markerRadius(style.markerRadius)
{
}

QRectF TimelineGeometry::plot() const
{
    return QRectF(area.left() + gutterWidth, area.top() + rulerHeight, std::max(1.0, area.width() - gutterWidth),
                  std::max(1.0, area.height() - rulerHeight));
}

qint64 TimelineGeometry::visibleLow(double marginPx) const
{
    return toRaw(std::floor(rawAt(plot().left() - marginPx)));
}

qint64 TimelineGeometry::visibleHigh(double marginPx) const
{
    return toRaw(std::ceil(rawAt(plot().right() + marginPx)));
}

double TimelineGeometry::contentHeight() const
{
    return 2 * headerHeight + (objectLanes + clientLanes) * laneHeight + laneHeight * 0.25;
}

double TimelineGeometry::objectHeaderTop() const
{
    return plot().top() - yScroll;
}

double TimelineGeometry::clientHeaderTop() const
{
    return objectHeaderTop() + headerHeight + objectLanes * laneHeight;
}

double TimelineGeometry::objectLaneCenter(int lane) const
{
    return objectHeaderTop() + headerHeight + (lane + 0.5) * laneHeight;
}

double TimelineGeometry::clientLaneCenter(int lane) const
{
    return clientHeaderTop() + headerHeight + (lane + 0.5) * laneHeight;
}

double TimelineGeometry::markX(const TimelineOperation &op) const
{
    return xOf(axis == TimelineAxis::ResourceVersion ? op.rvPosition : op.drawnEndNs());
}

double TimelineGeometry::markY(const TimelineOperation &op) const
{
    if (op.clientLane < 0) // a remote write: its revision's dot on the object lane
        return objectLaneCenter(op.objectLane);
    const double center = clientLaneCenter(op.clientLane);
    if (axis != TimelineAxis::ResourceVersion || op.stackSlot == 0)
        return center;
    // The second mark below the first, the third above; further ones share those rows.
    return center + laneHeight * (op.stackSlot % 2 == 1 ? 0.28 : -0.28);
}

QPointF TimelineGeometry::markPoint(const TimelineOperation &op) const
{
    return QPointF(markX(op), markY(op));
}

double TimelineGeometry::revisionX(const TimelineRevision &revision) const
{
    return xOf(axis == TimelineAxis::ResourceVersion ? revision.rv : revision.timeNs);
}

TimelineHit TimelineGeometry::hitTest(const TimelineData &data, const QPointF &point) const
{
    TimelineHit hit;
    if (!plot().contains(point))
        return hit;
    const double tolerance = std::max(markerRadius + 3, 7.0);
    const double laneOffset = point.y() - clientHeaderTop() - headerHeight;
    if (laneOffset >= 0) {
        const int lane = int(laneOffset / laneHeight);
        if (lane < clientLanes)
            hit.operation = clientOperationAt(data, lane, point, tolerance);
        return hit;
    }
    const double objectOffset = point.y() - objectHeaderTop() - headerHeight;
    const int lane = objectOffset >= 0 ? int(objectOffset / laneHeight) : -1;
    if (lane < 0 || lane >= objectLanes || std::abs(point.y() - objectLaneCenter(lane)) > tolerance)
        return hit;
    const auto &revisions = data.objectLanes()[std::size_t(lane)].revisions;
    double best = tolerance;
    for (std::size_t i = 0; i < revisions.size(); ++i) {
        const double distance = std::abs(revisionX(revisions[i]) - point.x());
        if (distance <= best) {
            best = distance;
            hit.objectLane = lane;
            hit.revision = int(i);
            hit.operation = revisions[i].operation;
        }
    }
    return hit;
}

int TimelineGeometry::clientOperationAt(const TimelineData &data, int lane, const QPointF &point,
                                        double tolerance) const
{
    const TimelineLane &clientLane = data.clientLanes()[std::size_t(lane)];
    const bool rvAxis = axis == TimelineAxis::ResourceVersion;
    const std::vector<int> &ordered = rvAxis ? clientLane.byRv : clientLane.byTime;
    const qint64 span = rvAxis ? clientLane.maxRvSpan : clientLane.maxDurationNs;
    const qint64 low = toRaw(std::floor(rawAt(point.x() - tolerance)));
    const qint64 high = toRaw(std::ceil(rawAt(point.x() + tolerance)));
    auto key = [&](int index) {
        const TimelineOperation &op = data.operation(index);
        return rvAxis ? op.rvHigh() : op.drawnEndNs();
    };
    auto first = std::lower_bound(ordered.begin(), ordered.end(), low,
                                  [&key](int index, qint64 value) { return key(index) < value; });
    const double centerY = clientLaneCenter(lane);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (auto it = first; it != ordered.end() && key(*it) <= high + span; ++it) {
        const TimelineOperation &op = data.operation(*it);
        const QPointF mark = markPoint(op);
        double distance = std::hypot(mark.x() - point.x(), mark.y() - point.y());
        // On the time axis the whole bar from invocation to response is the operation.
        if (!rvAxis && distance > tolerance && std::abs(point.y() - centerY) <= tolerance
            && point.x() >= xOf(op.startNs) && point.x() <= mark.x())
            distance = tolerance;
        if (distance <= tolerance && distance <= bestDistance) {
            best = *it;
            bestDistance = distance;
        }
    }
    return best;
}

std::vector<TimelineTick> TimelineGeometry::ticks(double minSpacingPx) const
{
    std::vector<TimelineTick> result;
    const double rawStep = minSpacingPx / pixelsPerUnit;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rawStep)));
    double step = magnitude;
    for (double factor : {1.0, 2.0, 5.0, 10.0}) {
        step = magnitude * factor;
        if (step >= rawStep)
            break;
    }
    if (axis == TimelineAxis::ResourceVersion)
        step = std::max(1.0, std::round(step));
    const double first = std::ceil((rawAt(plot().left()) - double(origin)) / step) * step;
    const double last = rawAt(plot().right()) - double(origin);
    for (double value = first; value <= last && result.size() < 1000; value += step) {
        TimelineTick tick;
        tick.x = plot().left() + (value - x0) * pixelsPerUnit;
        tick.label = axis == TimelineAxis::ResourceVersion ? QString::number(qint64(value) + origin)
                                                           : TimelineText::timeOffset(value, step);
        result.push_back(std::move(tick));
    }
    return result;
}

} // namespace rvscope::ui
