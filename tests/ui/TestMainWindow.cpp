// SPDX-License-Identifier: MIT
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtTest/QtTest>
#include <QtWidgets/QDockWidget>

#include "MainWindow.h"

using rvscope::ui::MainWindow;

class TestMainWindow final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void testPanelsOfTheLayout();
    void testLayoutIsPersisted();
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
    MainWindow window;
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
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *inspector = window.findChild<QDockWidget *>("inspectorDock");
        window.addDockWidget(Qt::LeftDockWidgetArea, inspector);
        window.close();
    }
    MainWindow reopened;
    reopened.show();
    QVERIFY(QTest::qWaitForWindowExposed(&reopened));
    QCOMPARE(reopened.dockWidgetArea(reopened.findChild<QDockWidget *>("inspectorDock")), Qt::LeftDockWidgetArea);
}

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
