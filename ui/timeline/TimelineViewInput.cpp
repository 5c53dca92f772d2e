// SPDX-License-Identifier: MIT
// TimelineView's input: mouse (click selects, drag pans, wheel zooms, double-click fits),
// keyboard, tooltips and palette changes. The view's API and painting are in TimelineView.cpp.
#include "timeline/TimelineView.h"

#include <algorithm>
#include <cmath>

#include <QtGui/QHelpEvent>
#include <QtGui/QKeyEvent>
#include <QtGui/QMouseEvent>
#include <QtGui/QWheelEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QToolTip>

#include "timeline/TimelineGeometry.h"

namespace rvscope::ui {
namespace {
constexpr double KEY_ZOOM = 1.5;
} // namespace

bool TimelineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, viewport());
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange) {
        updateScrollBars();
        viewport()->update();
    }
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPoint = event->position().toPoint();
    m_pressX0 = m_x0;
    m_pressScrollY = verticalScrollBar()->value();
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_pressed)
        return;
    const QPoint delta = event->position().toPoint() - m_pressPoint;
    if (!m_dragging && delta.manhattanLength() < QApplication::startDragDistance())
        return;
    if (!m_dragging)
        viewport()->setCursor(Qt::ClosedHandCursor);
    m_dragging = true;
    m_fitting = false;
    verticalScrollBar()->setValue(m_pressScrollY - delta.y());
    setView(m_pressX0 - delta.x() / m_pixelsPerUnit, m_pixelsPerUnit);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_pressed)
        return;
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        viewport()->unsetCursor();
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    const TimelineHit hit = geometryFor(viewport()->rect()).hitTest(m_data, event->position());
    selectIndex(hit.operation, hit.operation >= 0, false);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        fitAll();
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) {
        // Shift+wheel scrolls the lanes (some platforms report it on the x axis).
        const int steps = delta.y() != 0 ? delta.y() : delta.x();
        verticalScrollBar()->setValue(verticalScrollBar()->value() - steps * verticalScrollBar()->singleStep() / 120);
    } else if (std::abs(delta.x()) > std::abs(delta.y())) {
        m_fitting = false;
        setView(m_x0 - delta.x() / 2.0 / m_pixelsPerUnit, m_pixelsPerUnit);
    } else if (delta.y() != 0) {
        zoomBy(std::pow(2.0, delta.y() / 240.0), event->position().x());
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    const double pan = geometryFor(viewport()->rect()).plot().width() / 8 / m_pixelsPerUnit;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(KEY_ZOOM);
        break;
    case Qt::Key_Minus:
        zoomBy(1 / KEY_ZOOM);
        break;
    case Qt::Key_0:
    case Qt::Key_F:
        fitAll();
        break;
    case Qt::Key_Left:
    case Qt::Key_Right:
        m_fitting = false;
        setView(m_x0 + (event->key() == Qt::Key_Left ? -pan : pan), m_pixelsPerUnit);
        break;
    case Qt::Key_Comma:
    case Qt::Key_Period:
        if (m_data.operationCount() > 0) {
            const int step = event->key() == Qt::Key_Comma ? -1 : 1;
            const int from = m_selected >= 0 ? m_selected + step : (step > 0 ? 0 : m_data.operationCount() - 1);
            selectIndex(std::clamp(from, 0, m_data.operationCount() - 1), true, true);
        }
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

} // namespace rvscope::ui
