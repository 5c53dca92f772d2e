// SPDX-License-Identifier: MIT
// The watch overlay (UI.md "Watch overlay"): for the selected watcher, a diamond under each
// revision it received on the object's lane (BOOKMARK and ERROR events, which name no
// object, in the objects' header band); duplicates, steps backwards and the closing ERROR in
// red; a revision it should have received and did not (a gap) as a hollow red diamond. Like
// the lanes, only what is visible is visited, and a row denser than one delivery per few
// pixels is drawn as per-pixel columns (red where any is flagged).
#include "timeline/TimelinePainter.h"

#include <algorithm>

#include <QtGui/QPainter>

#include "timeline/TimelineData.h"
#include "timeline/TimelinePainter_p.h"
#include "timeline/TimelineWatchOverlay.h"

namespace rvscope::ui {
using namespace TimelinePainterPrivate;

namespace {
constexpr double MIN_PIXELS_PER_DELIVERY = 4;
} // namespace

void TimelinePainter::paintWatchOverlay()
{
    const TimelineWatchOverlay &overlay = *m_overlay;
    const WatchGapRange gaps = overlay.gapRange(m_data);
    for (int lane = 0; lane < m_geometry.objectLanes; ++lane) {
        if (!laneVisible(m_geometry.objectLaneCenter(lane)))
            continue;
        const TimelineLane &objectLane = m_data.objectLanes()[std::size_t(lane)];
        const TimelineDeliveryGroup *group = overlay.groupOf(objectLane.name);
        const double y = m_geometry.deliveryY(lane);
        if (gaps.valid() && objectLane.name.startsWith(gaps.prefix))
            paintGaps(lane, group, gaps, y);
        if (group)
            paintDeliveries(*group, y);
    }
    const double headerY = m_geometry.keylessDeliveryY();
    if (headerY >= m_geometry.plot().top() && headerY <= m_geometry.plot().bottom())
        paintDeliveries(overlay.keylessGroup(), headerY);
}

void TimelinePainter::paintDeliveries(const TimelineDeliveryGroup &group, double y)
{
    const TimelineWatchOverlay &overlay = *m_overlay;
    const bool rvAxis = m_geometry.axis == TimelineAxis::ResourceVersion;
    const std::vector<int> &ordered = rvAxis ? group.byRv : group.byTime;
    const auto position = [&overlay, rvAxis](int index) {
        const TimelineDelivery &delivery = overlay.delivery(index);
        return rvAxis ? delivery.rvPosition : delivery.timeNs;
    };
    const double margin = 2 * m_geometry.markerRadius;
    const qint64 low = m_geometry.visibleLow(margin);
    const qint64 high = m_geometry.visibleHigh(margin);
    auto first = std::lower_bound(ordered.begin(), ordered.end(), low,
                                  [&position](int index, qint64 value) { return position(index) < value; });
    auto last = std::upper_bound(first, ordered.end(), high,
                                 [&position](qint64 value, int index) { return value < position(index); });
    const auto visible = std::size_t(last - first);
    if (visible == 0)
        return;
    const QRectF plot = m_geometry.plot();
    if (double(visible) * MIN_PIXELS_PER_DELIVERY <= plot.width()) {
        m_painter.setRenderHint(QPainter::Antialiasing, true);
        for (auto it = first; it != last; ++it) {
            const TimelineDelivery &delivery = overlay.delivery(*it);
            paintDelivery(delivery, QPointF(m_geometry.xOf(position(*it)), y));
        }
        return;
    }
    std::vector<quint8> columns(std::size_t(plot.width()) + 1, 0); // 1: delivered, 2: flagged
    for (auto it = first; it != last; ++it) {
        const TimelineDelivery &delivery = overlay.delivery(*it);
        const double column = m_geometry.xOf(position(*it)) - plot.left();
        if (column < 0 || column >= double(columns.size()))
            continue;
        quint8 &cell = columns[std::size_t(column)];
        cell = std::max<quint8>(cell, delivery.flagged() ? 2 : 1);
        ++m_stats.aggregatedOperations[std::size_t(delivery.flagged() ? MarkerKind::WatchFlagged : MarkerKind::WatchDelivery)];
    }
    const double half = m_geometry.markerRadius * 0.8;
    for (auto &lines : m_columnLines)
        lines.clear();
    for (std::size_t x = 0; x < columns.size(); ++x) {
        if (columns[x] == 0)
            continue;
        const double px = plot.left() + double(x) + 0.5;
        m_columnLines[columns[x] - 1].emplace_back(px, y - half, px, y + half);
        ++m_stats.aggregatedColumns;
    }
    m_stats.levelOfDetail = true;
    m_painter.setRenderHint(QPainter::Antialiasing, false);
    m_painter.setPen(pen(m_style.watch, 1));
    m_painter.drawLines(m_columnLines[0].data(), int(m_columnLines[0].size()));
    m_painter.setPen(pen(m_style.watchAlarm, 1));
    m_painter.drawLines(m_columnLines[1].data(), int(m_columnLines[1].size()));
}

void TimelinePainter::paintDelivery(const TimelineDelivery &delivery, const QPointF &at)
{
    const double r = m_geometry.markerRadius;
    const double s = m_style.scale;
    if (delivery.flag == DeliveryFlag::Error) {
        // Larger, crossed: the stream ended here.
        const double big = r * 1.5;
        paintDiamond(at, big, pen(m_style.background, 1), m_style.watchAlarm);
        m_painter.setPen(pen(m_style.background, 1.6 * s));
        const double c = big * 0.38;
        m_painter.drawLine(QLineF(at.x() - c, at.y() - c, at.x() + c, at.y() + c));
        m_painter.drawLine(QLineF(at.x() - c, at.y() + c, at.x() + c, at.y() - c));
        count(MarkerKind::WatchFlagged);
        return;
    }
    if (delivery.flagged()) {
        paintShape(MarkerKind::WatchFlagged, at, r);
        count(MarkerKind::WatchFlagged);
        return;
    }
    if (m_overlay->text(delivery.typeText) == QLatin1String("BOOKMARK"))
        paintDiamond(at, r * 0.9, pen(m_style.watch, 1.4 * s), m_style.background);
    else
        paintShape(MarkerKind::WatchDelivery, at, r);
    count(MarkerKind::WatchDelivery);
}

void TimelinePainter::paintGaps(int lane, const TimelineDeliveryGroup *group, const WatchGapRange &range, double y)
{
    const auto &revisions = m_data.objectLanes()[std::size_t(lane)].revisions;
    const auto byRv = [](const TimelineRevision &r, qint64 value) { return r.rv < value; };
    // Only revisions the watcher owed: committed by a journaled write inside its range.
    auto first = std::lower_bound(revisions.begin(), revisions.end(), range.floor + 1, byRv);
    auto last = std::lower_bound(first, revisions.end(), range.ceiling + 1, byRv);
    const bool rvAxis = m_geometry.axis == TimelineAxis::ResourceVersion;
    if (rvAxis) {
        first = std::lower_bound(first, last, m_geometry.visibleLow(2 * m_geometry.markerRadius), byRv);
        last = std::lower_bound(first, last, m_geometry.visibleHigh(2 * m_geometry.markerRadius) + 1, byRv);
    }
    const qint64 low = m_geometry.visibleLow(2 * m_geometry.markerRadius);
    const qint64 high = m_geometry.visibleHigh(2 * m_geometry.markerRadius);
    m_visible.clear();
    for (auto it = first; it != last; ++it) {
        if (it->operation < 0 || (group && group->delivered(it->rv)))
            continue;
        if (!rvAxis && (it->timeNs < low || it->timeNs > high))
            continue;
        m_visible.push_back(int(it - revisions.begin()));
    }
    if (m_visible.empty())
        return;
    const QRectF plot = m_geometry.plot();
    if (double(m_visible.size()) * MIN_PIXELS_PER_DELIVERY > plot.width()) {
        std::vector<bool> columns(std::size_t(plot.width()) + 1, false);
        for (int index : m_visible) {
            const double column = m_geometry.revisionX(revisions[std::size_t(index)]) - plot.left();
            if (column >= 0 && column < double(columns.size()))
                columns[std::size_t(column)] = true;
            ++m_stats.aggregatedOperations[std::size_t(MarkerKind::WatchGap)];
        }
        m_columnLines[0].clear();
        const double half = m_geometry.markerRadius;
        for (std::size_t x = 0; x < columns.size(); ++x) {
            if (columns[x]) {
                const double px = plot.left() + double(x) + 0.5;
                m_columnLines[0].emplace_back(px, y - half, px, y + half);
                ++m_stats.aggregatedColumns;
            }
        }
        m_stats.levelOfDetail = true;
        m_painter.setRenderHint(QPainter::Antialiasing, false);
        m_painter.setPen(pen(m_style.watchAlarm, 1));
        m_painter.drawLines(m_columnLines[0].data(), int(m_columnLines[0].size()));
        return;
    }
    m_painter.setRenderHint(QPainter::Antialiasing, true);
    for (int index : m_visible) {
        paintShape(MarkerKind::WatchGap, QPointF(m_geometry.revisionX(revisions[std::size_t(index)]), y),
                   m_geometry.markerRadius);
        count(MarkerKind::WatchGap);
    }
}

void TimelinePainter::paintDiamond(const QPointF &at, double r, const QPen &outline, const QBrush &fill)
{
    const QPointF diamond[] = {{at.x(), at.y() - r}, {at.x() + r, at.y()}, {at.x(), at.y() + r}, {at.x() - r, at.y()}};
    m_painter.setPen(outline);
    m_painter.setBrush(fill);
    m_painter.drawPolygon(diamond, 4);
}

} // namespace rvscope::ui
