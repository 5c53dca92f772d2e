// SPDX-License-Identifier: MIT
// The timeline's watch overlay: its checks on synthetic streams (the same flags as the
// Streams panel's), and end to end in the main window against a real Engine: a watch opened
// and selected in the Streams panel puts one diamond per delivery on the timeline, the View
// menu picks a watcher too, and clearing the selection removes them.
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QAction>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QMenu>

#include "MainWindow.h"
#include "TimelineFixtures.h"
#include "engine/Engine.h"
#include "streams/StreamsPanel.h"
#include "streams/WatchEventModel.h"
#include "streams/WatcherModel.h"
#include "timeline/TimelineData.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWatchOverlay.h"

using rvscope::engine::ClientLaunch;
using rvscope::engine::Engine;
using rvscope::engine::OperationBatch;
using rvscope::engine::WatchEventBatch;
using rvscope::testing::MS;
using rvscope::testing::OperationBuilder;
using rvscope::testing::watchDelivery;
using rvscope::ui::DeliveryFlag;
using rvscope::ui::MainWindow;
using rvscope::ui::MarkerKind;
using rvscope::ui::StreamsPanel;
using rvscope::ui::TimelineData;
using rvscope::ui::TimelineView;
using rvscope::ui::TimelineWatchOverlay;
using rvscope::ui::WatcherModel;
using rvscope::ui::WatchEventModel;

class TestTimelineWatchOverlay final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void testFlagsAreTheStreamsPanels();
    void testGapRangeStartsAfterWhatWasOwed();
    void testSelectedWatcherIsOverlaidAndCleared();
    void testViewMenuPicksAWatcher();
    void testExpiredWatchEndsInARedDiamond();
};

namespace {
constexpr auto FAIL_IN_QTEST = QAbstractItemModelTester::FailureReportingMode::QtTest;

int overlayMarks(const TimelineView &view)
{
    return view.visibleMarkerCount(MarkerKind::WatchDelivery) + view.visibleMarkerCount(MarkerKind::WatchFlagged)
        + view.visibleMarkerCount(MarkerKind::WatchGap);
}

// A window without a first scenario, its server running, showing the timeline and the Streams panel.
struct Session final {
    Engine engine;
    MainWindow window{engine, nullptr, QString()};
    StreamsPanel *streams = nullptr;
    TimelineView *timeline = nullptr;

    bool start()
    {
        window.resize(1400, 900);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            return false;
        streams = window.findChild<StreamsPanel *>();
        timeline = window.timeline();
        return streams && timeline;
    }
};

// Three increments of one ConfigMap by one in-process client: a create and three updates.
bool runOneClient(Engine &engine)
{
    ClientLaunch launch;
    launch.clients = 1;
    launch.operations = 3;
    launch.thinkTime = QStringLiteral("0ms");
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    engine.launchClients(launch);
    return finished.wait(20000);
}
} // namespace

void TestTimelineWatchOverlay::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("rvscope-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("TestTimelineWatchOverlay"));
    QSettings().clear();
}

void TestTimelineWatchOverlay::testFlagsAreTheStreamsPanels()
{
    const QString foo = QStringLiteral("configmaps/default/foo");
    const QString bar = QStringLiteral("configmaps/default/bar");
    // A watch from "0": the current state first (in key order, not a reorder), then changes.
    const WatchEventBatch stream = {
        watchDelivery("w", 1, "ADDED", 44, bar, 1 * MS),          watchDelivery("w", 1, "ADDED", 41, foo, 2 * MS),
        watchDelivery("w", 1, "MODIFIED", 45, foo, 3 * MS),       watchDelivery("w", 1, "MODIFIED", 45, foo, 4 * MS),
        watchDelivery("w", 1, "MODIFIED", 43, bar, 5 * MS),       watchDelivery("w", 1, "BOOKMARK", 46, QString(), 6 * MS),
        watchDelivery("w", 1, "ERROR", 0, QString(), 7 * MS, "410 Expired: too old resource version"),
    };
    TimelineData data;
    TimelineWatchOverlay overlay;
    QVERIFY(!overlay.active());
    QCOMPARE(overlay.append(stream, data), 0); // no watcher overlaid
    overlay.reset("w");
    QCOMPARE(overlay.append(stream, data), 7);
    const QList<DeliveryFlag> expected = {DeliveryFlag::None,      DeliveryFlag::None, DeliveryFlag::None,
                                          DeliveryFlag::Duplicate, DeliveryFlag::Backwards, DeliveryFlag::None,
                                          DeliveryFlag::Error};
    for (int i = 0; i < overlay.deliveryCount(); ++i)
        QCOMPARE(overlay.delivery(i).flag, expected[i]);
    QCOMPARE(overlay.flaggedCount(), 3);
    // The ERROR sits where the stream stopped; BOOKMARK and ERROR name no object.
    QCOMPARE(overlay.delivery(6).rvPosition, 45);
    QCOMPARE(overlay.delivery(6).group, 0);
    QCOMPARE(overlay.delivery(5).group, 0);
    QCOMPARE(overlay.groupOf(foo)->byRv.size(), std::size_t(3));
    QVERIFY(overlay.groupOf(foo)->delivered(45));
    QVERIFY(!overlay.groupOf(foo)->delivered(44));
    QCOMPARE(overlay.latestNs(), 7 * MS);

    // The Streams panel counts the same reorders and the same closing ERROR.
    WatchEventModel events;
    QAbstractItemModelTester tester(&events, FAIL_IN_QTEST);
    events.append(stream);
    QCOMPARE(events.outOfOrderCount(), 2);
    QVERIFY(events.closedWithError());

    // A batch split anywhere gives the same flags.
    TimelineWatchOverlay split;
    split.reset("w");
    for (const auto &event : stream)
        split.append({event}, data);
    for (int i = 0; i < split.deliveryCount(); ++i)
        QCOMPARE(split.delivery(i).flag, expected[i]);
}

