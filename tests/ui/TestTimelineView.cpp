// SPDX-License-Identifier: MIT
#include <QtCore/QDir>
#include <QtGui/QImage>
#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QToolTip>

#include "TimelineFixtures.h"
#include "timeline/TimelineView.h"

using rvscope::engine::OperationBatch;
using rvscope::testing::ContentionRun;
using rvscope::testing::lostUpdateBatch;
using rvscope::testing::OperationBuilder;
using rvscope::testing::watchDelivery;
using rvscope::engine::WatchEventBatch;
using rvscope::ui::MarkerKind;
using rvscope::ui::TimelineView;

class TestTimelineView final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testConflictPaintsOneConflictMarker();
    void testBlindPutPaintsOneLostUpdateArrow();
    void testRemoteWriteIsARingedRevision();
    void testAxisSwitch();
    void testClickSelectsOperation();
    void testSelectOperationFromOutside();
    void testHoverTooltip();
    void testZoomPanAndFitAll();
    void testKeyboard();
    void testPresentationScale();
    void testHundredThousandOperations();
    void testScreenshots();
    void testClear();
    void testWatchOverlayDrawsOneDiamondPerDelivery();
    void testWatchOverlayFlagsGapsDuplicatesAndErrors();
    void testWatchOverlayOnTheTimeAxis();
    void testWatchOverlayOfHundredThousandDeliveries();
};

namespace {
void showView(TimelineView &view, QSize size = QSize(900, 420))
{
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
}

QString artifactPath(const QString &name)
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 5)
        for (int x = 0; x < image.width(); x += 5)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

// The lost-update story, with a few more operations around it for the screenshots.
OperationBatch richBatch()
{
    OperationBatch batch = lostUpdateBatch(true);
    using rvscope::testing::MS;
    batch << OperationBuilder(5, "c3", "get", "configmaps/default/bar").produced(40).at(0, 1 * MS);
    batch << OperationBuilder(6, "c3", "update", "configmaps/default/bar").sent(40).produced(44).at(8 * MS, 10 * MS)
                 .strategy("retry-default");
    batch << OperationBuilder(7, "c1", "get").produced(43).at(9 * MS, 11 * MS);
    batch << OperationBuilder(8, "c1", "patch").produced(45).at(12 * MS, 15 * MS).casRetries(2);
    batch << OperationBuilder(9, "c3", "update", "configmaps/default/bar").sent(44).produced(44).at(13 * MS, 14 * MS)
                 .noop();
    batch << OperationBuilder(10, "c2", "update").sent(43).status(409, "Conflict").at(14 * MS, 16 * MS);
    batch << OperationBuilder(11, "c3", "create", "configmaps/default/bar").status(409, "AlreadyExists")
                 .at(16 * MS, 17 * MS);
    batch << OperationBuilder(12, "c1", "update").sent(45).produced(46).at(17 * MS, 19 * MS);
    return batch;
}
} // namespace

void TestTimelineView::testConflictPaintsOneConflictMarker()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(false));
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::LostUpdate), 0);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Success), 3); // two gets, c1's update
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Revision), 2); // rv 41 and rv 42
    QVERIFY(!view.lastPaintStats().levelOfDetail);
    // The on-screen paint reports the same.
    view.viewport()->repaint();
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 1);
}

void TestTimelineView::testBlindPutPaintsOneLostUpdateArrow()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(true));
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::LostUpdate), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 0);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Success), 4);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Revision), 3);
}

void TestTimelineView::testAxisSwitch()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(true));
    QCOMPARE(view.axis(), TimelineView::Axis::ResourceVersion);
    auto [low, high] = view.visibleRange();
    QVERIFY(low < 41 && high > 43 && high < 50);

    QSignalSpy axisChanged(&view, &TimelineView::axisChanged);
    view.setAxis(TimelineView::Axis::Time);
    QCOMPARE(axisChanged.count(), 1);
    QCOMPARE(view.axis(), TimelineView::Axis::Time);
    std::tie(low, high) = view.visibleRange();
    QVERIFY(low <= 0 && high >= 8 * rvscope::testing::MS);
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::LostUpdate), 1); // the bar of the blind PUT
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Success), 4);
    // On the time axis the marks sit at each operation's response, in completion order.
    const QPointF first = *view.markerPosition(1);
    const QPointF last = *view.markerPosition(4);
    QVERIFY(first.x() < last.x());

    view.setAxis(TimelineView::Axis::Time); // no change, no signal
    QCOMPARE(axisChanged.count(), 1);
    view.setAxis(TimelineView::Axis::ResourceVersion);
    QCOMPARE(axisChanged.count(), 2);
    // On the RV axis both reads sit at rv 41.
    QCOMPARE(view.markerPosition(1)->x(), view.markerPosition(2)->x());
}

