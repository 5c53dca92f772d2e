// SPDX-License-Identifier: MIT
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtTest/QtTest>
#include <QtWidgets/QDockWidget>

#include <QtCore/QDir>
#include <QtGui/QAction>
#include <QtGui/QImage>
#include <QtWidgets/QLabel>

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

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