void TestTimelineWatchOverlay::testGapRangeStartsAfterWhatWasOwed()
{
    const QString foo = QStringLiteral("configmaps/default/foo");
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "w", "watch", "configmaps/default").at(0, 1 * MS);
    batch << OperationBuilder(2, "w", "watch", "configmaps").sent(40).at(0, 1 * MS);
    data.append(batch);

    TimelineWatchOverlay fromState;
    fromState.reset("from-0");
    QVERIFY(!fromState.gapRange(data).valid()); // nothing delivered yet
    fromState.append({watchDelivery("from-0", 1, "ADDED", 44, foo, 1), watchDelivery("from-0", 1, "ADDED", 42, foo, 2),
                      watchDelivery("from-0", 1, "MODIFIED", 47, foo, 3)},
                     data);
    const auto range = fromState.gapRange(data);
    QVERIFY(range.valid());
    QCOMPARE(range.prefix, QStringLiteral("configmaps/default/"));
    QCOMPARE(range.floor, 44); // after the state it was sent
    QCOMPARE(range.ceiling, 47);
    QVERIFY(range.covers(foo, 45));
    QVERIFY(!range.covers(foo, 44));
    QVERIFY(!range.covers(QStringLiteral("configmaps/other/foo"), 45));

    TimelineWatchOverlay resumed;
    resumed.reset("resumed");
    resumed.append({watchDelivery("resumed", 2, "MODIFIED", 43, foo, 1)}, data);
    QCOMPARE(resumed.gapRange(data).floor, 40); // the resourceVersion it resumed from
    QCOMPARE(resumed.gapRange(data).prefix, QStringLiteral("configmaps/"));

    // Without its watch request in the timeline, no gap is claimed.
    TimelineWatchOverlay unknown;
    unknown.reset("unknown");
    unknown.append({watchDelivery("unknown", 77, "MODIFIED", 43, foo, 1)}, data);
    QVERIFY(!unknown.gapRange(data).valid());
}

void TestTimelineWatchOverlay::testSelectedWatcherIsOverlaidAndCleared()
{
    Session session;
    QVERIFY(session.start());
    QAbstractItemModelTester watcherTester(session.streams->watcherModel(), FAIL_IN_QTEST);
    session.streams->openWatch(QStringLiteral("configmaps/default"), QString());
    // A watch opened in the panel is selected there, so the timeline overlays it at once.
    QTRY_VERIFY(!session.streams->selectedWatcher().isEmpty());
    const QString watcher = session.streams->selectedWatcher();
    QTRY_COMPARE(session.timeline->overlaidWatcher(), watcher);
    QVERIFY(runOneClient(session.engine));
    QTRY_COMPARE(session.timeline->watchOverlay().deliveryCount(), 4); // ADDED and three MODIFIED
    session.timeline->renderToImage(session.timeline->viewport()->size());
    QCOMPARE(session.timeline->visibleMarkerCount(MarkerKind::WatchDelivery), 4);
    QCOMPARE(session.timeline->visibleMarkerCount(MarkerKind::WatchFlagged), 0);
    QCOMPARE(session.timeline->visibleMarkerCount(MarkerKind::WatchGap), 0);
    // Each diamond sits on the object's lane, under the revision it delivered.
    const auto position = session.timeline->deliveryPosition(3);
    QVERIFY(position);
    const QString tip = session.timeline->toolTipAt(position->toPoint());
    QVERIFY2(tip.contains("watcher " + watcher), qPrintable(tip));
    QVERIFY2(tip.contains("MODIFIED configmaps/default/"), qPrintable(tip));
    QVERIFY2(tip.contains("after its write completed"), qPrintable(tip));

    // Clearing the selection in the Streams panel removes the diamonds.
    session.streams->selectWatcher(QString());
    QCOMPARE(session.timeline->overlaidWatcher(), QString());
    session.timeline->renderToImage(session.timeline->viewport()->size());
    QCOMPARE(overlayMarks(*session.timeline), 0);

    // Selecting it again brings back what it received so far.
    session.streams->selectWatcher(watcher);
    QCOMPARE(session.timeline->watchOverlay().deliveryCount(), 4);
    QVERIFY(runOneClient(session.engine));
    QTRY_COMPARE(session.timeline->watchOverlay().deliveryCount(),
                 int(session.streams->watcherModel()->events(0)->totalEvents()));
    session.timeline->renderToImage(session.timeline->viewport()->size());
    QCOMPARE(session.timeline->visibleMarkerCount(MarkerKind::WatchDelivery), session.timeline->watchOverlay().deliveryCount());
    QCOMPARE(session.timeline->visibleMarkerCount(MarkerKind::WatchGap), 0);

    // A new history forgets it.
    session.engine.clearHistory();
    QTRY_VERIFY(session.timeline->data().empty());
    QCOMPARE(session.timeline->overlaidWatcher(), QString());
}

