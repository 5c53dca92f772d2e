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
using rvscope::ui::MarkerKind;
using rvscope::ui::TimelineView;

class TestTimelineView final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testConflictPaintsOneConflictMarker();
    void testBlindPutPaintsOneLostUpdateArrow();
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

QTEST_MAIN(TestTimelineView)
#include "TestTimelineView.moc"
