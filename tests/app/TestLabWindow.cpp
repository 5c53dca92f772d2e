// SPDX-License-Identifier: MIT
// The window as `rvscope` opens it: parseCommandLine() and LabWindow are what main() calls,
// so these tests see the defaults a user gets (the window once showed nothing because
// main() built its engine with other defaults than the tests did).
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QAction>
#include <QtTest/QtTest>
#include <QtWidgets/QAbstractItemView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QTreeView>

#include "CommandLine.h"
#include "EtcdProcess.h"
#include "RawHttp.h"
#include "LabWindow.h"
#include "MainWindow.h"
#include "engine/Engine.h"
#include "timeline/TimelineData.h"
#include "timeline/TimelineView.h"
#ifdef RVSCOPE_ETCD
#include "storage/etcd/EtcdStorage.h"
#endif

using rvscope::app::Command;
using rvscope::app::LabWindow;
using rvscope::app::parseCommandLine;
using rvscope::engine::Engine;

class TestLabWindow final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void testFirstRunScenarioShowsTheLostUpdate();
    void testLaunchFillsTimelineAndTables();
    void testJournalOffIsSaidNotHidden();
    void testOnEtcdAnotherInstancesWritesArriveRinged();

private:
    static Command windowCommand(QStringList extra = {});
    static void stepToTheEnd(LabWindow &lab);
    static QStringList column(const QAbstractItemModel &model, int column);
};

void TestLabWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("rvscope-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("TestLabWindow"));
}

void TestLabWindow::init()
{
    QSettings().clear();
}

Command TestLabWindow::windowCommand(QStringList extra)
{
    // What a user types, with a free port so that tests can run side by side.
    const Command command = parseCommandLine(QStringList{"rvscope", "--listen", "127.0.0.1:0"} + extra);
    Q_ASSERT(command.kind == Command::Kind::Gui);
    return command;
}

void TestLabWindow::stepToTheEnd(LabWindow &lab)
{
    Engine &engine = lab.engine();
    QTRY_COMPARE(engine.scenarioState().name, QStringLiteral("lost-update"));
    auto *step = lab.window().findChild<QAction *>(QStringLiteral("stepAction"));
    QVERIFY(step);
    QVERIFY(engine.scenarioState().stepCount > 0);
    while (!engine.scenarioState().finished) {
        const int next = engine.scenarioState().nextStep;
        QTRY_VERIFY(step->isEnabled());
        step->trigger(); // the → key
        QTRY_VERIFY(engine.scenarioState().nextStep > next || engine.scenarioState().finished);
    }
}

QStringList TestLabWindow::column(const QAbstractItemModel &model, int column)
{
    QStringList cells;
    for (int row = 0; row < model.rowCount(); ++row)
        cells << model.index(row, column).data().toString();
    return cells;
}

void TestLabWindow::testFirstRunScenarioShowsTheLostUpdate()
{
    LabWindow lab(windowCommand().serve);
    QVERIFY(QTest::qWaitForWindowExposed(&lab.window()));
    QVERIFY(lab.engine().journalEnabled());
    QTRY_VERIFY(lab.engine().serverState().running);
    stepToTheEnd(lab);

    // The timeline holds the scenario's operations: the setup create, 4 reads and 4 writes,
    // one of them the 409, and draws the lost update.
    rvscope::ui::TimelineView *timeline = lab.window().timeline();
    QTRY_VERIFY(timeline->data().operationCount() >= 9);
    QTRY_COMPARE(timeline->visibleMarkerCount(rvscope::ui::MarkerKind::Conflict), 1);
    QTRY_VERIFY(timeline->visibleMarkerCount(rvscope::ui::MarkerKind::LostUpdate) >= 1);

    // The checker finds the lost update: FAIL, as the scenario teaches, never a PASS of 0 writes.
    auto *tree = lab.window().findChild<QTreeView *>(QStringLiteral("verdictTree"));
    QVERIFY(tree);
    QTRY_VERIFY(tree->model()->rowCount() >= 2);
    const QStringList checkers = column(*tree->model(), 0);
    const QStringList outcomes = column(*tree->model(), 2);
    const qsizetype lostUpdate = checkers.indexOf(QStringLiteral("lost-update"));
    QVERIFY2(lostUpdate >= 0, qPrintable(checkers.join(u',')));
    QCOMPARE(outcomes[lostUpdate], QStringLiteral("FAIL"));
    QCOMPARE(outcomes[checkers.indexOf(QStringLiteral("linearizability"))], QStringLiteral("PASS"));
    auto *text = lab.window().findChild<QTextBrowser *>(QStringLiteral("explanationText"));
    QVERIFY(text->toPlainText().contains(QStringLiteral("lost-update configmaps/default/foo: FAIL")));
    QVERIFY(!text->toPlainText().contains(QStringLiteral("0 successful writes")));
}