void TestTimelineWatchOverlay::testViewMenuPicksAWatcher()
{
    Session session;
    QVERIFY(session.start());
    auto *menu = session.window.findChild<QMenu *>(QStringLiteral("watchOverlayMenu"));
    QVERIFY(menu);
    Q_EMIT menu->aboutToShow();
    QCOMPARE(menu->actions().size(), 2); // None, and "no watchers yet"
    QVERIFY(menu->actions().at(0)->isChecked());

    session.streams->openWatch(QStringLiteral("configmaps"), QStringLiteral("0"));
    QTRY_COMPARE(session.streams->watcherModel()->watcherCount(), 1);
    QVERIFY(runOneClient(session.engine));
    session.streams->selectWatcher(QString());
    QTRY_VERIFY(session.streams->watcherModel()->events(0)->totalEvents() > 0);

    Q_EMIT menu->aboutToShow();
    QAction *pick = nullptr;
    for (QAction *action : menu->actions())
        if (action->text().contains(session.streams->watcherModel()->watcherId(0)))
            pick = action;
    QVERIFY(pick);
    QVERIFY(pick->text().contains("configmaps"));
    QVERIFY(!pick->isChecked());
    pick->trigger();
    // The menu selects the watcher in the Streams panel, which the overlay follows.
    QCOMPARE(session.streams->selectedWatcher(), session.streams->watcherModel()->watcherId(0));
    QCOMPARE(session.timeline->overlaidWatcher(), session.streams->selectedWatcher());
    QCOMPARE(quint64(session.timeline->watchOverlay().deliveryCount()),
             session.streams->watcherModel()->events(0)->totalEvents());
    session.timeline->renderToImage(session.timeline->viewport()->size());
    QVERIFY(session.timeline->visibleMarkerCount(MarkerKind::WatchDelivery) > 0);

    Q_EMIT menu->aboutToShow();
    QVERIFY(!menu->actions().at(0)->isChecked());
    menu->actions().at(0)->trigger(); // None
    QCOMPARE(session.timeline->overlaidWatcher(), QString());
    QCOMPARE(session.streams->selectedWatcher(), QString());
}

void TestTimelineWatchOverlay::testExpiredWatchEndsInARedDiamond()
{
    Session session;
    QVERIFY(session.start());
    session.engine.loadScenario(QStringLiteral("list-watch-410"));
    session.engine.setScenarioSpeed(0);
    session.engine.playScenario();
    QTRY_VERIFY(session.engine.scenarioState().finished);
    WatcherModel *watchers = session.streams->watcherModel();
    auto expired = [watchers] {
        for (int row = 0; row < watchers->watcherCount(); ++row)
            if (watchers->events(row)->closedWithError())
                return watchers->watcherId(row);
        return QString();
    };
    QTRY_VERIFY(!expired().isEmpty());
    session.streams->selectWatcher(expired());
    const auto &overlay = session.timeline->watchOverlay();
    QCOMPARE(overlay.flaggedCount(), 1);
    const int error = overlay.deliveryCount() - 1;
    QCOMPARE(overlay.delivery(error).flag, DeliveryFlag::Error);
    session.timeline->renderToImage(session.timeline->viewport()->size());
    QCOMPARE(session.timeline->visibleMarkerCount(MarkerKind::WatchFlagged), 1);
    const auto position = session.timeline->deliveryPosition(error);
    QVERIFY(position);
    const QString tip = session.timeline->toolTipAt(position->toPoint());
    QVERIFY2(tip.contains("the server closed the watch: 410"), qPrintable(tip));
}

QTEST_MAIN(TestTimelineWatchOverlay)
#include "TestTimelineWatchOverlay.moc"
