// SPDX-License-Identifier: MIT
// The timeline's frame around the lanes: grid, section headers, the gutter of lane names and
// the ruler. Marks and lanes are in TimelinePainter.cpp.
#include "timeline/TimelinePainter.h"

#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>

#include "timeline/TimelineData.h"
#include "timeline/TimelinePainter_p.h"
#include "timeline/TimelineWatchOverlay.h"

namespace rvscope::ui {
using namespace TimelinePainterPrivate;

void TimelinePainter::paintGrid(const std::vector<TimelineTick> &ticks)
{
    const QRectF plot = m_geometry.plot();
    m_painter.setRenderHint(QPainter::Antialiasing, false);
    m_painter.setPen(pen(m_style.grid, 1));
    for (const TimelineTick &tick : ticks)
        m_painter.drawLine(QLineF(tick.x, plot.top(), tick.x, plot.bottom()));
    for (double top : {m_geometry.objectHeaderTop(), m_geometry.clientHeaderTop()}) {
        m_painter.fillRect(QRectF(plot.left(), top, plot.width(), m_geometry.headerHeight), m_style.gutter);
        m_painter.setPen(pen(m_style.laneLine, 1));
        m_painter.drawLine(QLineF(plot.left(), top, plot.right(), top));
    }
    m_painter.setPen(pen(m_style.grid, 1));
    for (int lane = 0; lane < m_geometry.clientLanes; ++lane) {
        const double y = m_geometry.clientLaneCenter(lane);
        if (laneVisible(y))
            m_painter.drawLine(QLineF(plot.left(), y, plot.right(), y));
    }
}

void TimelinePainter::paintGutter()
{
    const QRectF plot = m_geometry.plot();
    const QRectF gutter(m_geometry.area.left(), plot.top(), m_geometry.gutterWidth, plot.height());
    m_painter.setRenderHint(QPainter::Antialiasing, false);
    m_painter.setClipRect(gutter);
    m_painter.fillRect(gutter, m_style.gutter);
    m_painter.setPen(pen(m_style.laneLine, 1));
    m_painter.drawLine(QLineF(gutter.right(), gutter.top(), gutter.right(), gutter.bottom()));

    const double padding = 8 * m_style.scale;
    const double textWidth = gutter.width() - 2 * padding;
    const QFontMetricsF labelMetrics(m_style.labelFont);
    const QFontMetricsF detailMetrics(m_style.detailFont);
    const QFontMetricsF headerMetrics(m_style.headerFont);
    auto paintHeader = [&](double top, const QString &title) {
        m_painter.setPen(pen(m_style.laneLine, 1));
        m_painter.drawLine(QLineF(gutter.left(), top, gutter.right(), top));
        m_painter.setFont(m_style.headerFont);
        m_painter.setPen(m_style.mutedText);
        const double baseline = top + (m_geometry.headerHeight + headerMetrics.ascent() - headerMetrics.descent()) / 2;
        m_painter.drawText(QPointF(gutter.left() + padding, baseline), title);
    };
    auto paintLane = [&](double centerY, const TimelineLane &lane) {
        if (!laneVisible(centerY))
            return;
        const bool twoLines = !lane.detail.isEmpty();
        const double labelBaseline = twoLines ? centerY - 1 * m_style.scale : centerY + labelMetrics.ascent() / 2 - 1;
        m_painter.setFont(m_style.labelFont);
        m_painter.setPen(m_style.text);
        m_painter.drawText(QPointF(gutter.left() + padding, labelBaseline),
                           labelMetrics.elidedText(lane.label, Qt::ElideMiddle, textWidth));
        if (twoLines) {
            m_painter.setFont(m_style.detailFont);
            m_painter.setPen(m_style.mutedText);
            m_painter.drawText(QPointF(gutter.left() + padding, labelBaseline + detailMetrics.height()),
                               detailMetrics.elidedText(lane.detail, Qt::ElideRight, textWidth));
        }
    };
    paintHeader(m_geometry.objectHeaderTop(), QStringLiteral("OBJECTS"));
    if (m_overlay && m_overlay->active()) {
        // Whose deliveries the diamonds are.
        const double top = m_geometry.objectHeaderTop();
        const double left = gutter.left() + padding + headerMetrics.horizontalAdvance(QStringLiteral("OBJECTS ")) + 4 * m_style.scale;
        const double baseline = top + (m_geometry.headerHeight + headerMetrics.ascent() - headerMetrics.descent()) / 2;
        m_painter.setFont(m_style.headerFont);
        m_painter.setPen(m_style.watch);
        m_painter.drawText(QPointF(left, baseline),
                           headerMetrics.elidedText(QStringLiteral("\u25C6 ") + m_overlay->watcherId(), Qt::ElideMiddle,
                                                    gutter.right() - left - padding / 2));
    }
    for (int lane = 0; lane < m_geometry.objectLanes; ++lane)
        paintLane(m_geometry.objectLaneCenter(lane), m_data.objectLanes()[std::size_t(lane)]);
    paintHeader(m_geometry.clientHeaderTop(), QStringLiteral("CLIENTS"));
    for (int lane = 0; lane < m_geometry.clientLanes; ++lane)
        paintLane(m_geometry.clientLaneCenter(lane), m_data.clientLanes()[std::size_t(lane)]);
    paintLegend(gutter);
    m_painter.setClipping(false);
}

void TimelinePainter::paintRuler(const std::vector<TimelineTick> &ticks)
{
    const QRectF area = m_geometry.area;
    const QRectF ruler(area.left(), area.top(), area.width(), m_geometry.rulerHeight);
    m_painter.setRenderHint(QPainter::Antialiasing, false);
    m_painter.fillRect(ruler, m_style.gutter);
    m_painter.setPen(pen(m_style.laneLine, 1));
    m_painter.drawLine(QLineF(ruler.left(), ruler.bottom(), ruler.right(), ruler.bottom()));

    const QFontMetricsF metrics(m_style.markFont);
    const double baseline = ruler.top() + (ruler.height() + metrics.ascent() - metrics.descent()) / 2 - 2 * m_style.scale;
    m_painter.setFont(m_style.markFont);
    const double plotLeft = m_geometry.plot().left();
    m_painter.setClipRect(QRectF(plotLeft, ruler.top(), ruler.right() - plotLeft, ruler.height()));
    for (const TimelineTick &tick : ticks) {
        m_painter.setPen(pen(m_style.mutedText, 1));
        m_painter.drawLine(QLineF(tick.x, ruler.bottom() - 5 * m_style.scale, tick.x, ruler.bottom()));
        m_painter.setPen(m_style.text);
        m_painter.drawText(QPointF(tick.x + 3 * m_style.scale, baseline), tick.label);
    }
    m_painter.setClipping(false);
    m_painter.setPen(m_style.mutedText);
    const QString title = m_geometry.axis == TimelineAxis::ResourceVersion ? QStringLiteral("resourceVersion \u2192")
                                                                           : QStringLiteral("time \u2192");
    m_painter.drawText(QPointF(area.left() + 8 * m_style.scale, baseline), title);
}

} // namespace rvscope::ui