void TestTimelineView::testClickSelectsOperation()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(false));
    QSignalSpy selected(&view, &TimelineView::operationSelected);
    const std::optional<QPointF> conflict = view.markerPosition(4);
    QVERIFY(conflict);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, conflict->toPoint());
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.takeFirst().at(0).toULongLong(), quint64(4));
    QCOMPARE(view.selectedOperation(), quint64(4));

    // A click next to the mark (within its tolerance) still picks it; far away, nothing.
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.markerPosition(3)->toPoint() + QPoint(2, 2));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.takeFirst().at(0).toULongLong(), quint64(3));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(view.viewport()->width() - 5, 5));
    QCOMPARE(selected.count(), 0);
    QCOMPARE(view.selectedOperation(), quint64(0));
}

// A write another instance made (UI.md): a ringed dot on the object lane, no client mark; its
// tooltip says where it came from, and selecting it circles the dot.
void TestTimelineView::testRemoteWriteIsARingedRevision()
{
    using rvscope::testing::MS;
    TimelineView view;
    showView(view);
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "get").produced(41).at(0, 1 * MS);
    batch << OperationBuilder(2, "another instance", "update").produced(42).at(2 * MS, 2 * MS).remote();
    batch << OperationBuilder(3, "c1", "update").sent(42).produced(43).at(3 * MS, 4 * MS);
    view.appendOperations(batch);
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Remote), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Revision), 2); // rv 41 and 43
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Success), 2);  // c1's get and update
    const QPointF remote = *view.markerPosition(2);
    const QString text = view.toolTipAt(remote.toPoint());
    QVERIFY2(text.contains("another instance"), qPrintable(text));
    QVERIFY2(text.contains("at rv 42"), qPrintable(text));
    view.selectOperation(2);
    QCOMPARE(view.selectedOperation(), quint64(2));
    view.renderToImage(view.viewport()->size());
}

void TestTimelineView::testSelectOperationFromOutside()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(false));
    QSignalSpy selected(&view, &TimelineView::operationSelected);
    view.selectOperation(2);
    QCOMPARE(view.selectedOperation(), quint64(2));
    view.selectOperation(77); // unknown
    QCOMPARE(view.selectedOperation(), quint64(0));
    QCOMPARE(selected.count(), 0);

    // Selecting an operation that is off screen brings it into view.
    view.zoomBy(30, 0.0);
    view.selectOperation(4);
    QVERIFY(view.markerPosition(4).has_value());
}

void TestTimelineView::testHoverTooltip()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(false));
    const QPoint at = view.markerPosition(4)->toPoint();
    const QString text = view.toolTipAt(at);
    QVERIFY2(text.contains("client c2 (retry-default)"), qPrintable(text));
    QVERIFY2(text.contains("update configmaps/default/foo"), qPrintable(text));
    QVERIFY2(text.contains("RV sent 41"), qPrintable(text));
    QVERIFY2(text.contains("status 409 Conflict"), qPrintable(text));
    QVERIFY2(text.contains("latency 3.00 ms"), qPrintable(text));
    QVERIFY2(text.contains("current rv 42"), qPrintable(text));
    QVERIFY(view.toolTipAt(QPoint(view.viewport()->width() - 5, view.viewport()->height() - 5)).isEmpty());

    // The real tooltip, through the help event Qt sends on hover.
    QHelpEvent help(QEvent::ToolTip, at, view.viewport()->mapToGlobal(at));
    QApplication::sendEvent(view.viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), text);
    QToolTip::hideText();

    // An object lane's revision dot names the write that committed it.
    TimelineView blind;
    showView(blind);
    blind.appendOperations(lostUpdateBatch(true));
    const QPointF write = *blind.markerPosition(3);
    bool found = false;
    for (int y = 0; y < int(write.y()) && !found; ++y) {
        const QString revision = blind.toolTipAt(QPoint(int(write.x()), y));
        if (revision.contains("at rv 42")) {
            QVERIFY2(revision.contains("committed by c1 update"), qPrintable(revision));
            QVERIFY2(revision.contains("LOST"), qPrintable(revision));
            found = true;
        }
    }
    QVERIFY(found);
    QVERIFY(blind.toolTipAt(blind.markerPosition(4)->toPoint()).contains("LOST UPDATE: based on rv 41, overwrote rv 42 by c1"));
}

