// SPDX-License-Identifier: MIT
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtTest/QtTest>
#include <QtWidgets/QDockWidget>

#include <QtCore/QDir>
#include <QtGui/QAction>
#include <QtGui/QImage>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTextBrowser>

#include "timeline/TimelineView.h"

#include "MainWindow.h"
#include "engine/Engine.h"

using rvscope::engine::Engine;
using rvscope::ui::MainWindow;

class TestMainWindow final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void testPanelsOfTheLayout();
    void testLayoutIsPersisted();
    void testStatusBarShowsServerAndRevision();
    void testScreenshotIsNotBlank();
    void testFirstRunOpensLostUpdateAtStepZero();
    void testLostUpdateShowsOneConflictMarkerAndInspects();
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("rvscope-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("TestMainWindow"));
    QSettings().clear();
}

void TestMainWindow::testPanelsOfTheLayout()
{
    Engine engine;
    MainWindow window(engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QStringList expected = {"clientsDock", "objectsDock",  "inspectorDock", "conflictsDock",
                                  "streamsDock", "serverLogDock", "verdictsDock", "explanationDock"};
    for (const QString &name : expected) {
        auto *dock = window.findChild<QDockWidget *>(name);
        QVERIFY2(dock, qPrintable(name));
        QVERIFY(!dock->windowTitle().isEmpty());
    }
    QCOMPARE(window.dockWidgetArea(window.findChild<QDockWidget *>("clientsDock")), Qt::LeftDockWidgetArea);
    QCOMPARE(window.dockWidgetArea(window.findChild<QDockWidget *>("inspectorDock")), Qt::RightDockWidgetArea);
    QCOMPARE(window.dockWidgetArea(window.findChild<QDockWidget *>("verdictsDock")), Qt::BottomDockWidgetArea);
    QVERIFY(window.centralWidget());
}

void TestMainWindow::testLayoutIsPersisted()
{
    Engine engine;
    {
        MainWindow window(engine);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *inspector = window.findChild<QDockWidget *>("inspectorDock");
        window.addDockWidget(Qt::LeftDockWidgetArea, inspector);
        window.close();
    }
    MainWindow reopened(engine);
    reopened.show();
    QVERIFY(QTest::qWaitForWindowExposed(&reopened));
    QCOMPARE(reopened.dockWidgetArea(reopened.findChild<QDockWidget *>("inspectorDock")), Qt::LeftDockWidgetArea);
}

void TestMainWindow::testStatusBarShowsServerAndRevision()
{
    Engine engine;
    MainWindow window(engine);
    window.show();
    auto *server = window.findChild<QLabel *>("serverLabel");
    auto *revision = window.findChild<QLabel *>("revisionLabel");
    QVERIFY(server && revision);
    QCOMPARE(server->text(), QStringLiteral("server off"));
    engine.startServer(QHostAddress::LocalHost, 0);
    QTRY_VERIFY(server->text().startsWith(QStringLiteral("server http://127.0.0.1:")));
    QTRY_VERIFY(revision->text().contains(QStringLiteral("4 objects")));
    auto *toggle = window.findChild<QAction *>("serverAction");
    QVERIFY(toggle && toggle->isChecked());
    toggle->trigger(); // stops the server
    QTRY_COMPARE(server->text(), QStringLiteral("server off"));
}

void TestMainWindow::testScreenshotIsNotBlank()
{
    QSettings().clear(); // the first-run layout
    Engine engine;
    MainWindow window(engine);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    engine.startServer(QHostAddress::LocalHost, 0);
    QTRY_VERIFY(engine.serverState().running);
    // After the lost-update scenario, as a teacher would show it.
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(engine.scenarioState().finished);
    QTRY_COMPARE(window.timeline()->visibleMarkerCount(rvscope::ui::MarkerKind::Conflict), 1);
    const QImage image = window.grab().toImage();
    QVERIFY(!image.isNull());
    // Kept as a test artifact, to look at.
    const QString path = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("mainwindow.png"));
    QVERIFY(image.save(path));
    // Not blank: the panels and their titles paint many distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 8, qPrintable(QStringLiteral("only %1 colours").arg(colours.size())));
}

void TestMainWindow::testFirstRunOpensLostUpdateAtStepZero()
{
    Engine engine;
    MainWindow window(engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE(engine.scenarioState().name, QStringLiteral("lost-update"));
    QCOMPARE(engine.scenarioState().nextStep, 0);
    QVERIFY(!engine.scenarioState().playing);
    auto *text = window.findChild<QTextBrowser *>("explanationText");
    QVERIFY(text);
    QTRY_VERIFY(text->toPlainText().contains(QStringLiteral("Next — step 1")));
    auto *step = window.findChild<QAction *>("stepAction");
    QVERIFY(step && step->isEnabled());
    step->trigger();
    QTRY_COMPARE(engine.scenarioState().nextStep, 1);
    QTRY_VERIFY(text->toPlainText().contains(QStringLiteral("Step 1 — what happened")));
    QVERIFY(text->toPlainText().contains(QStringLiteral("Next — step 2")));
    auto *back = window.findChild<QAction *>("stepBackAction");
    QTRY_VERIFY(back->isEnabled());
    back->trigger();
    QTRY_VERIFY(text->toPlainText().startsWith(QStringLiteral("Next — step 1")));
    QCOMPARE(engine.scenarioState().nextStep, 0);
}

void TestMainWindow::testLostUpdateShowsOneConflictMarkerAndInspects()
{
    Engine engine;
    MainWindow window(engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE(engine.scenarioState().name, QStringLiteral("lost-update"));
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(engine.scenarioState().finished);
    rvscope::ui::TimelineView *timeline = window.timeline();
    QTRY_COMPARE(timeline->visibleMarkerCount(rvscope::ui::MarkerKind::Conflict), 1);
    // Click the conflict's mark: the inspector shows the 409.
    quint64 conflictId = 0;
    for (int i = 0; i < timeline->data().operationCount(); ++i)
        if (timeline->data().operation(i).statusCode == 409)
            conflictId = timeline->data().operation(i).id;
    QVERIFY(conflictId > 0);
    const auto position = timeline->markerPosition(conflictId);
    QVERIFY(position);
    QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, position->toPoint());
    auto *summary = window.findChild<QLabel *>("inspectorSummary");
    QTRY_VERIFY(summary->text().contains(QStringLiteral("409 Conflict")));
    QVERIFY(summary->text().contains(QStringLiteral("stale")));

    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
    QVERIFY(window.writeTimelineSvg(svg));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("default/foo"));
}

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
