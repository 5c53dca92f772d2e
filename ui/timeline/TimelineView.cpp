// SPDX-License-Identifier: MIT
#include "timeline/TimelineView.h"

#include <algorithm>
#include <cmath>

#include <QtGui/QPainter>
#include <QtWidgets/QScrollBar>

#include "timeline/TimelineGeometry.h"
#include "timeline/TimelinePainter.h"
#include "timeline/TimelineStyle.h"
#include "timeline/TimelineText.h"

namespace rvscope::ui {
namespace {
constexpr double MAX_PIXELS_PER_RV = 400;
constexpr double MAX_PIXELS_PER_NS = 0.5;
// Scroll bar values are ints: the scrollable width in pixels must stay well inside them.
constexpr double MAX_CONTENT_PIXELS = 1e9;
} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setMinimumSize(240, 120);
    updateScrollBars();
}

TimelineView::~TimelineView() = default;

void TimelineView::appendOperations(const engine::OperationBatch &batch)
{
    if (batch.isEmpty())
        return;
    const double oldHigh = extent().second;
    const double span = geometryFor(viewport()->rect()).plot().width() / m_pixelsPerUnit;
    const bool showingTail = !m_data.empty() && m_x0 + span >= oldHigh - span * 0.05;
    m_data.append(batch);
    if (m_fitting) {
        fitAll();
        return;
    }
    // Follow the newest operations when the right edge was showing them, at the same zoom.
    setView(showingTail ? m_x0 + (extent().second - oldHigh) : m_x0, m_pixelsPerUnit);
}

void TimelineView::clear()
{
    m_data.clear();
    m_overlay.reset();
    m_selected = -1;
    fitAll();
}

void TimelineView::showWatchDeliveries(const QString &watcherId, const engine::WatchEventBatch &deliveries)
{
    m_overlay.reset(watcherId);
    m_overlay.append(deliveries, m_data);
    overlayChanged();
}

void TimelineView::appendWatchEvents(const engine::WatchEventBatch &batch)
{
    if (m_overlay.append(batch, m_data) > 0)
        overlayChanged();
}

void TimelineView::overlayChanged()
{
    // On the time axis the overlay may reach past the operations.
    if (m_axis == Axis::Time && m_fitting)
        fitAll();
    else if (m_axis == Axis::Time)
        setView(m_x0, m_pixelsPerUnit);
    else
        viewport()->update();
}

std::optional<QPointF> TimelineView::deliveryPosition(int index) const
{
    if (index < 0 || index >= m_overlay.deliveryCount())
        return std::nullopt;
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const std::optional<QPointF> point = m_overlay.position(m_data, geometry, index);
    if (!point || !geometry.plot().contains(*point))
        return std::nullopt;
    return point;
}

void TimelineView::setAxis(Axis axis)
{
    if (axis == m_axis)
        return;
    m_axis = axis;
    fitAll();
    if (m_selected >= 0)
        ensureVisible(m_selected);
    Q_EMIT axisChanged(axis);
}

void TimelineView::selectOperation(quint64 id)
{
    selectIndex(id == 0 ? -1 : m_data.indexOf(id), false, true);
}

quint64 TimelineView::selectedOperation() const
{
    return m_selected >= 0 ? m_data.operation(m_selected).id : 0;
}

void TimelineView::fitAll()
{
    m_fitting = true;
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    setView(extent().first, fitPixelsPerUnit(geometry.plot().width()));
}

void TimelineView::zoomBy(double factor, std::optional<double> anchorX)
{
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const QRectF plot = geometry.plot();
    const double anchor = std::clamp(anchorX.value_or(plot.center().x()), plot.left(), plot.right()) - plot.left();
    const double valueAtAnchor = m_x0 + anchor / m_pixelsPerUnit;
    const auto [low, high] = extent();
    const double maxZoom = (m_axis == Axis::ResourceVersion ? MAX_PIXELS_PER_RV : MAX_PIXELS_PER_NS) * m_presentationScale;
    const double pixelsPerUnit = std::clamp(m_pixelsPerUnit * factor, fitPixelsPerUnit(plot.width()) * 0.5,
                                            std::min(maxZoom, MAX_CONTENT_PIXELS / (high - low)));
    m_fitting = false;
    setView(valueAtAnchor - anchor / pixelsPerUnit, pixelsPerUnit);
}