void TestTimelineView::testZoomPanAndFitAll()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(true));
    const auto fitted = view.visibleRange();

    // Wheel up zooms in around the pointer.
    const QPoint centre = view.viewport()->rect().center();
    QWheelEvent wheel(centre, view.viewport()->mapToGlobal(centre), QPoint(), QPoint(0, 360), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.viewport(), &wheel);
    const auto zoomed = view.visibleRange();
    QVERIFY(zoomed.second - zoomed.first < (fitted.second - fitted.first) / 2);

    // Dragging right moves the range left.
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, centre);
    QTest::mouseMove(view.viewport(), centre + QPoint(60, 0));
    QTest::mouseMove(view.viewport(), centre + QPoint(120, 0));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, centre + QPoint(120, 0));
    const auto panned = view.visibleRange();
    QVERIFY(panned.first < zoomed.first);
    QCOMPARE(panned.second - panned.first, zoomed.second - zoomed.first);

    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, centre);
    QCOMPARE(view.visibleRange(), fitted);

    // Fitting keeps fitting as operations arrive.
    view.appendOperations({OperationBuilder(20, "c9", "get").produced(90).at(20 * rvscope::testing::MS, 21 * rvscope::testing::MS)});
    QVERIFY(view.visibleRange().second > 90);
}

void TestTimelineView::testKeyboard()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(false));
    view.setFocus();
    const auto fitted = view.visibleRange();
    QTest::keyClick(&view, Qt::Key_Plus);
    QVERIFY(view.visibleRange().second - view.visibleRange().first < fitted.second - fitted.first);
    QTest::keyClick(&view, Qt::Key_0);
    QCOMPARE(view.visibleRange(), fitted);
    QSignalSpy selected(&view, &TimelineView::operationSelected);
    QTest::keyClick(&view, Qt::Key_Period);
    QTest::keyClick(&view, Qt::Key_Period);
    QCOMPARE(selected.count(), 2);
    QCOMPARE(view.selectedOperation(), quint64(2));
    QTest::keyClick(&view, Qt::Key_Comma);
    QCOMPARE(view.selectedOperation(), quint64(1));
}

void TestTimelineView::testPresentationScale()
{
    TimelineView view;
    showView(view, QSize(900, 600));
    view.appendOperations(lostUpdateBatch(false));
    const QPointF before = *view.markerPosition(4);
    view.setPresentationScale(2);
    QCOMPARE(view.presentationScale(), 2.0);
    const QPointF after = *view.markerPosition(4);
    QVERIFY(after.y() > before.y() * 1.5); // taller lanes
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 1);
}

