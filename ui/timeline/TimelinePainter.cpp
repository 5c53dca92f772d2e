// SPDX-License-Identifier: MIT
#include "timeline/TimelinePainter.h"

#include <algorithm>
#include <cmath>

#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

#include "timeline/TimelineData.h"
#include "timeline/TimelinePainter_p.h"
#include "timeline/TimelineWatchOverlay.h"

namespace rvscope::ui {
using namespace TimelinePainterPrivate;

namespace {
// Below this many pixels per visible operation a lane is aggregated per pixel column.
constexpr double MIN_PIXELS_PER_OPERATION = 5;
constexpr double MIN_PIXELS_PER_REVISION = 4.0;

enum Severity : int { SEVERITY_OK = 0, SEVERITY_ERROR, SEVERITY_CONFLICT, SEVERITY_LOST };

Severity severityOf(const TimelineOperation &op)
{
    if (op.lostUpdate())
        return SEVERITY_LOST;
    if (op.outcome == TimelineOutcome::Conflict || op.outcome == TimelineOutcome::OwnershipConflict)
        return SEVERITY_CONFLICT;
    if (op.outcome == TimelineOutcome::Error)
        return SEVERITY_ERROR;
    return SEVERITY_OK;
}

} // namespace

TimelinePainter::TimelinePainter(QPainter &painter, const TimelineData &data, const TimelineGeometry &geometry,
                                 const TimelineStyle &style)
    : m_painter(painter)
    , m_data(data)
    , m_geometry(geometry)
    , m_style(style)
{
}

QString TimelinePainter::defaultEmptyText()
{
    return QStringLiteral("No operations yet: play a scenario or launch clients");
}

TimelinePaintStats TimelinePainter::paint()
{
    m_stats = TimelinePaintStats();
    m_painter.save();
    m_painter.fillRect(m_geometry.area, m_style.background);
    const std::vector<TimelineTick> ticks = m_geometry.ticks(90 * m_style.scale);
    if (m_data.empty()) {
        m_painter.setPen(m_style.mutedText);
        m_painter.setFont(m_style.labelFont);
        m_painter.drawText(m_geometry.area.adjusted(12, 0, -12, 0), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        m_painter.restore();
        return m_stats;
    }
    m_painter.setClipRect(m_geometry.plot());
    paintGrid(ticks);
    for (int lane = 0; lane < m_geometry.objectLanes; ++lane)
        paintObjectLane(lane);
    for (int lane = 0; lane < m_geometry.clientLanes; ++lane)
        paintClientLane(lane);
    if (m_overlay && m_overlay->active())
        paintWatchOverlay();
    paintSelection();
    m_painter.setClipping(false);
    paintGutter();
    paintRuler(ticks);
    m_painter.restore();
    return m_stats;
}

bool TimelinePainter::laneVisible(double centerY) const
{
    const QRectF plot = m_geometry.plot();
    const double half = m_geometry.laneHeight / 2;
    return centerY + half >= plot.top() && centerY - half <= plot.bottom();
}

void TimelinePainter::paintObjectLane(int lane)
{
    const double y = m_geometry.objectLaneCenter(lane);
    if (!laneVisible(y))
        return;
    ++m_stats.lanesPainted;
    const auto &revisions = m_data.objectLanes()[std::size_t(lane)].revisions;
    if (revisions.empty())
        return;
    const double margin = 40 * m_style.scale;
    m_visible.clear();
    if (m_geometry.axis == TimelineAxis::ResourceVersion) {
        auto byRv = [](const TimelineRevision &r, qint64 value) { return r.rv < value; };
        auto first = std::lower_bound(revisions.begin(), revisions.end(), m_geometry.visibleLow(margin), byRv);
        auto last = std::lower_bound(first, revisions.end(), m_geometry.visibleHigh(margin) + 1, byRv);
        for (auto it = first; it != last; ++it)
            m_visible.push_back(int(it - revisions.begin()));
    } else {
        // Commit times are nearly, not strictly, ordered by revision: scan (cheap, no marks).
        const qint64 low = m_geometry.visibleLow(margin);
        const qint64 high = m_geometry.visibleHigh(margin);
        for (std::size_t i = 0; i < revisions.size(); ++i)
            if (revisions[i].timeNs >= low && revisions[i].timeNs <= high)
                m_visible.push_back(int(i));
    }
    // The object's life line, from its first to its last known revision.
    m_painter.setRenderHint(QPainter::Antialiasing, false);
    m_painter.setPen(pen(m_style.laneLine, 2 * m_style.scale));
    m_painter.drawLine(QLineF(m_geometry.revisionX(revisions.front()), y, m_geometry.revisionX(revisions.back()), y));
    if (m_visible.size() * MIN_PIXELS_PER_REVISION > m_geometry.plot().width()) {
        paintObjectLaneAggregated(lane, m_visible);
        return;
    }
    m_painter.setRenderHint(QPainter::Antialiasing, true);
    m_painter.setFont(m_style.markFont);
    const QFontMetricsF metrics(m_style.markFont);
    const double r = m_geometry.markerRadius * 0.9;
    double labelRight = -1e9;
    for (int index : m_visible) {
        const TimelineRevision &revision = revisions[std::size_t(index)];
        const QPointF at(m_geometry.revisionX(revision), y);
        if (revision.overwrittenUnseen) {
            m_painter.setPen(pen(m_style.lost, 2 * m_style.scale));
            m_painter.setBrush(Qt::NoBrush);
            m_painter.drawEllipse(at, r + 3 * m_style.scale, r + 3 * m_style.scale);
        }
        if (revision.operation >= 0 && m_data.operation(revision.operation).remote) {
            // Written by another instance, arrived by watch (UI.md): a ring in its colour.
            paintShape(MarkerKind::Remote, at, m_geometry.markerRadius);
            count(MarkerKind::Remote);
        } else {
            m_painter.setPen(pen(m_style.revision, 1.5 * m_style.scale));
            m_painter.setBrush(revision.operation >= 0 ? QBrush(m_style.revision) : QBrush(m_style.background));
            m_painter.drawEllipse(at, r, r);
            count(MarkerKind::Revision);
        }
        const QString label = QString::number(revision.rv);
        const double width = metrics.horizontalAdvance(label);
        if (at.x() - width / 2 > labelRight + 4 * m_style.scale) {
            m_painter.setPen(revision.overwrittenUnseen ? m_style.lost : m_style.text);
            m_painter.drawText(QPointF(at.x() - width / 2, y - r - 4 * m_style.scale - metrics.descent()), label);
            labelRight = at.x() + width / 2;
        }
    }
}

void TimelinePainter::paintObjectLaneAggregated(int lane, const std::vector<int> &visible)
{
    const auto &revisions = m_data.objectLanes()[std::size_t(lane)].revisions;
    const QRectF plot = m_geometry.plot();
    const double y = m_geometry.objectLaneCenter(lane);
    const double half = m_geometry.laneHeight * 0.22;
    std::vector<quint8> columns(std::size_t(plot.width()) + 1, 0); // 1: revision, 2: a lost one
    for (int index : visible) {
        const TimelineRevision &revision = revisions[std::size_t(index)];
        const double column = m_geometry.revisionX(revision) - plot.left();
        if (column < 0 || column >= double(columns.size()))
            continue;
        quint8 &cell = columns[std::size_t(column)];
        cell = std::max<quint8>(cell, revision.overwrittenUnseen ? 2 : 1);
        ++m_stats.aggregatedOperations[std::size_t(MarkerKind::Revision)];
    }
    m_columnLines[0].clear();
    m_columnLines[1].clear();
    for (std::size_t x = 0; x < columns.size(); ++x) {
        if (columns[x] == 0)
            continue;
        const double px = plot.left() + double(x) + 0.5;
        m_columnLines[columns[x] - 1].emplace_back(px, y - half, px, y + half);
        ++m_stats.aggregatedColumns;
    }
    m_stats.levelOfDetail = true;
    m_painter.setPen(pen(m_style.revision, 1));
    m_painter.drawLines(m_columnLines[0].data(), int(m_columnLines[0].size()));
    m_painter.setPen(pen(m_style.lost, 1));
    m_painter.drawLines(m_columnLines[1].data(), int(m_columnLines[1].size()));
}

void TimelinePainter::paintClientLane(int lane)
{
    const double y = m_geometry.clientLaneCenter(lane);
    if (!laneVisible(y))
        return;
    ++m_stats.lanesPainted;
    const TimelineLane &clientLane = m_data.clientLanes()[std::size_t(lane)];
    const bool rvAxis = m_geometry.axis == TimelineAxis::ResourceVersion;
    const std::vector<int> &ordered = rvAxis ? clientLane.byRv : clientLane.byTime;
    const qint64 span = rvAxis ? clientLane.maxRvSpan : clientLane.maxDurationNs;
    const double margin = 3 * m_geometry.markerRadius;
    const qint64 low = m_geometry.visibleLow(margin);
    const qint64 high = m_geometry.visibleHigh(margin);
    // An operation is visible when [its low end, its high end] meets [low, high]; lanes are
    // sorted by the high end, and no operation spans more than `span`.
    auto highEnd = [&](int index) {
        const TimelineOperation &op = m_data.operation(index);
        return rvAxis ? op.rvHigh() : op.drawnEndNs();
    };
    auto first = std::lower_bound(ordered.begin(), ordered.end(), low,
                                  [&highEnd](int index, qint64 value) { return highEnd(index) < value; });
    m_visible.clear();
    for (auto it = first; it != ordered.end(); ++it) {
        const TimelineOperation &op = m_data.operation(*it);
        const qint64 opHigh = highEnd(*it);
        if (opHigh > high && opHigh - span > high)
            break;
        const qint64 opLow = rvAxis ? op.rvLow() : op.startNs;
        if (opLow <= high)
            m_visible.push_back(*it);
    }
    if (m_visible.size() * MIN_PIXELS_PER_OPERATION > m_geometry.plot().width()) {
        paintClientLaneAggregated(m_visible, y);
        return;
    }
    m_painter.setRenderHint(QPainter::Antialiasing, true);
    for (int index : m_visible)
        paintConnections(m_data.operation(index), y);
    for (int index : m_visible)
        paintMark(m_data.operation(index));
}

void TimelinePainter::paintClientLaneAggregated(const std::vector<int> &visible, double centerY)
{
    const QRectF plot = m_geometry.plot();
    std::vector<quint32> counts(std::size_t(plot.width()) + 1, 0);
    std::vector<quint8> severities(counts.size(), 0);
    quint32 most = 1;
    for (int index : visible) {
        const TimelineOperation &op = m_data.operation(index);
        const double column = m_geometry.markX(op) - plot.left();
        if (column < 0 || column >= double(counts.size()))
            continue;
        const std::size_t x = std::size_t(column);
        most = std::max(most, ++counts[x]);
        severities[x] = std::max<quint8>(severities[x], quint8(severityOf(op)));
        const MarkerKind kind = op.lostUpdate() ? MarkerKind::LostUpdate : markerKindOf(op);
        ++m_stats.aggregatedOperations[std::size_t(kind)];
    }
    for (auto &lines : m_columnLines)
        lines.clear();
    const double logMost = std::log1p(double(most));
    for (std::size_t x = 0; x < counts.size(); ++x) {
        if (counts[x] == 0)
            continue;
        const double half = m_geometry.laneHeight * (0.1 + 0.25 * std::log1p(double(counts[x])) / logMost);
        const double px = plot.left() + double(x) + 0.5;
        m_columnLines[severities[x]].emplace_back(px, centerY - half, px, centerY + half);
        ++m_stats.aggregatedColumns;
    }
    m_stats.levelOfDetail = true;
    m_painter.setRenderHint(QPainter::Antialiasing, false);
    const QColor colours[] = {m_style.success, m_style.error, m_style.conflict, m_style.lost};
    for (int severity = 0; severity < 4; ++severity) {
        m_painter.setPen(pen(colours[severity], 1));
        m_painter.drawLines(m_columnLines[severity].data(), int(m_columnLines[severity].size()));
    }
}

void TimelinePainter::paintSelection()
{
    if (m_selected < 0 || m_selected >= m_data.operationCount())
        return;
    const TimelineOperation &op = m_data.operation(m_selected);
    const QPointF at = m_geometry.markPoint(op);
    const double r = m_geometry.markerRadius + 4 * m_style.scale;
    m_painter.setRenderHint(QPainter::Antialiasing, true);
    if (op.objectLane >= 0 && op.clientLane >= 0) {
        // A guide up to the object's lane, where the revision it read or produced sits.
        m_painter.setPen(pen(m_style.selection, 1.2 * m_style.scale, Qt::DotLine));
        m_painter.drawLine(QLineF(at.x(), at.y() - r, at.x(), m_geometry.objectLaneCenter(op.objectLane)));
    }
    m_painter.setPen(pen(m_style.selection, 2.5 * m_style.scale));
    m_painter.setBrush(Qt::NoBrush);
    m_painter.drawEllipse(at, r, r);
}

} // namespace rvscope::ui
