// SPDX-License-Identifier: MIT
// The marks of one operation (UI.md "Timeline visual grammar") and the legend that names them.
#include "timeline/TimelinePainter.h"

#include <algorithm>
#include <cmath>

#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

#include "timeline/TimelineData.h"
#include "timeline/TimelinePainter_p.h"
#include "timeline/TimelineWatchOverlay.h"

namespace rvscope::ui {
using namespace TimelinePainterPrivate;

namespace {
constexpr int MAX_CAS_TICKS = 5;
} // namespace

void TimelinePainter::paintConnections(const TimelineOperation &op, double centerY)
{
    const double s = m_style.scale;
    const double r = m_geometry.markerRadius;
    if (m_geometry.axis == TimelineAxis::Time) {
        // The operation's bar, from invocation to response.
        const double start = m_geometry.xOf(op.startNs);
        const double end = m_geometry.markX(op);
        if (end - start >= 1) {
            QColor colour = op.lostUpdate() ? m_style.lost : m_style.arrow;
            if (op.outcome == TimelineOutcome::Conflict || op.outcome == TimelineOutcome::OwnershipConflict)
                colour = m_style.conflict;
            else if (op.outcome == TimelineOutcome::Error || op.outcome == TimelineOutcome::Pending)
                colour = m_style.error;
            if (!op.lostUpdate())
                colour.setAlphaF(0.45f);
            const double height = (op.lostUpdate() ? 5 : 4) * s;
            m_painter.fillRect(QRectF(start, centerY - height / 2, end - start, height), colour);
        }
        if (op.lostUpdate())
            count(MarkerKind::LostUpdate);
        return;
    }
    const double markY = m_geometry.markY(op);
    if (const qint64 tail = op.arrowTailRv(); tail > 0) {
        // From where the client read (a read's mark sits on the lane's centre line) to the write.
        const QPointF from(m_geometry.xOf(tail), centerY);
        const QPointF to(m_geometry.xOf(op.rvProduced), markY);
        if (op.lostUpdate()) {
            paintArrow(from, to, m_style.lost, LOST_ARROW_WIDTH * s);
            count(MarkerKind::LostUpdate);
        } else {
            paintArrow(from, to, m_style.arrow, ARROW_WIDTH * s);
        }
    }
    if (const qint64 current = op.conflictLineRv(); current > 0) {
        const double x1 = m_geometry.markX(op);
        const double x2 = m_geometry.xOf(current);
        m_painter.setPen(pen(m_style.conflict, 1.4 * s, Qt::DashLine));
        m_painter.drawLine(QLineF(x1, markY, x2, markY));
        m_painter.setPen(pen(m_style.conflict, 1.4 * s));
        m_painter.drawLine(QLineF(x2, markY - r, x2, markY + r));
    }
}

void TimelinePainter::paintArrow(const QPointF &from, const QPointF &to, const QColor &colour, double width)
{
    const double r = m_geometry.markerRadius;
    const double length = std::abs(to.x() - from.x());
    const double lift = std::min(m_geometry.laneHeight * 0.42, 4 * m_style.scale + length * 0.2);
    const QPointF control((from.x() + to.x()) / 2, std::min(from.y(), to.y()) - 2 * lift);
    // The head sits on the end tangent, stopping at the mark's edge.
    QPointF direction = to - control;
    const double norm = std::hypot(direction.x(), direction.y());
    if (norm < 1e-6)
        return;
    direction /= norm;
    const QPointF tip = to - direction * (r + 1);
    QPainterPath path(from);
    path.quadTo(control, tip);
    m_painter.setPen(pen(colour, width));
    m_painter.setBrush(Qt::NoBrush);
    m_painter.drawPath(path);
    const double head = (4 + width * 1.5) * m_style.scale;
    const QPointF normal(-direction.y(), direction.x());
    const QPointF back = tip - direction * head;
    const QPointF wing[] = {tip, back + normal * head * 0.5, back - normal * head * 0.5};
    m_painter.setPen(Qt::NoPen);
    m_painter.setBrush(colour);
    m_painter.drawPolygon(wing, 3);
}

void TimelinePainter::paintMark(const TimelineOperation &op)
{
    const MarkerKind kind = markerKindOf(op);
    const double r = m_geometry.markerRadius * (op.isWrite() ? 1.0 : 0.75);
    const QPointF at = m_geometry.markPoint(op);
    paintShape(kind, at, r);
    count(kind);
    if (op.injectedText >= 0) {
        paintShape(MarkerKind::Injected, at, r);
        count(MarkerKind::Injected);
    }
    if (op.casRetries > 0)
        paintCasTicks(op, at);
}

void TimelinePainter::paintShape(MarkerKind kind, const QPointF &at, double r)
{
    const double s = m_style.scale;
    switch (kind) {
    case MarkerKind::Success:
        m_painter.setPen(pen(m_style.background, 1));
        m_painter.setBrush(m_style.success);
        m_painter.drawEllipse(at, r, r);
        break;
    case MarkerKind::Noop:
        m_painter.setPen(pen(m_style.success, 1.6 * s));
        m_painter.setBrush(m_style.background);
        m_painter.drawEllipse(at, r, r);
        break;
    case MarkerKind::Conflict:
        m_painter.setPen(pen(m_style.conflict, 2 * s));
        m_painter.setBrush(m_style.background);
        m_painter.drawRect(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r));
        break;
    case MarkerKind::OwnershipConflict: {
        // The resourceVersion 409's square, notched by a diamond: told apart at a glance.
        m_painter.setPen(pen(m_style.conflict, 2 * s));
        m_painter.setBrush(m_style.background);
        m_painter.drawRect(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r));
        const double d = r * 0.6;
        const QPointF diamond[] = {{at.x(), at.y() - d}, {at.x() + d, at.y()}, {at.x(), at.y() + d}, {at.x() - d, at.y()}};
        m_painter.setPen(Qt::NoPen);
        m_painter.setBrush(m_style.conflict);
        m_painter.drawPolygon(diamond, 4);
        break;
    }
    case MarkerKind::Error: {
        const QPointF triangle[] = {{at.x(), at.y() - r * 1.25}, {at.x() + r * 1.15, at.y() + r * 0.85},
                                    {at.x() - r * 1.15, at.y() + r * 0.85}};
        m_painter.setPen(pen(m_style.background, 1));
        m_painter.setBrush(m_style.error);
        m_painter.drawPolygon(triangle, 3);
        break;
    }
    case MarkerKind::CasRetry:
        m_painter.setPen(pen(m_style.casRetry, 2 * s));
        m_painter.drawLine(QLineF(at.x(), at.y() - r, at.x(), at.y() + r));
        break;
    case MarkerKind::Revision:
        m_painter.setPen(pen(m_style.revision, 1.5 * s));
        m_painter.setBrush(m_style.revision);
        m_painter.drawEllipse(at, r * 0.9, r * 0.9);
        break;
    case MarkerKind::LostUpdate:
        paintArrow(at - QPointF(2 * r, 0), at + QPointF(2.6 * r, 0), m_style.lost, LOST_ARROW_WIDTH * s);
        break;
    case MarkerKind::Pending:
        m_painter.setPen(pen(m_style.error, 1.2 * s, Qt::DotLine));
        m_painter.setBrush(Qt::NoBrush);
        m_painter.drawEllipse(at, r, r);
        break;
    // A diamond looks smaller than a circle of the same radius.
    case MarkerKind::WatchDelivery:
        paintDiamond(at, r * 1.2, pen(m_style.background, 1), m_style.watch);
        break;
    case MarkerKind::WatchFlagged:
        paintDiamond(at, r * 1.2, pen(m_style.background, 1), m_style.watchAlarm);
        break;
    case MarkerKind::WatchGap:
        paintDiamond(at, r * 1.1, pen(m_style.watchAlarm, 1.6 * s), m_style.background);
        break;
    case MarkerKind::Injected: {
        // A dotted outline around the imitated outcome's mark, and a bolt at its top right,
        // so a real conflict never hides among injected ones (UI.md).
        m_painter.setPen(pen(m_style.text, 1.4 * s, Qt::DotLine));
        m_painter.setBrush(Qt::NoBrush);
        m_painter.drawEllipse(at, r + 3 * s, r + 3 * s);
        const QPointF o = at + QPointF(r + 4 * s, -r * 0.4);
        const double u = 2.8 * s;
        const QPointF bolt[] = {{o.x() + 0.6 * u, o.y() - 1.6 * u}, {o.x() - 0.7 * u, o.y() + 0.2 * u},
                                {o.x() + 0.1 * u, o.y() + 0.2 * u}, {o.x() - 0.5 * u, o.y() + 1.8 * u},
                                {o.x() + 0.9 * u, o.y() - 0.3 * u}, {o.x() + 0.1 * u, o.y() - 0.3 * u}};
        m_painter.setPen(pen(m_style.background, 0.6 * s));
        m_painter.setBrush(m_style.text);
        m_painter.drawPolygon(bolt, 6);
        break;
    }
    case MarkerKind::Remote: // a revision's dot with a ring in the other instance's colour
        m_painter.setPen(pen(m_style.revision, 1.5 * s));
        m_painter.setBrush(m_style.revision);
        m_painter.drawEllipse(at, r * 0.9, r * 0.9);
        m_painter.setPen(pen(m_style.elsewhere, 2 * s));
        m_painter.setBrush(Qt::NoBrush);
        m_painter.drawEllipse(at, r * 0.9 + 2 * s, r * 0.9 + 2 * s);
        break;
    }
}