void TestTimelineView::testHundredThousandOperations()
{
    TimelineView view;
    showView(view, QSize(1200, 600));
    ContentionRun run(8, 4);
    for (int i = 0; i < 100; ++i)
        view.appendOperations(run.next(1000));
    QCOMPARE(view.data().operationCount(), 100000);
    QVERIFY(view.data().conflictCount() > 0);
    QVERIFY(view.data().lostUpdateCount() > 0);

    // Fully zoomed out: every lane is aggregated, every operation accounted for, conflicts kept.
    view.renderToImage(view.viewport()->size());
    const auto &stats = view.lastPaintStats();
    QVERIFY(stats.levelOfDetail);
    int aggregated = 0;
    for (MarkerKind kind : {MarkerKind::Success, MarkerKind::Conflict, MarkerKind::Error, MarkerKind::Noop,
                            MarkerKind::LostUpdate, MarkerKind::Pending})
        aggregated += stats.aggregatedOperations[std::size_t(kind)];
    QCOMPARE(aggregated, 100000);
    QVERIFY(stats.aggregatedOperations[std::size_t(MarkerKind::Conflict)] > 0);
    QVERIFY(stats.aggregatedColumns <= 12 * 1200);

    // Zoomed in: individual marks again, only the visible few.
    view.zoomBy(400);
    view.renderToImage(view.viewport()->size());
    QVERIFY(!view.lastPaintStats().levelOfDetail);
    QVERIFY(view.visibleMarkerCount(MarkerKind::Success) > 0);
    QVERIFY(view.visibleMarkerCount(MarkerKind::Success) < 2000);

    view.setAxis(TimelineView::Axis::Time);
    view.viewport()->repaint();
    QVERIFY(view.lastPaintStats().lanesPainted > 0);
    view.zoomBy(1000);
    view.viewport()->repaint();
    QVERIFY(view.visibleMarkerCount(MarkerKind::Success) > 0);
    view.selectOperation(50000);
    QCOMPARE(view.selectedOperation(), quint64(50000));
    QVERIFY(view.markerPosition(50000).has_value());
}

void TestTimelineView::testScreenshots()
{
    TimelineView view;
    showView(view, QSize(1100, 460));
    view.appendOperations(richBatch());
    view.selectOperation(4);
    QImage image = view.renderToImage(QSize(1100, 460));
    QVERIFY(image.save(artifactPath("timeline-rv.png")));
    QVERIFY(distinctColours(image) > 8);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::LostUpdate), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Noop), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Error), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::CasRetry), 2);

    view.setAxis(TimelineView::Axis::Time);
    QVERIFY(view.renderToImage(QSize(1100, 460)).save(artifactPath("timeline-time.png")));

    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    view.setPalette(dark);
    view.setAxis(TimelineView::Axis::ResourceVersion);
    image = view.renderToImage(QSize(1100, 460));
    QVERIFY(image.save(artifactPath("timeline-dark.png")));
    QVERIFY(qGray(image.pixel(image.width() - 3, image.height() - 3)) < 80);

    view.setPalette(QPalette());
    view.setPresentationScale(2);
    QVERIFY(view.renderToImage(QSize(1600, 900)).save(artifactPath("timeline-presentation.png")));

    ContentionRun run(8, 4);
    TimelineView dense;
    showView(dense, QSize(1100, 560));
    for (int i = 0; i < 20; ++i)
        dense.appendOperations(run.next(1000));
    QVERIFY(dense.renderToImage(QSize(1100, 560)).save(artifactPath("timeline-20k-fit.png")));
    dense.zoomBy(60);
    QVERIFY(dense.renderToImage(QSize(1100, 560)).save(artifactPath("timeline-20k-zoom.png")));
}

void TestTimelineView::testClear()
{
    TimelineView view;
    showView(view);
    view.appendOperations(lostUpdateBatch(false));
    view.selectOperation(4);
    view.clear();
    QVERIFY(view.data().empty());
    QCOMPARE(view.selectedOperation(), quint64(0));
    const QImage image = view.renderToImage(QSize(400, 200)); // the empty-state text
    QVERIFY(!image.isNull());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Success), 0);
    QVERIFY(!view.markerPosition(4).has_value());
}

namespace {
const QString FOO = QStringLiteral("configmaps/default/foo");

// The lost update (c1 commits 42, c2's blind PUT 43) seen by an informer that watches
// configmaps/default from rv 41: operation 10.
OperationBatch watchedBatch()
{
    OperationBatch batch = lostUpdateBatch(true);
    batch.prepend(OperationBuilder(10, "informer", "watch", "configmaps/default").sent(41).at(0, 1 * rvscope::testing::MS));
    return batch;
}

int overlayMarks(const TimelineView &view)
{
    return view.visibleMarkerCount(MarkerKind::WatchDelivery) + view.visibleMarkerCount(MarkerKind::WatchFlagged)
        + view.visibleMarkerCount(MarkerKind::WatchGap);
}
} // namespace

