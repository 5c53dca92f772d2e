// SPDX-License-Identifier: MIT
// Renders the main window and each panel after a realistic session (the lost-update
// scenario, a race of 8 clients, an open watch overlaid on the timeline, a bulk watch
// session of two channels, the server running) and saves PNGs: to
// $RVSCOPE_SCREENSHOT_DIR when set (the README's images in resources/screenshots come from
// here), else next to the test. Checks each image is not blank.
#include <QtCore/QDir>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtTest/QtTest>
#include <QtWidgets/QDockWidget>
#include <QtWebSockets/QWebSocket>

#include "MainWindow.h"
#include "conflicts/ConflictsPanel.h"
#include "inspector/InspectorPanel.h"
#include "objects/ObjectsPanel.h"
#include "streams/StreamsPanel.h"
#include "streams/WatchEventModel.h"
#include "streams/WatcherModel.h"
#include "engine/Engine.h"
#include "timeline/TimelineView.h"

using rvscope::engine::Engine;
using rvscope::ui::MainWindow;

class TestPanelScreenshots final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void testEveryPanelAfterASession();
};

void TestPanelScreenshots::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("rvscope-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("TestPanelScreenshots"));
    QSettings().clear();
}

namespace {
bool notBlank(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 5)
        for (int x = 0; x < image.width(); x += 5)
            colours.insert(image.pixel(x, y));
    return colours.size() > 6;
}
} // namespace

void TestPanelScreenshots::testEveryPanelAfterASession()
{
    const QString dir = qEnvironmentVariableIsSet("RVSCOPE_SCREENSHOT_DIR")
        ? qEnvironmentVariable("RVSCOPE_SCREENSHOT_DIR")
        : QCoreApplication::applicationDirPath();
    QDir().mkpath(dir);
    Engine engine;
    MainWindow window(engine);
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    engine.startServer(QHostAddress::LocalHost, 0);
    QTRY_VERIFY(engine.serverState().running);
    QTRY_COMPARE(engine.scenarioState().name, QStringLiteral("lost-update"));
    engine.openWatch(QStringLiteral("configmaps/default"));
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(engine.scenarioState().finished);
    QTRY_COMPARE(window.timeline()->visibleMarkerCount(rvscope::ui::MarkerKind::Conflict), 1);
    QVERIFY(window.grab().toImage().save(QDir(dir).filePath(QStringLiteral("lost-update.png"))));

    // The watch's deliveries on the timeline, as selecting it in the Streams panel shows them.
    auto *streams = window.findChild<rvscope::ui::StreamsPanel *>();
    QTRY_VERIFY(streams->watcherModel()->watcherCount() > 0);
    const QString watcher = streams->watcherModel()->watcherId(0);
    QTRY_VERIFY(streams->watcherModel()->events(0)->totalEvents() > 0);
    streams->selectWatcher(watcher);
    QCOMPARE(window.timeline()->overlaidWatcher(), watcher);
    const QImage overlay = window.timeline()->grab().toImage();
    QVERIFY(window.timeline()->visibleMarkerCount(rvscope::ui::MarkerKind::WatchDelivery) > 0);
    QVERIFY(notBlank(overlay));
    QVERIFY(overlay.save(QDir(dir).filePath(QStringLiteral("watch-overlay.png"))));
    streams->selectWatcher(QString());

    QSignalSpy finished(&engine, &Engine::workloadFinished);
    rvscope::engine::ClientLaunch launch;
    launch.clients = 8;
    launch.operations = 15;
    launch.thinkTime = QStringLiteral("1-4ms");
    engine.launchClients(launch);
    QVERIFY(finished.wait(30000));
    engine.checkHistory();
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    QVERIFY(verdicts.wait(10000));
    QVERIFY(window.grab().toImage().save(QDir(dir).filePath(QStringLiteral("race.png"))));

    // Something selected in each panel, as a user would have it.
    quint64 conflictId = 0;
    const auto &data = window.timeline()->data();
    for (int i = 0; i < data.operationCount() && conflictId == 0; ++i)
        if (data.operation(i).statusCode == 409)
            conflictId = data.operation(i).id;
    QSignalSpy details(&engine, &Engine::operationDetailReady);
    window.findChild<rvscope::ui::ConflictsPanel *>()->selectOperation(conflictId);
    window.findChild<rvscope::ui::InspectorPanel *>()->showOperation(conflictId);
    QTRY_VERIFY(details.size() >= 2);
    // A bulk watch session of two channels next to the regular watch.
    QWebSocket bulk;
    QSignalSpy bulkConnected(&bulk, &QWebSocket::connected);
    bulk.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/apis/bulk.k8s.io/v1/bulkgetoperations").arg(engine.serverState().port)));
    QVERIFY(bulkConnected.wait(10000));
    bulk.sendTextMessage(QStringLiteral(R"({"id":1,"watch":{"selector":{"resource":{"group":"","version":"v1",)"
                                        R"("resource":"configmaps"},"options":{"namespace":"default"}}}})"));
    bulk.sendTextMessage(QStringLiteral(R"({"id":2,"watch":{"selector":{"resource":{"group":"","version":"v1",)"
                                        R"("resource":"secrets"},"options":{"labelSelector":"app=web"}}}})"));
    QTRY_VERIFY(!engine.bulkSessions().isEmpty() && engine.bulkSessions().first().channels.size() == 2);
    QTRY_VERIFY(streams->watcherModel()->bulkSessionsIndex().isValid());
    streams->selectWatcher(watcher);
    QSignalSpy versions(&engine, &Engine::objectVersionReady);
    window.findChild<rvscope::ui::ObjectsPanel *>()->selectObject(QStringLiteral("configmaps/default/foo"));
    QTRY_VERIFY(versions.size() >= 1);

    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        dock->setFloating(true);
        dock->resize(900, 420);
        dock->show();
        dock->raise();
        QVERIFY(QTest::qWaitForWindowExposed(dock));
        const QImage image = dock->widget()->grab().toImage();
        const QString name = dock->objectName().remove(QStringLiteral("Dock")) + QStringLiteral(".png");
        QVERIFY2(notBlank(image), qPrintable(name));
        QVERIFY(image.save(QDir(dir).filePath(name)));
    }
}

QTEST_MAIN(TestPanelScreenshots)
#include "TestPanelScreenshots.moc"