void TimelinePainter::paintCasTicks(const TimelineOperation &op, const QPointF &at)
{
    const double s = m_style.scale;
    const int ticks = std::min(op.casRetries, MAX_CAS_TICKS);
    const double r = m_geometry.markerRadius;
    const double start = m_geometry.axis == TimelineAxis::Time ? m_geometry.xOf(op.startNs) : at.x();
    // On the write's bar when it is long enough (time axis), otherwise in a row above the mark.
    const double gap = 4 * s;
    const bool onBar = at.x() - start > (ticks + 1) * gap + r;
    m_painter.setPen(pen(m_style.casRetry, 2 * s));
    for (int i = 0; i < ticks; ++i) {
        if (onBar) {
            const double x = start + (at.x() - r - start) * (i + 1) / (ticks + 1);
            m_painter.drawLine(QLineF(x, at.y() - 6 * s, x, at.y() + 6 * s));
        } else {
            const double x = at.x() - (ticks - 1) * gap / 2 + i * gap;
            m_painter.drawLine(QLineF(x, at.y() - r - 2 * s, x, at.y() - r - 9 * s));
        }
    }
    count(MarkerKind::CasRetry, ticks);
}

void TimelinePainter::paintLegend(const QRectF &gutter)
{
    std::vector<std::pair<MarkerKind, const char *>> entries = {
        {MarkerKind::Revision, "revision (object lane)"},
        {MarkerKind::Success, "read / write succeeded"},
        {MarkerKind::Noop, "no-op write"},
        {MarkerKind::Conflict, "409 at the stale RV"},
        {MarkerKind::Error, "other error"},
        {MarkerKind::CasRetry, "server-side CAS retry"},
        {MarkerKind::LostUpdate, "lost update"},
    };
    if (m_data.ownershipConflictCount() > 0)
        entries.emplace_back(MarkerKind::OwnershipConflict, "409 field ownership");
    if (m_data.remoteCount() > 0)
        entries.emplace_back(MarkerKind::Remote, "another instance");
    if (m_data.injectedCount() > 0)
        entries.emplace_back(MarkerKind::Injected, "injected fault");
    if (m_overlay && m_overlay->active()) {
        entries.emplace_back(MarkerKind::WatchDelivery, "received by watcher");
        entries.emplace_back(MarkerKind::WatchFlagged, "dup, reorder, ERROR");
        entries.emplace_back(MarkerKind::WatchGap, "missed by watcher");
    }
    const double s = m_style.scale;
    const double row = 16 * s;
    const double height = row * double(entries.size()) + 8 * s;
    const double lanesBottom = m_geometry.clientHeaderTop() + m_geometry.headerHeight
        + m_geometry.clientLanes * m_geometry.laneHeight;
    double top = gutter.bottom() - height;
    if (top < lanesBottom + 8 * s)
        return; // no room below the lanes' names
    const QFontMetricsF metrics(m_style.detailFont);
    m_painter.setRenderHint(QPainter::Antialiasing, true);
    m_painter.setFont(m_style.detailFont);
    for (const auto &[kind, text] : entries) {
        const double y = top + row / 2;
        paintShape(kind, QPointF(gutter.left() + 16 * s, y), m_geometry.markerRadius);
        m_painter.setPen(m_style.mutedText);
        m_painter.drawText(QPointF(gutter.left() + 30 * s, y + (metrics.ascent() - metrics.descent()) / 2),
                           metrics.elidedText(QString::fromLatin1(text), Qt::ElideRight, gutter.width() - 34 * s));
        top += row;
    }
}

} // namespace rvscope::ui