std::pair<double, double> TimelineView::visibleRange() const
{
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    return {geometry.rawAt(geometry.plot().left()), geometry.rawAt(geometry.plot().right())};
}

void TimelineView::setPresentationScale(double scale)
{
    scale = std::clamp(scale, 0.5, 4.0);
    if (qFuzzyCompare(scale, m_presentationScale))
        return;
    const double plotBefore = geometryFor(viewport()->rect()).plot().width();
    m_presentationScale = scale;
    if (m_fitting) {
        fitAll();
        return;
    }
    // The gutter grows with the scale; keep showing the same range in the narrower plot.
    setView(m_x0, m_pixelsPerUnit * geometryFor(viewport()->rect()).plot().width() / plotBefore);
}

QImage TimelineView::renderToImage(const QSize &size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    renderTo(painter, size);
    return image;
}

void TimelineView::renderTo(QPainter &painter, const QSize &size)
{
    const TimelineGeometry geometry = geometryFor(QRectF(QPointF(0, 0), QSizeF(size)));
    const TimelineStyle style = TimelineStyle::from(palette(), font(), m_presentationScale);
    TimelinePainter timelinePainter(painter, m_data, geometry, style);
    timelinePainter.setSelectedOperation(m_selected);
    timelinePainter.setWatchOverlay(&m_overlay);
    timelinePainter.setEmptyText(m_emptyText);
    m_stats = timelinePainter.paint();
}

std::optional<QPointF> TimelineView::markerPosition(quint64 id) const
{
    const int index = m_data.indexOf(id);
    if (index < 0)
        return std::nullopt;
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const QPointF point = geometry.markPoint(m_data.operation(index));
    if (!geometry.plot().contains(point))
        return std::nullopt;
    return point;
}

QString TimelineView::toolTipAt(const QPoint &viewportPoint) const
{
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    if (m_overlay.active()) {
        const WatchOverlayHit delivery = m_overlay.hitTest(m_data, geometry, viewportPoint);
        if (delivery.delivery >= 0)
            return TimelineText::describeDelivery(m_data, m_overlay, delivery.delivery);
        if (delivery.revision >= 0)
            return TimelineText::describeGap(m_data, m_overlay, delivery.objectLane, delivery.revision);
    }
    const TimelineHit hit = geometry.hitTest(m_data, viewportPoint);
    if (hit.revision >= 0)
        return TimelineText::describeRevision(m_data, hit.objectLane, hit.revision);
    if (hit.operation >= 0)
        return TimelineText::describeOperation(m_data, hit.operation);
    return QString();
}

void TimelineView::setEmptyText(const QString &text)
{
    m_emptyText = text;
    viewport()->update();
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter painter(viewport());
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const TimelineStyle style = TimelineStyle::from(palette(), font(), m_presentationScale);
    TimelinePainter timelinePainter(painter, m_data, geometry, style);
    timelinePainter.setSelectedOperation(m_selected);
    timelinePainter.setWatchOverlay(&m_overlay);
    timelinePainter.setEmptyText(m_emptyText);
    m_stats = timelinePainter.paint();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    if (m_fitting)
        fitAll();
    else
        setView(m_x0, m_pixelsPerUnit);
}

void TimelineView::scrollContentsBy(int, int)
{
    if (m_updatingScrollBars)
        return;
    const auto [low, high] = extent();
    const double span = geometryFor(viewport()->rect()).plot().width() / m_pixelsPerUnit;
    const double scrollOrigin = std::min(low, high - span);
    const double x0 = scrollOrigin + horizontalScrollBar()->value() / m_pixelsPerUnit;
    if (std::abs(x0 - m_x0) * m_pixelsPerUnit >= 1) {
        m_fitting = false;
        m_x0 = x0;
    }
    viewport()->update();
}

TimelineGeometry TimelineView::geometryFor(const QRectF &area) const
{
    const TimelineStyle style = TimelineStyle::from(palette(), font(), m_presentationScale);
    const int objects = int(m_data.objectLanes().size());
    const int clients = int(m_data.clientLanes().size());
    TimelineGeometry geometry(area, style, m_axis, objects, clients);
    geometry.origin = origin();
    const double maxScroll = std::max(0.0, geometry.contentHeight() - geometry.plot().height());
    geometry.yScroll = std::min(double(verticalScrollBar()->value()), maxScroll);
    if (m_fitting) {
        geometry.x0 = extent().first;
        geometry.pixelsPerUnit = fitPixelsPerUnit(geometry.plot().width());
        return geometry;
    }
    // Another size than the viewport's (an exported image) shows the same range, stretched.
    const TimelineGeometry onScreen(QRectF(viewport()->rect()), style, m_axis, objects, clients);
    geometry.x0 = m_x0;
    geometry.pixelsPerUnit = m_pixelsPerUnit * geometry.plot().width() / onScreen.plot().width();
    return geometry;
}

