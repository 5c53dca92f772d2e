// SPDX-License-Identifier: MIT
// The Engine's scenarios, competing clients (in-process and processes) and history files,
// through its public API only: a real core thread, signals waited for with QSignalSpy.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtTest/QtTest>

#include "EngineTestSupport.h"
#include "engine/Engine.h"

using rvscope::engine::ClientLaunch;
using rvscope::engine::Engine;
using rvscope::engine::StepReport;
using rvscope::engine::VerdictList;
using rvscope::engine::WorkloadReport;
using rvscope::engine::test::collected;

class TestEngineScenarios final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testScenarioStepsPausesAndFinishesWithVerdicts();
    void testStepBackReplaysTheSameHistory();
    void testScenarioPlaysPacedAndPauses();
    void testUnknownScenarioIsAnError();
    void testInProcessClientsRecordIntoTheJournal();
    void testClientProcessesOverHttp();
    void testBadClientLaunchIsReported();
    void testExportImportAndCheck();
};

void TestEngineScenarios::testScenarioStepsPausesAndFinishesWithVerdicts()
{
    Engine engine;
    QSignalSpy loaded(&engine, &Engine::scenarioLoaded);
    QSignalSpy steps(&engine, &Engine::scenarioStepCompleted);
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    engine.loadScenario(QStringLiteral("lost-update"));
    QVERIFY(loaded.wait(5000));
    const auto info = loaded.first().at(0).value<rvscope::engine::ScenarioInfo>();
    QCOMPARE(info.stepLabels.size(), 8);
    QTRY_COMPARE(engine.scenarioState().stepCount, 8);
    QCOMPARE(engine.scenarioState().nextStep, 0);

    engine.stepScenario();
    QVERIFY(steps.wait(5000));
    QCOMPARE(steps.size(), 1);
    QTRY_COMPARE(engine.scenarioState().nextStep, 1);
    QVERIFY(!engine.scenarioState().playing);
    const auto first = steps.first().at(0).value<StepReport>();
    QCOMPARE(first.client, QStringLiteral("Client #1"));
    QCOMPARE(first.status, 200);

    engine.setScenarioSpeed(0);
    engine.playScenario();
    QVERIFY(verdicts.wait(10000));
    QCOMPARE(steps.size(), 8);
    const auto conflict = steps.at(3).at(0).value<StepReport>();
    QCOMPARE(conflict.status, 409);
    QVERIFY(conflict.expectationMet);
    const VerdictList list = verdicts.first().at(0).value<VerdictList>();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list[0].checker, QStringLiteral("lost-update"));
    QCOMPARE(list[0].outcome, QStringLiteral("fail"));
    QVERIFY(list[0].asExpected);
    QCOMPARE(list[1].outcome, QStringLiteral("pass"));
    QTRY_VERIFY(engine.scenarioState().finished);
    // The operations came before the verdicts: setup create, 4 gets, 4 puts.
    QCOMPARE(collected(batches).size(), 9);
    int conflicts = 0;
    for (const auto &op : collected(batches))
        conflicts += op.conflict();
    QCOMPARE(conflicts, 1);
}

void TestEngineScenarios::testStepBackReplaysTheSameHistory()
{
    Engine engine;
    QSignalSpy loaded(&engine, &Engine::scenarioLoaded);
    QSignalSpy steps(&engine, &Engine::scenarioStepCompleted);
    QSignalSpy resets(&engine, &Engine::historyReset);
    engine.loadScenario(QStringLiteral("lost-update"));
    QVERIFY(loaded.wait(5000));
    for (int i = 0; i < 4; ++i)
        engine.stepScenario();
    QTRY_COMPARE(steps.size(), 4);
    QTRY_COMPARE(engine.scenarioState().nextStep, 4);
    const auto fourth = steps.last().at(0).value<StepReport>();
    QCOMPARE(fourth.status, 409);
    const int resetsBefore = resets.size();
    engine.stepBackScenario();
    // Replayed from a fresh core up to step 3, with the same revisions.
    QTRY_COMPARE(steps.size(), 7);
    QTRY_COMPARE(engine.scenarioState().nextStep, 3);
    QVERIFY(resets.size() > resetsBefore);
    const auto replayedThird = steps.last().at(0).value<StepReport>();
    const auto originalThird = steps.at(2).at(0).value<StepReport>();
    QCOMPARE(replayedThird.index, 2);
    QCOMPARE(replayedThird.rvProduced, originalThird.rvProduced);
    QCOMPARE(replayedThird.outcome, originalThird.outcome);
    engine.stepScenario();
    QTRY_COMPARE(steps.size(), 8);
    QCOMPARE(steps.last().at(0).value<StepReport>().outcome, fourth.outcome);
}

