// SPDX-License-Identifier: MIT
// The Streams panel against a real Engine: opening and closing a watch from its form, the
// events table, refusals; its models (watchers, one event model per watcher) under
// QAbstractItemModelTester, with synthetic batches for reorders, duplicates, ERROR and the cap.
#include <QtCore/QDir>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QAbstractItemModelTester>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeView>
#include <QtWebSockets/QWebSocket>

#include "RawHttp.h"
#include "engine/Engine.h"
#include "streams/StreamsPanel.h"
#include "streams/WatchEventModel.h"
#include "streams/WatcherModel.h"

using rvscope::engine::BulkChannelSummary;
using rvscope::engine::BulkSessionList;
using rvscope::engine::BulkSessionSummary;
using rvscope::engine::ClientLaunch;
using rvscope::engine::Engine;
using rvscope::engine::OperationBatch;
using rvscope::engine::OperationSummary;
using rvscope::engine::WatchEventBatch;
using rvscope::engine::WatchEventSummary;
using rvscope::ui::StreamsPanel;
using rvscope::ui::WatcherModel;
using rvscope::ui::WatchEventModel;
using Anomaly = rvscope::ui::WatchEventModel::Anomaly;

class TestStreamsPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testReordersDuplicatesAndErrorsAreFlagged();
    void testEventsAreCappedOldestDropped();
    void testWatchersAreDemultiplexedAndDescribed();
    void testOpenWatchFromTheFormShowsItsEvents();
    void testRefusedWatchShowsTheError();
    void testExpiredWatchOfAScenarioIsRed();
    void testHistoryResetForgetsWatchers();
    void testThousandsOfEventsPerBatchStayCapped();
    void testBulkSessionRowsFollowTheEngine();
    void testBulkSessionOfARealWebSocket();
};

namespace {
constexpr auto FAIL_IN_QTEST = QAbstractItemModelTester::FailureReportingMode::QtTest;

template<typename T>
T *child(QWidget &parent, const char *name)
{
    auto *widget = parent.findChild<T *>(QLatin1String(name));
    if (!widget)
        qWarning("no child %s", name);
    return widget;
}

QString artifactPath(const QString &name)
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

WatchEventSummary watchEvent(const QString &watcher, const QString &type, qint64 rv, quint64 operationId = 0)
{
    WatchEventSummary summary;
    summary.watcherId = watcher;
    summary.operationId = operationId;
    summary.type = type;
    summary.resourceVersion = rv;
    summary.key = type == "BOOKMARK" || type == "ERROR" ? QString() : QStringLiteral("configmaps/default/foo");
    summary.timeNs = 1'000'000'000 + rv * 1'000'000;
    return summary;
}

QStringList column(const QAbstractItemModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, column).data().toString();
    return values;
}

void showPanel(QWidget &panel)
{
    panel.resize(1100, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
}
} // namespace