void TestTimelineView::testWatchOverlayDrawsOneDiamondPerDelivery()
{
    using rvscope::testing::MS;
    TimelineView view;
    showView(view);
    view.appendOperations(watchedBatch());
    // Another watcher's events are not this overlay's.
    view.showWatchDeliveries("watch-10", {watchDelivery("watch-10", 10, "MODIFIED", 42, FOO, 6 * MS + 100'000)});
    view.appendWatchEvents({watchDelivery("watch-99", 99, "MODIFIED", 42, FOO, 7 * MS),
                            watchDelivery("watch-10", 10, "MODIFIED", 43, FOO, 8 * MS + 200'000)});
    QCOMPARE(view.overlaidWatcher(), QStringLiteral("watch-10"));
    QCOMPARE(view.watchOverlay().deliveryCount(), 2);
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchDelivery), 2);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchFlagged), 0);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchGap), 0);
    // The operations' marks are unchanged.
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Revision), 3);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::LostUpdate), 1);

    // Under the revision it delivered, on the object's lane.
    const QPointF diamond = *view.deliveryPosition(1);
    QCOMPARE(diamond.x(), view.markerPosition(4)->x()); // the blind PUT produced rv 43
    QVERIFY(diamond.y() < view.markerPosition(4)->y()); // object lanes are above the clients'
    const QString tip = view.toolTipAt(diamond.toPoint());
    QVERIFY2(tip.contains("watcher watch-10"), qPrintable(tip));
    QVERIFY2(tip.contains("MODIFIED configmaps/default/foo"), qPrintable(tip));
    QVERIFY2(tip.contains("rv 43"), qPrintable(tip));
    QVERIFY2(tip.contains("delivered at +8.20 ms, 200.0 \u00b5s after its write completed"), qPrintable(tip));

    // Clearing the selection removes it.
    view.showWatchDeliveries(QString());
    QCOMPARE(view.overlaidWatcher(), QString());
    view.renderToImage(view.viewport()->size());
    QCOMPARE(overlayMarks(view), 0);
    QVERIFY(!view.deliveryPosition(0));
    view.appendWatchEvents({watchDelivery("watch-10", 10, "MODIFIED", 44, FOO, 9 * MS)});
    QCOMPARE(view.watchOverlay().deliveryCount(), 0);
}

void TestTimelineView::testWatchOverlayFlagsGapsDuplicatesAndErrors()
{
    using rvscope::testing::MS;
    TimelineView view;
    showView(view, QSize(1100, 460));
    view.appendOperations(watchedBatch());
    // rv 42 never arrives; 43 arrives twice; then the server closes the watch.
    view.showWatchDeliveries("watch-10", {watchDelivery("watch-10", 10, "MODIFIED", 43, FOO, 9 * MS),
                                          watchDelivery("watch-10", 10, "MODIFIED", 43, FOO, 10 * MS),
                                          watchDelivery("watch-10", 10, "ERROR", 0, QString(), 11 * MS,
                                                        "410 Expired: too old resource version")});
    QImage image = view.renderToImage(QSize(1100, 460));
    QVERIFY(image.save(artifactPath("timeline-watch-overlay.png")));
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchDelivery), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchFlagged), 2); // the duplicate and the ERROR
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchGap), 1);     // rv 42
    QCOMPARE(view.watchOverlay().flaggedCount(), 2);

    const QString duplicate = view.toolTipAt(view.deliveryPosition(1)->toPoint());
    QVERIFY2(duplicate.contains("DUPLICATE: rv 43 was already delivered"), qPrintable(duplicate));
    // The ERROR names no object: it sits in the objects' header band, where the stream stopped.
    const QPointF error = *view.deliveryPosition(2);
    QCOMPARE(error.x(), view.deliveryPosition(0)->x());
    QVERIFY(error.y() < view.deliveryPosition(0)->y());
    const QString closing = view.toolTipAt(error.toPoint());
    QVERIFY2(closing.contains("the server closed the watch: 410 Expired: too old resource version"), qPrintable(closing));
    // The gap is a hollow diamond at rv 42, in the deliveries' row.
    const QPointF gap(view.markerPosition(3)->x(), view.deliveryPosition(0)->y());
    const QString missed = view.toolTipAt(gap.toPoint());
    QVERIFY2(missed.contains("GAP: watcher watch-10 never received rv 42"), qPrintable(missed));
    QVERIFY2(missed.contains("committed by c1 update"), qPrintable(missed));
    // Red is drawn: the Streams panel's alarm colour.
    bool red = false;
    for (int y = 0; y < image.height() && !red; ++y)
        for (int x = 0; x < image.width() && !red; ++x)
            red = image.pixelColor(x, y) == QColor(0xC6, 0x28, 0x28);
    QVERIFY(red);

    // A watch that resumed after 42 owes nothing before it.
    OperationBatch resumed = watchedBatch();
    resumed[0].rvSent = 42;
    TimelineView later;
    showView(later);
    later.appendOperations(resumed);
    later.showWatchDeliveries("watch-10", {watchDelivery("watch-10", 10, "MODIFIED", 43, FOO, 9 * MS)});
    later.renderToImage(later.viewport()->size());
    QCOMPARE(later.visibleMarkerCount(MarkerKind::WatchGap), 0);
    QCOMPARE(later.visibleMarkerCount(MarkerKind::WatchDelivery), 1);
}

