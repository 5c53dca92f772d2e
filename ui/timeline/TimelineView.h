// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include <QtGui/QImage>
#include <QtWidgets/QAbstractScrollArea>

#include "engine/EngineTypes.h"
#include "timeline/TimelineData.h"
#include "timeline/TimelinePainter.h"
#include "timeline/TimelineTypes.h"
#include "timeline/TimelineWatchOverlay.h"

class QPainter;

namespace rvscope::ui {

struct TimelineGeometry;

// The Timeline panel: object lanes on top, client lanes below, x = resourceVersion or time,
// custom-painted (UI.md "Timeline visual grammar"; TimelinePainter draws, TimelineData derives).
//
// Mouse: wheel zooms around the pointer, drag pans (both axes), double-click fits all,
// hovering shows an operation's (or a watch delivery's) tooltip, a click selects the operation under the pointer and
// emits operationSelected. Keyboard (when focused): + / - zoom, 0 or F fits all, Left/Right
// pan, Up/Down scroll lanes, comma / period select the previous / next operation.
//
// Until the user zooms or pans, the view keeps fitting all operations as batches arrive;
// afterwards it keeps its zoom, and follows the newest revisions if the right edge was showing
// them. GUI thread only.
class TimelineView final : public QAbstractScrollArea {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineView)

public:
    using Axis = TimelineAxis;

    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // Adds a batch of completed operations (Engine's ~33 ms batches) and repaints once.
    void appendOperations(const engine::OperationBatch &batch);
    // Forgets every operation, the selection and the watch overlay (a scenario restart).
    void clear();
    const TimelineData &data() const { return m_data; }
    // What the plot says while there are no operations (TimelinePainter::defaultEmptyText()
    // unless the window knows better, such as that the history journal is off).
    void setEmptyText(const QString &text);
    const QString &emptyText() const { return m_emptyText; }

    // The watch overlay (UI.md "Watch overlay"): the deliveries of one watcher as diamonds on
    // the object lanes (TimelineWatchOverlay). Replaces the overlay with `watcherId`'s
    // `deliveries` (those already received); an empty id removes it. Repaints.
    void showWatchDeliveries(const QString &watcherId, const engine::WatchEventBatch &deliveries = {});
    // Adds the overlaid watcher's events from a batch (Engine's ~33 ms batches; other
    // watchers' events are ignored) and repaints if there were any.
    void appendWatchEvents(const engine::WatchEventBatch &batch);
    const TimelineWatchOverlay &watchOverlay() const { return m_overlay; }
    QString overlaidWatcher() const { return m_overlay.watcherId(); }
    // Where a delivery's diamond is in viewport coordinates, if it is in the plot.
    std::optional<QPointF> deliveryPosition(int index) const;

    void setAxis(Axis axis); // refits all
    Axis axis() const { return m_axis; }

    // Selects (highlights and scrolls to) an operation chosen elsewhere; 0 or an unknown id
    // clears the selection. Does not emit operationSelected.
    void selectOperation(quint64 id);
    quint64 selectedOperation() const;

    void fitAll();
    // Multiplies the zoom by `factor` around the viewport x `anchorX` (the plot's centre if unset).
    void zoomBy(double factor, std::optional<double> anchorX = std::nullopt);
    // The raw values (resourceVersions, or monotonic ns) at the plot's left and right edges.
    std::pair<double, double> visibleRange() const;

    // Scales fonts, marks and lanes (1: desk; 1.5–2.5: projector).
    void setPresentationScale(double scale);
    double presentationScale() const { return m_presentationScale; }

    // Paints the current view into an image of `size` (the same x range stretched to its
    // width; refitted if the view still fits all). For slides, and for tests.
    QImage renderToImage(const QSize &size);
    // Paints the whole view at `size` with `painter` (an SVG generator, a printer, an image).
    void renderTo(QPainter &painter, const QSize &size);
    // What the last paint (on screen or by renderToImage) drew.
    const TimelinePaintStats &lastPaintStats() const { return m_stats; }
    int visibleMarkerCount(MarkerKind kind) const { return m_stats.markers[std::size_t(kind)]; }
    // Where an operation's mark is in viewport coordinates, if it is in the plot.
    std::optional<QPointF> markerPosition(quint64 id) const;
    // The tooltip for the viewport point (empty: nothing there).
    QString toolTipAt(const QPoint &viewportPoint) const;

Q_SIGNALS:
    // The user picked an operation (click, or comma/period).
    void operationSelected(quint64 id);
    void axisChanged(rvscope::ui::TimelineAxis axis);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    TimelineGeometry geometryFor(const QRectF &area) const;
    // The data's extent on the current axis, relative to the axis origin, padded.
    std::pair<double, double> extent() const;
    double fitPixelsPerUnit(double plotWidth) const;
    void setView(double x0, double pixelsPerUnit);
    void updateScrollBars();
    // reveal: scroll the operation into view (keyboard and external selection; a click needs not).
    void selectIndex(int index, bool emitSignal, bool reveal);
    void ensureVisible(int index);
    qint64 origin() const;
    void overlayChanged();

    TimelineData m_data;
    QString m_emptyText = TimelinePainter::defaultEmptyText();
    TimelineWatchOverlay m_overlay;
    Axis m_axis = Axis::ResourceVersion;
    double m_x0 = 0;
    double m_pixelsPerUnit = 1;
    bool m_fitting = true; // keep fitting all until the user zooms or pans
    double m_presentationScale = 1;
    int m_selected = -1;
    bool m_updatingScrollBars = false;
    QPoint m_pressPoint;
    double m_pressX0 = 0;
    int m_pressScrollY = 0;
    bool m_dragging = false;
    bool m_pressed = false;
    TimelinePaintStats m_stats;
};

} // namespace rvscope::ui