void TestStreamsPanel::testReordersDuplicatesAndErrorsAreFlagged()
{
    WatchEventModel model;
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    const QString w = QStringLiteral("watch-1");
    model.append({watchEvent(w, "ADDED", 5), watchEvent(w, "MODIFIED", 7), watchEvent(w, "BOOKMARK", 9), watchEvent(w, "MODIFIED", 8)});
    // The bookmark at 9 is not compared against: 8 follows 7.
    model.append({watchEvent(w, "MODIFIED", 8), watchEvent(w, "MODIFIED", 6), watchEvent(w, "ERROR", 0)});
    QCOMPARE(model.rowCount(), 7);
    QList<int> anomalies;
    for (int row = 0; row < model.rowCount(); ++row)
        anomalies << model.index(row, 0).data(WatchEventModel::AnomalyRole).toInt();
    QCOMPARE(anomalies, (QList<int>{int(Anomaly::None), int(Anomaly::None), int(Anomaly::None), int(Anomaly::None),
                                    int(Anomaly::OutOfOrder), int(Anomaly::OutOfOrder), int(Anomaly::Error)}));
    QCOMPARE(model.outOfOrderCount(), 2);
    QVERIFY(model.closedWithError());
    // Flagged rows are red, and say why (not by colour only).
    QVERIFY(model.index(4, WatchEventModel::TypeColumn).data(Qt::ForegroundRole).value<QColor>().isValid());
    QVERIFY(!model.index(3, WatchEventModel::TypeColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(model.index(4, WatchEventModel::NoteColumn).data().toString().contains("duplicate"));
    QVERIFY(model.index(5, WatchEventModel::NoteColumn).data().toString().contains("out of order: rv 6 after 8"));
    QVERIFY(model.index(6, WatchEventModel::NoteColumn).data().toString().contains("closed"));
    QCOMPARE(model.index(2, WatchEventModel::ResourceVersionColumn).data().toLongLong(), 9);
    model.setOriginNs(1'000'000'000);
    QCOMPARE(model.index(0, WatchEventModel::ArrivalColumn).data().toString(), QStringLiteral("0.005000"));
}

void TestStreamsPanel::testEventsAreCappedOldestDropped()
{
    WatchEventModel model(nullptr, 10);
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    const QString w = QStringLiteral("watch-1");
    QList<WatchEventSummary> batch;
    for (int rv = 1; rv <= 7; ++rv)
        batch << watchEvent(w, "MODIFIED", rv);
    model.append(batch);
    batch.clear();
    for (int rv = 8; rv <= 12; ++rv)
        batch << watchEvent(w, "MODIFIED", rv);
    model.append(batch);
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.totalEvents(), quint64(12));
    QCOMPARE(model.index(0, WatchEventModel::ResourceVersionColumn).data().toLongLong(), 3);
    QCOMPARE(model.index(9, WatchEventModel::ResourceVersionColumn).data().toLongLong(), 12);
    // One insert per batch, one removal for the overflow.
    QCOMPARE(inserted.size(), 2);
    QCOMPARE(removed.size(), 1);

    batch.clear();
    for (int rv = 13; rv <= 40; ++rv)
        batch << watchEvent(w, "MODIFIED", rv);
    model.append(batch); // larger than the cap: only its newest rows stay
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.index(0, WatchEventModel::ResourceVersionColumn).data().toLongLong(), 31);
    QCOMPARE(model.outOfOrderCount(), 0);
}

void TestStreamsPanel::testWatchersAreDemultiplexedAndDescribed()
{
    WatcherModel model;
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.appendEvents({watchEvent("watch-3", "ADDED", 5, 3), watchEvent("Client #1/configmaps#1", "ADDED", 5, 4),
                        watchEvent("watch-3", "MODIFIED", 6, 3)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(inserted.size(), 1); // both new watchers in one insert
    QCOMPARE(model.rowOf("watch-3"), 0);
    QCOMPARE(model.events(0)->rowCount(), 2);
    QCOMPARE(model.events(1)->rowCount(), 1);
    QCOMPARE(model.index(0, WatcherModel::EventsColumn).data().toULongLong(), quint64(2));

    OperationSummary watch;
    watch.id = 4;
    watch.verb = "watch";
    watch.clientId = "Client #1";
    watch.key = "configmaps";
    watch.statusCode = 200;
    model.noteOperations(OperationBatch{watch});
    QCOMPARE(model.index(1, WatcherModel::ClientColumn).data().toString(), QStringLiteral("Client #1"));
    QCOMPARE(model.index(1, WatcherModel::CollectionColumn).data().toString(), QStringLiteral("configmaps"));

    model.appendEvents({watchEvent("watch-3", "MODIFIED", 4, 3)});
    QVERIFY(model.index(0, WatcherModel::StateColumn).data().toString().contains("1 out of order"));
    QVERIFY(model.index(0, WatcherModel::StateColumn).data(Qt::ForegroundRole).value<QColor>().isValid());

    rvscope::engine::WatchChannel channel;
    channel.id = 9;
    channel.collection = "leases/default";
    channel.status = 200;
    QCOMPARE(model.addOpenedWatch(channel), 2);
    QVERIFY(model.isOpen(2));
    QCOMPARE(model.index(2, WatcherModel::ClientColumn).data().toString(), QStringLiteral("opened here"));
    QCOMPARE(model.index(2, WatcherModel::CollectionColumn).data().toString(), QStringLiteral("leases/default"));
    model.markClosed(2);
    QVERIFY(!model.isOpen(2));
    QCOMPARE(model.index(2, WatcherModel::StateColumn).data().toString(), QStringLiteral("closed"));
}

void TestStreamsPanel::testOpenWatchFromTheFormShowsItsEvents()
{
    Engine engine;
    StreamsPanel panel(engine);
    showPanel(panel);
    QAbstractItemModelTester watcherTester(panel.watcherModel(), FAIL_IN_QTEST);
    auto *collection = child<QComboBox>(panel, "watchCollectionCombo");
    auto *from = child<QLineEdit>(panel, "watchFromRvEdit");
    auto *open = child<QPushButton>(panel, "openWatchButton");
    auto *close = child<QPushButton>(panel, "closeWatchButton");
    auto *status = child<QLabel>(panel, "watchStatusLabel");
    QVERIFY(collection && from && open && close && status);
    QCOMPARE(collection->count(), 5);
    QVERIFY(!close->isEnabled());

    collection->setCurrentText("configmaps/default");
    from->clear();
    QTest::mouseClick(open, Qt::LeftButton);
    QTRY_COMPARE(panel.watcherModel()->rowCount(), 1);
    // The watch opened here is selected, marked as such, and can be closed.
    const QString watcher = panel.watcherModel()->watcherId(0);
    QVERIFY(watcher.startsWith("watch-"));
    QTRY_COMPARE(panel.selectedWatcher(), watcher);
    QCOMPARE(panel.watcherModel()->index(0, WatcherModel::ClientColumn).data().toString(), QStringLiteral("opened here"));
    QCOMPARE(panel.watcherModel()->index(0, WatcherModel::CollectionColumn).data().toString(),
             QStringLiteral("configmaps/default"));
    QVERIFY(status->text().contains(watcher));
    QVERIFY(close->isEnabled());
    WatchEventModel *events = panel.shownEvents();
    QAbstractItemModelTester eventTester(events, FAIL_IN_QTEST);

    ClientLaunch launch;
    launch.clients = 1;
    launch.operations = 3;
    launch.thinkTime = "0ms";
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    engine.launchClients(launch);
    QTRY_COMPARE(finished.size(), 1);
    QTRY_COMPARE(column(*events, WatchEventModel::TypeColumn), (QStringList{"ADDED", "MODIFIED", "MODIFIED", "MODIFIED"}));
    for (int row = 1; row < events->rowCount(); ++row) {
        QVERIFY(events->index(row, 0).data(WatchEventModel::ResourceVersionRole).toLongLong()
                > events->index(row - 1, 0).data(WatchEventModel::ResourceVersionRole).toLongLong());
        QCOMPARE(events->index(row, 0).data(WatchEventModel::AnomalyRole).toInt(), int(Anomaly::None));
    }
    QVERIFY(events->index(0, WatchEventModel::KeyColumn).data().toString().startsWith("configmaps/default/"));
    QVERIFY(child<QLabel>(panel, "watchEventSummary")->text().contains("4 events"));

    const QImage image = panel.grab().toImage();
    QVERIFY(image.save(artifactPath("streams-panel.png")));

    QTest::mouseClick(close, Qt::LeftButton);
    QTRY_VERIFY(!close->isEnabled());
    QCOMPARE(panel.watcherModel()->index(0, WatcherModel::StateColumn).data().toString(), QStringLiteral("closed"));
    engine.launchClients(launch);
    // The core flushes journaled events before it reports a finished workload.
    QTRY_COMPARE(finished.size(), 2);
    QCOMPARE(events->rowCount(), 4);
}

void TestStreamsPanel::testRefusedWatchShowsTheError()
{
    Engine engine;
    StreamsPanel panel(engine);
    showPanel(panel);
    child<QComboBox>(panel, "watchCollectionCombo")->setCurrentText("configmaps/default/foo");
    QTest::mouseClick(child<QPushButton>(panel, "openWatchButton"), Qt::LeftButton);
    auto *status = child<QLabel>(panel, "watchStatusLabel");
    QTRY_VERIFY(status->text().contains("refused (400)"));
    QVERIFY(status->text().contains("configmaps/default/foo"));
    QCOMPARE(status->palette().color(QPalette::WindowText), QColor(0xC6, 0x28, 0x28));
    QCOMPARE(panel.watcherModel()->rowCount(), 0);
    QVERIFY(panel.grab().toImage().save(artifactPath("streams-panel-refused.png")));
}

void TestStreamsPanel::testExpiredWatchOfAScenarioIsRed()
{
    Engine engine;
    StreamsPanel panel(engine);
    showPanel(panel);
    QAbstractItemModelTester watcherTester(panel.watcherModel(), FAIL_IN_QTEST);
    engine.loadScenario("list-watch-410");
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(engine.scenarioState().finished);
    WatcherModel *watchers = panel.watcherModel();
    auto expiredRow = [watchers] {
        for (int row = 0; row < watchers->rowCount(); ++row) {
            if (watchers->index(row, WatcherModel::StateColumn).data().toString().contains("closed: ERROR"))
                return row;
        }
        return -1;
    };
    QTRY_VERIFY(expiredRow() >= 0);
    const int row = expiredRow();
    // Scenario watchers are named by their journaled watch request.
    QTRY_COMPARE(watchers->index(row, WatcherModel::ClientColumn).data().toString(), QStringLiteral("late informer"));
    QCOMPARE(watchers->index(row, WatcherModel::CollectionColumn).data().toString(), QStringLiteral("configmaps/default"));
    QVERIFY(watchers->index(row, WatcherModel::StateColumn).data(Qt::ForegroundRole).value<QColor>().isValid());
    panel.selectWatcher(watchers->watcherId(row));
    WatchEventModel *events = panel.shownEvents();
    QCOMPARE(events, watchers->events(row));
    const QModelIndex last = events->index(events->rowCount() - 1, WatchEventModel::TypeColumn);
    QCOMPARE(last.data().toString(), QStringLiteral("ERROR"));
    QCOMPARE(last.data(WatchEventModel::AnomalyRole).toInt(), int(Anomaly::Error));
    QVERIFY(last.data(Qt::ForegroundRole).value<QColor>().isValid());
    QVERIFY(child<QLabel>(panel, "watchEventSummary")->text().contains("closed by the server"));
    QVERIFY(panel.grab().toImage().save(artifactPath("streams-panel-410.png")));
}

void TestStreamsPanel::testHistoryResetForgetsWatchers()
{
    Engine engine;
    StreamsPanel panel(engine);
    showPanel(panel);
    QAbstractItemModelTester watcherTester(panel.watcherModel(), FAIL_IN_QTEST);
    QSignalSpy selected(&panel, &StreamsPanel::watcherSelected);
    panel.openWatch("configmaps", "0");
    QTRY_COMPARE(panel.watcherModel()->rowCount(), 1);
    QTRY_COMPARE(selected.size(), 1);
    engine.clearHistory();
    QTRY_COMPARE(panel.watcherModel()->rowCount(), 0);
    QCOMPARE(panel.shownEvents()->rowCount(), 0);
    QCOMPARE(panel.selectedWatcher(), QString());
    QCOMPARE(selected.last().at(0).toString(), QString());
}

void TestStreamsPanel::testThousandsOfEventsPerBatchStayCapped()
{
    Engine engine;
    StreamsPanel panel(engine);
    showPanel(panel);
    WatcherModel *watchers = panel.watcherModel();
    watchers->appendEvents({watchEvent("watch-1", "ADDED", 1, 1)});
    panel.selectWatcher("watch-1");
    WatchEventModel *events = panel.shownEvents();
    QSignalSpy inserted(events, &QAbstractItemModel::rowsInserted);
    auto *view = child<QTableView>(panel, "watchEventView");
    // 200k events in 33 ms batches of 2000 (60k events/s), the view following the tail.
    QElapsedTimer timer;
    timer.start();
    qint64 rv = 1;
    for (int batch = 0; batch < 100; ++batch) {
        WatchEventBatch events;
        events.reserve(2000);
        for (int i = 0; i < 2000; ++i)
            events << watchEvent("watch-1", "MODIFIED", ++rv, 1);
        watchers->appendEvents(events);
        QCoreApplication::processEvents(); // a paint per batch, as the event loop would
    }
    qInfo("200000 events in 100 batches: %lld ms", qint64(timer.elapsed()));
    QCOMPARE(events->rowCount(), WatchEventModel::DEFAULT_CAPACITY);
    QCOMPARE(events->totalEvents(), quint64(200001));
    QCOMPARE(inserted.size(), 100); // one insert per batch
    QCOMPARE(events->index(events->rowCount() - 1, 0).data(WatchEventModel::ResourceVersionRole).toLongLong(), rv);
    QCOMPARE(view->verticalScrollBar()->value(), view->verticalScrollBar()->maximum());
    QVERIFY(child<QLabel>(panel, "watchEventSummary")->text().contains("200001 events (the last 50000 shown)"));
}

namespace {
BulkChannelSummary bulkChannel(qint64 id, const QString &resource, const QString &ns, const QString &labels = {})
{
    BulkChannelSummary channel;
    channel.channel = id;
    channel.version = "v1";
    channel.resource = resource;
    channel.namespaceName = ns;
    channel.labelSelector = labels;
    return channel;
}

BulkSessionSummary bulkSession(quint64 id, const QString &user, QList<BulkChannelSummary> channels)
{
    BulkSessionSummary session;
    session.id = id;
    session.user = user;
    session.openChannels = int(channels.size());
    session.channels = std::move(channels);
    return session;
}

QStringList childTexts(const WatcherModel &model, const QModelIndex &parent, int column)
{
    QStringList texts;
    for (int row = 0; row < model.rowCount(parent); ++row)
        texts << model.index(row, column, parent).data().toString();
    return texts;
}
} // namespace

void TestStreamsPanel::testBulkSessionRowsFollowTheEngine()
{
    WatcherModel model;
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    model.appendEvents({watchEvent("watch-3", "ADDED", 5, 3)});
    QVERIFY(!model.bulkSessionsIndex().isValid());
    QCOMPARE(model.rowCount(), 1);

    model.setBulkSessions({bulkSession(1, "alice", {bulkChannel(1, "configmaps", "default"), bulkChannel(2, "secrets", "default")})});
    QCOMPARE(model.rowCount(), 2); // the watcher, then "Bulk sessions"
    const QPersistentModelIndex group = model.bulkSessionsIndex();
    QCOMPARE(group.row(), 1);
    QCOMPARE(model.kindOf(group), WatcherModel::Kind::BulkSessions);
    QCOMPARE(group.data().toString(), QStringLiteral("Bulk sessions"));
    QCOMPARE(model.index(1, WatcherModel::StateColumn).data().toString(), QStringLiteral("2 channels"));
    const QPersistentModelIndex alice = model.index(0, 0, group);
    QCOMPARE(alice.data().toString(), QStringLiteral("session 1"));
    QCOMPARE(model.index(0, WatcherModel::ClientColumn, group).data().toString(), QStringLiteral("alice"));
    QCOMPARE(childTexts(model, alice, WatcherModel::CollectionColumn), (QStringList{"configmaps/default", "secrets/default"}));
    const QPersistentModelIndex secrets = model.index(1, 0, alice);
    QCOMPARE(secrets.data(WatcherModel::BulkChannelIdRole).toLongLong(), 2);
    QCOMPARE(secrets.data(WatcherModel::BulkSessionIdRole).toULongLong(), quint64(1));
    QCOMPARE(secrets.data(WatcherModel::WatcherIdRole).toString(), QString());
    QVERIFY(secrets.data(Qt::ToolTipRole).toString().contains("not journal"));
    QCOMPARE(model.bulkChannelIndex(1, 2), QModelIndex(secrets));

    // Channel 1 closed, 3 opened; a second session: rows move, they are not reset.
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setBulkSessions({bulkSession(1, "alice", {bulkChannel(2, "secrets", "default"), bulkChannel(3, "pods", "", "app=web")}),
                           bulkSession(2, "system:node:n1", {bulkChannel(1, "configmaps", "kube-system")})});
    QCOMPARE(reset.size(), 0);
    QCOMPARE(removed.size(), 1);
    QCOMPARE(inserted.size(), 2);
    QVERIFY(secrets.isValid());
    QCOMPARE(secrets.row(), 0);
    QCOMPARE(childTexts(model, alice, WatcherModel::CollectionColumn), (QStringList{"secrets/default", "pods [app=web]"}));
    QCOMPARE(childTexts(model, group, WatcherModel::WatcherColumn), (QStringList{"session 1", "session 2"}));
    QCOMPARE(model.index(1, WatcherModel::CollectionColumn, group).data().toString(), QStringLiteral("1 channel"));

    // A new watcher goes before "Bulk sessions".
    model.appendEvents({watchEvent("watch-4", "ADDED", 6, 4)});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(group.row(), 2);
    QCOMPARE(model.watcherId(1), QStringLiteral("watch-4"));
    QCOMPARE(model.kindOf(model.index(1, 0)), WatcherModel::Kind::Watcher);

    // Session 1 went; then all of them.
    model.setBulkSessions({bulkSession(2, "system:node:n1", {bulkChannel(1, "configmaps", "kube-system")})});
    QVERIFY(!alice.isValid());
    QVERIFY(!secrets.isValid());
    QCOMPARE(model.rowCount(group), 1);
    model.setBulkSessions({});
    QVERIFY(!group.isValid());
    QVERIFY(!model.bulkSessionsIndex().isValid());
    QCOMPARE(model.rowCount(), 2);

    // A history reset forgets watchers, not the server's live sessions.
    model.setBulkSessions({bulkSession(5, "bob", {bulkChannel(1, "configmaps", "default")})});
    model.clear();
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.bulkSessionsIndex().isValid());
}

void TestStreamsPanel::testBulkSessionOfARealWebSocket()
{
    Engine engine;
    StreamsPanel panel(engine);
    showPanel(panel);
    WatcherModel *watchers = panel.watcherModel();
    QAbstractItemModelTester tester(watchers, FAIL_IN_QTEST);
    engine.startServer(QHostAddress::LocalHost, 0);
    QTRY_VERIFY(engine.serverState().running);

    QWebSocket socket;
    QSignalSpy connected(&socket, &QWebSocket::connected);
    QSignalSpy frames(&socket, &QWebSocket::textMessageReceived);
    socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/apis/bulk.k8s.io/v1/bulkgetoperations").arg(engine.serverState().port)));
    QVERIFY(connected.wait(10000));
    socket.sendTextMessage(QStringLiteral(
        R"({"id":1,"watch":{"selector":{"resource":{"group":"","version":"v1","resource":"configmaps"},"options":{"namespace":"default"}}}})"));
    QTRY_VERIFY(!frames.isEmpty());
    const QJsonObject response = QJsonDocument::fromJson(frames.first().at(0).toString().toUtf8()).object();
    QCOMPARE(response.value("requestId").toInt(), 1);
    QCOMPARE(response.value("channel").toInt(), 1);

    // The tree shows the session, its user and its one channel, opened.
    QTRY_VERIFY(watchers->bulkSessionsIndex().isValid());
    const QModelIndex group = watchers->bulkSessionsIndex();
    QCOMPARE(watchers->rowCount(group), 1);
    const QModelIndex session = watchers->index(0, 0, group);
    QTRY_COMPARE(watchers->rowCount(session), 1);
    QCOMPARE(watchers->index(0, WatcherModel::ClientColumn, group).data().toString(), QStringLiteral("system:anonymous"));
    QCOMPARE(session.data().toString(), QStringLiteral("session 1 from 127.0.0.1:%1").arg(socket.localPort()));
    QCOMPARE(watchers->index(0, WatcherModel::WatcherColumn, session).data().toString(), QStringLiteral("channel 1"));
    QCOMPARE(watchers->index(0, WatcherModel::CollectionColumn, session).data().toString(), QStringLiteral("configmaps/default"));
    QCOMPARE(engine.bulkSessions().size(), 1);
    auto *view = child<QTreeView>(panel, "watcherView");
    QVERIFY(view->isExpanded(group));
    QVERIFY(view->isExpanded(session));

    // Its events are journaled like a watch's: selecting the channel lists them under the
    // channel's watcher, and the timeline overlays that watcher.
    const QString channelWatcher = watchers->index(0, 0, session).data(WatcherModel::WatcherIdRole).toString();
    QVERIFY(channelWatcher.startsWith(QStringLiteral("watch-")));
    QTcpSocket writer;
    writer.connectToHost(QHostAddress::LocalHost, engine.serverState().port);
    QVERIFY(writer.waitForConnected(5000));
    const QByteArray body = R"({"metadata":{"name":"seen-by-bulk"}})";
    writer.write(rvscope::testing::rawRequest("POST", "/api/v1/namespaces/default/configmaps", body));
    QTRY_COMPARE(frames.size(), 2); // the response, then the ADDED event
    QTRY_VERIFY(watchers->rowOf(channelWatcher) >= 0);
    QSignalSpy selected(&panel, &StreamsPanel::watcherSelected);
    view->selectionModel()->setCurrentIndex(watchers->index(0, 0, session),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.last().at(0).toString(), channelWatcher);
    QVERIFY(!child<QPushButton>(panel, "closeWatchButton")->isEnabled());
    QTRY_COMPARE(panel.shownEvents()->rowCount(), 1);
    auto *summary = child<QLabel>(panel, "watchEventSummary");
    QVERIFY2(summary->text().startsWith(channelWatcher + QStringLiteral(": 1 event")), qPrintable(summary->text()));
    QVERIFY(panel.grab().toImage().save(artifactPath("streams-panel-bulk.png")));

    // Channels open and close with the session's requests.
    socket.sendTextMessage(QStringLiteral(
        R"({"id":2,"watch":{"selector":{"resource":{"group":"","version":"v1","resource":"secrets"},"options":{"namespace":"default","labelSelector":"app=web"}}}})"));
    QTRY_COMPARE(watchers->rowCount(session), 2);
    QCOMPARE(watchers->index(1, WatcherModel::CollectionColumn, session).data().toString(), QStringLiteral("secrets/default [app=web]"));
    socket.sendTextMessage(QStringLiteral(R"({"id":3,"closeWatch":{"channel":1}})"));
    QTRY_COMPARE(watchers->rowCount(session), 1);
    QCOMPARE(watchers->index(0, WatcherModel::WatcherColumn, session).data().toString(), QStringLiteral("channel 2"));

    // Closing the socket ends the session: it goes from the tree; what its channels
    // delivered stays in the journal like any ended watch.
    socket.close();
    QTRY_VERIFY(!watchers->bulkSessionsIndex().isValid());
    QVERIFY(engine.bulkSessions().isEmpty());
}

QTEST_MAIN(TestStreamsPanel)
#include "TestStreamsPanel.moc"