void TestTimelineView::testWatchOverlayOnTheTimeAxis()
{
    using rvscope::testing::MS;
    TimelineView view;
    showView(view);
    view.appendOperations(watchedBatch());
    view.showWatchDeliveries("watch-10", {watchDelivery("watch-10", 10, "MODIFIED", 42, FOO, 6 * MS + 500'000),
                                          watchDelivery("watch-10", 10, "MODIFIED", 43, FOO, 8 * MS + 500'000)});
    view.setAxis(TimelineView::Axis::Time);
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::WatchDelivery), 2);
    // At the time it was delivered: after the write that committed it.
    QVERIFY(view.deliveryPosition(1)->x() > view.markerPosition(4)->x());
    QVERIFY(view.deliveryPosition(0)->x() < view.deliveryPosition(1)->x());
    view.clear();
    QVERIFY(!view.watchOverlay().active());
}

void TestTimelineView::testWatchOverlayOfHundredThousandDeliveries()
{
    TimelineView view;
    showView(view, QSize(1200, 600));
    ContentionRun run(8, 4);
    WatchEventBatch all;
    view.showWatchDeliveries("watch-1");
    for (int i = 0; i < 100; ++i) {
        const OperationBatch batch = run.next(1000);
        view.appendOperations(batch);
        const WatchEventBatch events = rvscope::testing::deliveriesOf(batch, "watch-1", 0);
        view.appendWatchEvents(events);
        all << events;
    }
    QCOMPARE(view.watchOverlay().deliveryCount(), int(all.size()));
    QVERIFY(all.size() > 20000);
    // Fully zoomed out: the overlay's rows are per-pixel columns too, every delivery counted.
    QElapsedTimer timer;
    timer.start();
    view.renderToImage(view.viewport()->size());
    qInfo("fit all with %lld deliveries: %lld ms", qint64(all.size()), qint64(timer.elapsed()));
    const auto &stats = view.lastPaintStats();
    QCOMPARE(stats.aggregatedOperations[std::size_t(MarkerKind::WatchDelivery)], int(all.size()));
    QCOMPARE(stats.aggregatedOperations[std::size_t(MarkerKind::WatchFlagged)], 0);
    QCOMPARE(stats.markers[std::size_t(MarkerKind::WatchGap)] + stats.aggregatedOperations[std::size_t(MarkerKind::WatchGap)], 0);
    // Zoomed in: diamonds again, only the visible ones.
    view.zoomBy(400);
    view.renderToImage(view.viewport()->size());
    QVERIFY(view.visibleMarkerCount(MarkerKind::WatchDelivery) > 0);
    QVERIFY(view.visibleMarkerCount(MarkerKind::WatchDelivery) < 500);
}

QTEST_MAIN(TestTimelineView)
#include "TestTimelineView.moc"