void TestLabWindow::testLaunchFillsTimelineAndTables()
{
    LabWindow lab(windowCommand().serve);
    QVERIFY(QTest::qWaitForWindowExposed(&lab.window()));
    stepToTheEnd(lab);
    const int before = lab.window().timeline()->data().operationCount();

    // The Clients panel's Launch button with its defaults (8 clients, retry-default).
    QSignalSpy finished(&lab.engine(), &Engine::workloadFinished);
    auto *launch = lab.window().findChild<QPushButton *>(QStringLiteral("launchButton"));
    QVERIFY(launch && launch->isEnabled());
    launch->click();
    QVERIFY(finished.wait(60000));

    QTRY_VERIFY(lab.window().timeline()->data().operationCount() > before + 100);
    auto *clients = lab.window().findChild<QAbstractItemView *>(QStringLiteral("clientTable"));
    QVERIFY(clients);
    QTRY_VERIFY(clients->model()->rowCount() >= 8);
    auto *objects = lab.window().findChild<QAbstractItemView *>(QStringLiteral("objectTree"));
    QVERIFY(objects);
    QTRY_VERIFY(objects->model()->rowCount() >= 1);
    QVERIFY(lab.window().findChild<QLabel *>(QStringLiteral("journalOffLabel")) == nullptr);
}

void TestLabWindow::testJournalOffIsSaidNotHidden()
{
    LabWindow lab(windowCommand({"--journal-size", "0"}).serve);
    QVERIFY(QTest::qWaitForWindowExposed(&lab.window()));
    QVERIFY(!lab.engine().journalEnabled());
    auto *label = lab.window().findChild<QLabel *>(QStringLiteral("journalOffLabel"));
    QVERIFY(label);
    QVERIFY(label->text().contains(QStringLiteral("journal off")));
    QVERIFY(lab.window().timeline()->emptyText().contains(QStringLiteral("history journal is off")));
    stepToTheEnd(lab);

    // Nothing was recorded, so every checker says so instead of passing.
    auto *tree = lab.window().findChild<QTreeView *>(QStringLiteral("verdictTree"));
    QTRY_VERIFY(tree->model()->rowCount() >= 2);
    for (const QString &outcome : column(*tree->model(), 2))
        QCOMPARE(outcome, QStringLiteral("NO HISTORY"));
    QCOMPARE(lab.window().timeline()->data().operationCount(), 0);
}