void TestEngineScenarios::testScenarioPlaysPacedAndPauses()
{
    Engine engine;
    QSignalSpy loaded(&engine, &Engine::scenarioLoaded);
    QSignalSpy steps(&engine, &Engine::scenarioStepCompleted);
    engine.loadScenario(QStringLiteral("put-vs-patch"));
    QVERIFY(loaded.wait(5000));
    // Real time x50: 1.5 s between steps becomes 30 ms.
    engine.setScenarioSpeed(50);
    engine.playScenario();
    QTRY_VERIFY(engine.scenarioState().playing);
    QTRY_VERIFY(steps.size() >= 2);
    engine.pauseScenario();
    QTRY_VERIFY(!engine.scenarioState().playing);
    const int pausedAt = engine.scenarioState().nextStep;
    QVERIFY(pausedAt < 8);
    // Paused means paused: stepping moves exactly one step.
    engine.stepScenario();
    QTRY_COMPARE(engine.scenarioState().nextStep, pausedAt + 1);
    QVERIFY(!engine.scenarioState().playing);
}

void TestEngineScenarios::testUnknownScenarioIsAnError()
{
    Engine engine;
    QSignalSpy errors(&engine, &Engine::errorOccurred);
    engine.loadScenario(QStringLiteral("no-such-scenario"));
    QVERIFY(errors.wait(5000));
    QVERIFY(errors.first().at(0).toString().contains(QStringLiteral("lost-update")));
    QCOMPARE(engine.scenarioState().name, QString());
}

void TestEngineScenarios::testInProcessClientsRecordIntoTheJournal()
{
    Engine engine;
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    ClientLaunch launch;
    launch.clients = 4;
    launch.operations = 10;
    launch.thinkTime = QStringLiteral("1-3ms");
    engine.launchClients(launch);
    QVERIFY(finished.wait(20000));
    const auto report = finished.first().at(0).value<WorkloadReport>();
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QCOMPARE(report.clients, 4);
    QVERIFY(report.succeeded > 30);
    QTRY_VERIFY(!collected(batches).isEmpty());
    QSet<QString> clients;
    for (const auto &op : collected(batches))
        clients.insert(op.clientId);
    QVERIFY(clients.contains(QStringLiteral("c1-1")));
    QVERIFY(clients.contains(QStringLiteral("c1-4")));
}

void TestEngineScenarios::testClientProcessesOverHttp()
{
    rvscope::engine::EngineOptions options;
    options.clientProgram = QStringLiteral(RVSCOPE_BINARY);
    Engine engine(options);
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    ClientLaunch launch;
    launch.clients = 3;
    launch.operations = 10;
    launch.thinkTime = QStringLiteral("0-2ms");
    launch.processes = true;
    engine.launchClients(launch);
    QVERIFY(finished.wait(30000));
    const auto report = finished.first().at(0).value<WorkloadReport>();
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));
    QVERIFY(report.processes);
    QCOMPARE(report.clients, 3);
    QCOMPARE(report.succeeded + report.failed, 30);
    // The server started for them, and their requests are in the same journal.
    QVERIFY(engine.serverState().running);
    QTRY_VERIFY(collected(batches).size() >= 60);
    bool sawProcessClient = false;
    for (const auto &op : collected(batches))
        sawProcessClient = sawProcessClient || (op.clientId.startsWith(QStringLiteral("p1.")) && op.strategy == QStringLiteral("retry-default"));
    QVERIFY(sawProcessClient);
}

void TestEngineScenarios::testBadClientLaunchIsReported()
{
    Engine engine;
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    ClientLaunch launch;
    launch.strategy = QStringLiteral("hope");
    engine.launchClients(launch);
    QVERIFY(finished.wait(5000));
    QVERIFY(finished.first().at(0).value<WorkloadReport>().error.contains(QStringLiteral("unknown strategy")));
}

void TestEngineScenarios::testExportImportAndCheck()
{
    const QString path = QDir::temp().filePath(QStringLiteral("rvscope-engine-history-%1.jsonl").arg(QCoreApplication::applicationPid()));
    {
        Engine engine;
        QSignalSpy verdicts(&engine, &Engine::verdictsReady);
        QSignalSpy exported(&engine, &Engine::historyExported);
        engine.loadScenario(QStringLiteral("lost-update"));
        engine.setScenarioSpeed(0);
        engine.playScenario();
        QVERIFY(verdicts.wait(10000));
        engine.exportHistory(path);
        QVERIFY(exported.wait(5000));
        QCOMPARE(exported.first().at(1).toString(), QString());
    }
    Engine engine;
    QSignalSpy imported(&engine, &Engine::historyImported);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    engine.importHistory(path);
    QVERIFY(imported.wait(5000));
    QCOMPARE(imported.first().at(1).toInt(), 9);
    QTRY_COMPARE(collected(batches).size(), 9);
    engine.checkHistory();
    QVERIFY(verdicts.wait(5000));
    const VerdictList list = verdicts.first().at(0).value<VerdictList>();
    QCOMPARE(list.size(), 3); // lost-update on foo, linearizability, watch
    QCOMPARE(list[0].checker, QStringLiteral("lost-update"));
    QCOMPARE(list[0].outcome, QStringLiteral("fail"));
    QCOMPARE(list[1].outcome, QStringLiteral("pass"));
    engine.importHistory(QStringLiteral("/nonexistent/history.jsonl"));
    QTRY_COMPARE(imported.size(), 2);
    QVERIFY(!imported.last().at(2).toString().isEmpty());
    QFile::remove(path);
}

QTEST_GUILESS_MAIN(TestEngineScenarios)
#include "TestEngineScenarios.moc"
