// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QLineF>
#include <QtCore/QPointF>
#include <QtGui/QBrush>
#include <QtGui/QPen>

#include "timeline/TimelineGeometry.h"
#include "timeline/TimelineStyle.h"
#include "timeline/TimelineTypes.h"

class QPainter;

namespace rvscope::ui {

class TimelineData;
class TimelineWatchOverlay;
struct TimelineDelivery;
struct TimelineDeliveryGroup;
struct WatchGapRange;

// Paints one frame of the timeline (UI.md "Timeline visual grammar") onto any QPainter: the
// widget, an image for export, a benchmark. Only what is inside the plot is visited (binary
// search in each lane's sorted indices), and a lane with more visible operations than about
// one per 5 pixels is drawn as one bar per pixel column coloured by its most severe
// outcome (lost update > conflict > error > success), so conflicts never vanish when zoomed
// out and a frame costs O(visible operations + width), not O(marks).
class TimelinePainter final {
public:
    TimelinePainter(QPainter &painter, const TimelineData &data, const TimelineGeometry &geometry,
                    const TimelineStyle &style);

    // The operation to highlight (an index into data), -1: none.
    void setSelectedOperation(int index) { m_selected = index; }
    // The watch overlay to draw over the object lanes (nullptr or inactive: none).
    void setWatchOverlay(const TimelineWatchOverlay *overlay) { m_overlay = overlay; }
    // What an empty timeline says (defaultEmptyText() unless set).
    void setEmptyText(const QString &text) { m_emptyText = text; }
    static QString defaultEmptyText();
    // Paints the frame and reports what it drew.
    TimelinePaintStats paint();

private:
    void paintGrid(const std::vector<TimelineTick> &ticks);
    void paintObjectLane(int lane);
    void paintObjectLaneAggregated(int lane, const std::vector<int> &visible);
    void paintClientLane(int lane);
    void paintClientLaneAggregated(const std::vector<int> &visible, double centerY);
    void paintConnections(const TimelineOperation &op, double centerY);
    void paintMark(const TimelineOperation &op);
    void paintShape(MarkerKind kind, const QPointF &at, double radius);
    void paintCasTicks(const TimelineOperation &op, const QPointF &at);
    // One path per arrow: stroking many curves as one big path is slower in the raster engine.
    void paintArrow(const QPointF &from, const QPointF &to, const QColor &colour, double width);
    void paintSelection();
    // The watch overlay (TimelinePainterWatch.cpp): diamonds per delivery, gaps found from
    // the visible revisions, per-pixel columns when a row is too dense.
    void paintWatchOverlay();
    void paintDeliveries(const TimelineDeliveryGroup &group, double y);
    void paintDelivery(const TimelineDelivery &delivery, const QPointF &at);
    void paintGaps(int lane, const TimelineDeliveryGroup *group, const WatchGapRange &range, double y);
    void paintDiamond(const QPointF &at, double r, const QPen &outline, const QBrush &fill);
    void paintGutter();
    void paintLegend(const QRectF &gutter);
    void paintRuler(const std::vector<TimelineTick> &ticks);
    void count(MarkerKind kind, int n = 1) { m_stats.markers[std::size_t(kind)] += n; }
    bool laneVisible(double centerY) const;

    QPainter &m_painter;
    const TimelineData &m_data;
    const TimelineGeometry &m_geometry;
    const TimelineStyle &m_style;
    int m_selected = -1;
    const TimelineWatchOverlay *m_overlay = nullptr;
    QString m_emptyText = defaultEmptyText();
    TimelinePaintStats m_stats;
    std::vector<int> m_visible; // reused per lane
    std::vector<QLineF> m_columnLines[4];
};

} // namespace rvscope::ui