std::pair<double, double> TimelineView::extent() const
{
    if (m_data.empty())
        return {0, 1};
    if (m_axis == Axis::ResourceVersion) {
        const double low = double(m_data.minRv());
        const double high = double(m_data.maxRv());
        const double pad = std::max(1.0, (high - low) * 0.03);
        return {low - pad, high + pad};
    }
    // Deliveries come after the writes they report: the overlay's last one is shown too.
    const qint64 maxNs = m_overlay.active() ? std::max(m_data.maxNs(), m_overlay.latestNs()) : m_data.maxNs();
    const double range = double(maxNs - m_data.minNs());
    const double pad = std::max(1e5, range * 0.03);
    return {-pad, range + pad};
}

double TimelineView::fitPixelsPerUnit(double plotWidth) const
{
    const auto [low, high] = extent();
    return plotWidth / std::max(high - low, 1e-9);
}

qint64 TimelineView::origin() const
{
    return m_axis == Axis::Time ? m_data.minNs() : 0;
}

void TimelineView::setView(double x0, double pixelsPerUnit)
{
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const auto [low, high] = extent();
    const double span = geometry.plot().width() / pixelsPerUnit;
    // Pan at most until half of the data has left the plot; when zoomed out past the data, centre it.
    if (span >= high - low)
        x0 = (low + high) / 2 - span / 2;
    else
        x0 = std::clamp(x0, low - span / 2, high - span / 2);
    m_x0 = x0;
    m_pixelsPerUnit = pixelsPerUnit;
    updateScrollBars();
    viewport()->update();
}

void TimelineView::updateScrollBars()
{
    m_updatingScrollBars = true;
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const QRectF plot = geometry.plot();
    QScrollBar *vertical = verticalScrollBar();
    vertical->setRange(0, int(std::max(0.0, geometry.contentHeight() - plot.height())));
    vertical->setPageStep(int(plot.height()));
    vertical->setSingleStep(int(geometry.laneHeight / 2));

    const auto [low, high] = extent();
    const double span = plot.width() / m_pixelsPerUnit;
    const double scrollOrigin = std::min(low, high - span);
    QScrollBar *horizontal = horizontalScrollBar();
    const double maximum = m_fitting ? 0 : std::max(0.0, (high - span - scrollOrigin) * m_pixelsPerUnit);
    horizontal->setRange(0, int(std::min(maximum, MAX_CONTENT_PIXELS)));
    horizontal->setPageStep(int(plot.width()));
    horizontal->setSingleStep(std::max(1, int(plot.width() / 20)));
    horizontal->setValue(int(std::lround((m_x0 - scrollOrigin) * m_pixelsPerUnit)));
    m_updatingScrollBars = false;
}

void TimelineView::selectIndex(int index, bool emitSignal, bool reveal)
{
    if (index >= m_data.operationCount())
        index = -1;
    m_selected = index;
    if (index >= 0 && reveal)
        ensureVisible(index);
    viewport()->update();
    if (emitSignal && index >= 0)
        Q_EMIT operationSelected(m_data.operation(index).id);
}

void TimelineView::ensureVisible(int index)
{
    const TimelineGeometry geometry = geometryFor(viewport()->rect());
    const QRectF plot = geometry.plot();
    const QPointF point = geometry.markPoint(m_data.operation(index));
    const double margin = 4 * geometry.markerRadius;
    if (point.x() < plot.left() + margin || point.x() > plot.right() - margin) {
        m_fitting = false;
        const double value = geometry.rawAt(point.x()) - double(origin());
        setView(value - plot.width() / 2 / m_pixelsPerUnit, m_pixelsPerUnit);
    }
    if (point.y() < plot.top() + geometry.laneHeight || point.y() > plot.bottom() - geometry.laneHeight / 2)
        verticalScrollBar()->setValue(int(point.y() - plot.top() + geometry.yScroll - plot.height() / 2));
}

} // namespace rvscope::ui