// `rvscope --storage etcd` beside another instance (`rvscope serve`) on the same etcd: the
// window opens on the shared store (no first-run scenario), says so in its status bar, and a
// write made through the other instance arrives by watch as a ringed revision on its object
// lane, while the window's own write is an ordinary one.
void TestLabWindow::testOnEtcdAnotherInstancesWritesArriveRinged()
{
#ifndef RVSCOPE_ETCD
    QSKIP("built without etcd support (RVSCOPE_ETCD=OFF)");
#endif
    if (rvscope::testing::EtcdProcess::binary().isEmpty())
        QSKIP("no etcd binary (apt-get install etcd-server)");
#ifdef RVSCOPE_ETCD
    // The executables load EtcdStorage as a module; this test links it.
    rvscope::storage::setEtcdBackend(rvscope::storage::linkedEtcdBackend());
#endif
    rvscope::testing::EtcdProcess etcd;
    QVERIFY2(etcd.start(), qPrintable(etcd.error()));
    const QStringList storage{"--storage", "etcd", "--etcd-endpoints", QString::fromStdString(etcd.endpoint()),
                              "--etcd-prefix", "/lab-remote"};
    LabWindow lab(windowCommand(storage).serve);
    QTRY_VERIFY(lab.engine().serverState().running);
    const quint16 windowPort = lab.engine().serverState().port;
    auto *label = lab.window().findChild<QLabel *>(QStringLiteral("storageLabel"));
    QVERIFY(label);
    QVERIFY2(label->text().contains(QStringLiteral("etcd ") + QString::fromStdString(etcd.endpoint())),
             qPrintable(label->text()));
    QVERIFY(lab.engine().scenarioState().name.isEmpty());
    auto *panelStorage = lab.window().findChild<QLabel *>(QStringLiteral("serverStorageLabel"));
    QVERIFY(panelStorage);
    QVERIFY2(panelStorage->text().contains(QStringLiteral("every resource: etcd ")), qPrintable(panelStorage->text()));

    QProcess other;
    other.start(QStringLiteral(RVSCOPE_BINARY), QStringList{"serve", "--listen", "127.0.0.1:0"} + storage);
    QVERIFY(other.waitForStarted(5000));
    QByteArray ready;
    QTRY_VERIFY_WITH_TIMEOUT((ready += other.readAllStandardOutput()).contains('\n'), 15000);
    const QRegularExpressionMatch match = QRegularExpression(QStringLiteral(":(\\d+)\\s*$")).match(QString::fromUtf8(ready));
    QVERIFY2(match.hasMatch(), ready.constData());
    const quint16 otherPort = quint16(match.captured(1).toUInt());

    using rvscope::testing::exchange;
    const auto created = exchange(otherPort, "POST", "/api/v1/namespaces/default/configmaps",
                                  R"({"metadata":{"name":"from-b"},"data":{"k":"1"}})");
    QCOMPARE(created.status, 201);
    QCOMPARE(exchange(windowPort, "POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"from-a"}})")
                 .status,
             201);
    const auto updated = exchange(otherPort, "PATCH", "/api/v1/namespaces/default/configmaps/from-b",
                                  R"({"data":{"k":"2"}})", {}, "application/merge-patch+json");
    QCOMPARE(updated.status, 200);

    auto *timeline = lab.window().findChild<rvscope::ui::TimelineView *>();
    QVERIFY(timeline);
    const rvscope::ui::TimelineData &data = timeline->data();
    QTRY_COMPARE_WITH_TIMEOUT(data.remoteCount(), 2, 10000);
    bool localSeen = false;
    for (int i = 0; i < data.operationCount(); ++i) {
        const auto &op = data.operation(i);
        const QString key = data.text(op.keyText);
        if (op.remote)
            QCOMPARE(key, QStringLiteral("configmaps/default/from-b"));
        if (key == QStringLiteral("configmaps/default/from-a") && op.verb == rvscope::ui::TimelineVerb::Create) {
            QVERIFY(!op.remote);
            localSeen = true;
        }
    }
    QVERIFY(localSeen);
    timeline->renderToImage(timeline->viewport()->size());
    QCOMPARE(timeline->visibleMarkerCount(rvscope::ui::MarkerKind::Remote), 2);
    other.terminate();
    QVERIFY(other.waitForFinished(5000));
}

QTEST_MAIN(TestLabWindow)
#include "TestLabWindow.moc"
