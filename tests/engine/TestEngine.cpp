// SPDX-License-Identifier: MIT
// The Engine through its public API only: a real core thread, real sockets, signals waited
// for with QSignalSpy (no sleeps).
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>
#include <QtTest/QtTest>

#include "engine/Engine.h"

using rvscope::engine::BulkSessionList;
using rvscope::engine::ClientLaunch;
using rvscope::engine::CoreStats;
using rvscope::engine::OperationBatch;
using rvscope::engine::ScenarioState;
using rvscope::engine::StepReport;
using rvscope::engine::VerdictList;
using rvscope::engine::WorkloadReport;
using rvscope::engine::Engine;
using rvscope::engine::ServerState;

namespace {
QByteArray httpRequest(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {})
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    QByteArray request = method + ' ' + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
    if (!body.isEmpty())
        request += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    socket.write(request + "\r\n" + body);
    QByteArray response;
    while (socket.waitForReadyRead(5000))
        response += socket.readAll();
    return response;
}
} // namespace

class TestEngine final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testCoreStartsInItsOwnThread();
    void testServerStartServeStop();
    void testPortInUseIsReported();
    void testStatsFollowWrites();
    void testHttpRequestsAreJournaledAndBatched();
    void testScenarioStepsPausesAndFinishesWithVerdicts();
    void testStepBackReplaysTheSameHistory();
    void testScenarioPlaysPacedAndPauses();
    void testUnknownScenarioIsAnError();
    void testInProcessClientsRecordIntoTheJournal();
    void testClientProcessesOverHttp();
    void testBadClientLaunchIsReported();
    void testExportImportAndCheck();
    void testHttpWatchDeliveriesAreJournaled();
    void testGuiWatchesStreamEventsInBatches();
    void testOperationDetailHasTheThreeWayObjects();
    void testJournalOffServesWithoutHistory();
    void testBulkWatchSessionsAreReported();
    void testSeparateRevisionSeriesAreShown();
};

void TestEngine::testCoreStartsInItsOwnThread()
{
    Engine engine;
    QSignalSpy started(&engine, &Engine::coreStarted);
    QVERIFY(started.wait(5000));
    QCOMPARE(engine.serverState().running, false);
}

void TestEngine::testServerStartServeStop()
{
    Engine engine;
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    const ServerState running = state.takeFirst().at(0).value<ServerState>();
    QVERIFY(running.running);
    QVERIFY(running.port != 0);
    QCOMPARE(engine.serverState().port, running.port);
    QVERIFY(running.url().startsWith(QStringLiteral("http://127.0.0.1:")));

    // The GUI thread is free while the core serves.
    const QByteArray health = httpRequest(running.port, "GET", "/healthz");
    QVERIFY(health.startsWith("HTTP/1.1 200"));
    QVERIFY(httpRequest(running.port, "GET", "/api/v1/namespaces").contains("\"kube-system\""));

    engine.stopServer();
    QVERIFY(state.wait(5000));
    QVERIFY(!state.takeFirst().at(0).value<ServerState>().running);
    QVERIFY(httpRequest(running.port, "GET", "/healthz").isEmpty());
}

void TestEngine::testPortInUseIsReported()
{
    Engine first;
    QSignalSpy firstState(&first, &Engine::serverStateChanged);
    first.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(firstState.wait(5000));
    const quint16 port = first.serverState().port;

    Engine second;
    QSignalSpy secondState(&second, &Engine::serverStateChanged);
    second.startServer(QHostAddress::LocalHost, port);
    QVERIFY(secondState.wait(5000));
    const ServerState failed = secondState.takeFirst().at(0).value<ServerState>();
    QVERIFY(!failed.running);
    QVERIFY(!failed.error.isEmpty());
}

void TestEngine::testStatsFollowWrites()
{
    Engine engine;
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    QSignalSpy stats(&engine, &Engine::statsUpdated);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    QTRY_VERIFY(engine.stats().objects == 4); // the bootstrap namespaces
    const auto before = engine.stats().revision;
    const QByteArray created = httpRequest(engine.serverState().port, "POST", "/api/v1/namespaces/default/configmaps",
                                           R"({"metadata":{"name":"foo"}})");
    QVERIFY(created.startsWith("HTTP/1.1 201"));
    QTRY_COMPARE(engine.stats().revision, before + 1);
    QCOMPARE(engine.stats().objects, std::size_t(5));
}

namespace {
// Every operation received so far, across batches.
QList<rvscope::engine::OperationSummary> collected(const QSignalSpy &spy)
{
    QList<rvscope::engine::OperationSummary> all;
    for (const auto &arguments : spy)
        all.append(arguments.at(0).value<OperationBatch>());
    return all;
}
} // namespace

void TestEngine::testHttpRequestsAreJournaledAndBatched()
{
    Engine engine;
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    const quint16 port = engine.serverState().port;
    for (int i = 0; i < 20; ++i)
        httpRequest(port, "POST", "/api/v1/namespaces/default/configmaps", QByteArray(R"({"metadata":{"name":"cm)")
                                                                                 + QByteArray::number(i) + R"("}})");
    httpRequest(port, "PUT", "/api/v1/namespaces/default/configmaps/cm0",
                R"({"metadata":{"name":"cm0","resourceVersion":"1"}})");
    QTRY_COMPARE(collected(batches).size(), 21);
    // Batched: far fewer signals than operations.
    QVERIFY(batches.size() < 21);
    const auto ops = collected(batches);
    QCOMPARE(ops.first().verb, QStringLiteral("create"));
    QCOMPARE(ops.first().key, QStringLiteral("configmaps/default/cm0"));
    QCOMPARE(ops.first().statusCode, 201);
    QVERIFY(ops.first().rvProduced > 0);
    QCOMPARE(ops.last().verb, QStringLiteral("update"));
    QCOMPARE(ops.last().statusCode, 409);
    QCOMPARE(ops.last().rvSent, 1);
    QCOMPARE(ops.last().reason, QStringLiteral("Conflict"));
    for (int i = 1; i < ops.size(); ++i)
        QVERIFY(ops[i].id > ops[i - 1].id);
}

void TestEngine::testScenarioStepsPausesAndFinishesWithVerdicts()
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

void TestEngine::testStepBackReplaysTheSameHistory()
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

void TestEngine::testScenarioPlaysPacedAndPauses()
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

void TestEngine::testUnknownScenarioIsAnError()
{
    Engine engine;
    QSignalSpy errors(&engine, &Engine::errorOccurred);
    engine.loadScenario(QStringLiteral("no-such-scenario"));
    QVERIFY(errors.wait(5000));
    QVERIFY(errors.first().at(0).toString().contains(QStringLiteral("lost-update")));
    QCOMPARE(engine.scenarioState().name, QString());
}

void TestEngine::testInProcessClientsRecordIntoTheJournal()
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

void TestEngine::testClientProcessesOverHttp()
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

void TestEngine::testBadClientLaunchIsReported()
{
    Engine engine;
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    ClientLaunch launch;
    launch.strategy = QStringLiteral("hope");
    engine.launchClients(launch);
    QVERIFY(finished.wait(5000));
    QVERIFY(finished.first().at(0).value<WorkloadReport>().error.contains(QStringLiteral("unknown strategy")));
}

void TestEngine::testExportImportAndCheck()
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

void TestEngine::testHttpWatchDeliveriesAreJournaled()
{
    Engine engine;
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    QSignalSpy exported(&engine, &Engine::historyExported);
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    const quint16 port = engine.serverState().port;
    QTcpSocket watch;
    watch.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(watch.waitForConnected(5000));
    watch.write("GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(watch.waitForReadyRead(5000)); // the response head: the watch is registered
    for (int i = 0; i < 3; ++i)
        httpRequest(port, "POST", "/api/v1/namespaces/default/configmaps",
                    QByteArray(R"({"metadata":{"name":"w)") + QByteArray::number(i) + R"("}})");
    QByteArray stream;
    while (stream.count("\"ADDED\"") < 3 && watch.waitForReadyRead(5000))
        stream += watch.readAll();
    const QString path = QDir::temp().filePath(QStringLiteral("rvscope-watch-history-%1.jsonl").arg(QCoreApplication::applicationPid()));
    engine.exportHistory(path);
    QVERIFY(exported.wait(5000));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray lines = file.readAll();
    QCOMPARE(lines.count("\"record\":\"watch\""), 3);
    QVERIFY(lines.contains("\"key\":\"configmaps/default/w2\""));
    QVERIFY(lines.contains("\"verb\":\"watch\""));
    QFile::remove(path);
    engine.checkHistory();
    QVERIFY(verdicts.wait(5000));
    const VerdictList list = verdicts.first().at(0).value<VerdictList>();
    QCOMPARE(list.last().checker, QStringLiteral("watch"));
    QVERIFY2(list.last().outcome == QStringLiteral("pass"), qPrintable(list.last().summary));
}

void TestEngine::testGuiWatchesStreamEventsInBatches()
{
    Engine engine;
    QSignalSpy opened(&engine, &Engine::watchOpened);
    QSignalSpy events(&engine, &Engine::watchEventsRecorded);
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    engine.openWatch(QStringLiteral("configmaps/default"));
    QVERIFY(opened.wait(5000));
    const auto channel = opened.first().at(0).value<rvscope::engine::WatchChannel>();
    QCOMPARE(channel.status, 200);
    QVERIFY(channel.id > 0);
    ClientLaunch launch;
    launch.clients = 1;
    launch.operations = 3;
    launch.thinkTime = QStringLiteral("0ms");
    engine.launchClients(launch);
    QVERIFY(finished.wait(10000));
    const QString watcher = QStringLiteral("watch-%1").arg(channel.id);
    auto mine = [&] {
        QStringList types;
        for (const auto &arguments : events)
            for (const auto &event : arguments.at(0).value<rvscope::engine::WatchEventBatch>())
                if (event.watcherId == watcher)
                    types << event.type;
        return types;
    };
    QTRY_COMPARE(mine(), (QStringList{"ADDED", "MODIFIED", "MODIFIED", "MODIFIED"}));
    engine.closeWatch(channel.id);
    engine.launchClients(launch);
    QVERIFY(finished.wait(10000));
    // The core flushes journaled events before it reports a finished workload.
    QCOMPARE(mine().size(), 4);

    engine.openWatch(QStringLiteral("configmaps/default/foo"));
    QVERIFY(opened.wait(5000));
    const auto refused = opened.last().at(0).value<rvscope::engine::WatchChannel>();
    QCOMPARE(refused.status, 400);
    QVERIFY(!refused.error.isEmpty());
}

void TestEngine::testOperationDetailHasTheThreeWayObjects()
{
    Engine engine;
    QSignalSpy steps(&engine, &Engine::scenarioStepCompleted);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    QSignalSpy details(&engine, &Engine::operationDetailReady);
    QSignalSpy versions(&engine, &Engine::objectVersionReady);
    engine.loadScenario(QStringLiteral("lost-update"));
    for (int i = 0; i < 4; ++i)
        engine.stepScenario();
    QTRY_COMPARE(steps.size(), 4);
    quint64 conflictId = 0;
    for (const auto &op : collected(batches))
        if (op.conflict())
            conflictId = op.id;
    QVERIFY(conflictId > 0);
    engine.fetchOperation(conflictId);
    QVERIFY(details.wait(5000));
    const auto detail = details.first().at(0).value<rvscope::engine::OperationDetail>();
    QCOMPARE(detail.summary.id, conflictId);
    QCOMPARE(detail.summary.statusCode, 409);
    // Read at rv N (the create), live at N+1 (Client #1's write), tried: counter 1 and size.
    const auto read = QJsonDocument::fromJson(detail.readObject).object();
    const auto live = QJsonDocument::fromJson(detail.liveObject).object();
    const auto tried = QJsonDocument::fromJson(detail.request).object();
    QCOMPARE(read.value("metadata").toObject().value("resourceVersion").toString().toLongLong(), detail.summary.rvSent);
    QCOMPARE(detail.liveResourceVersion, detail.summary.rvSent + 1);
    QCOMPARE(live.value("data").toObject().value("color").toString(), QStringLiteral("blue"));
    QCOMPARE(tried.value("data").toObject().value("size").toString(), QStringLiteral("large"));
    QCOMPARE(detail.keyRevisions, (QList<qint64>{detail.summary.rvSent, detail.summary.rvSent + 1}));
    engine.fetchObjectVersion(detail.summary.key, detail.summary.rvSent + 1);
    QVERIFY(versions.wait(5000));
    QCOMPARE(QJsonDocument::fromJson(versions.first().at(2).toByteArray()).object().value("data").toObject().value("color").toString(),
             QStringLiteral("blue"));
    engine.fetchOperation(999999);
    QVERIFY(details.wait(5000));
    QCOMPARE(details.last().at(0).value<rvscope::engine::OperationDetail>().summary.id, quint64(0));
}

void TestEngine::testJournalOffServesWithoutHistory()
{
    rvscope::engine::EngineOptions options;
    options.journalCapacity = 0;
    Engine engine(options);
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    QSignalSpy exported(&engine, &Engine::historyExported);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    const QByteArray created = httpRequest(engine.serverState().port, "POST", "/api/v1/namespaces/default/configmaps",
                                           R"({"metadata":{"name":"foo"}})");
    QVERIFY(created.startsWith("HTTP/1.1 201"));
    QTRY_COMPARE(engine.stats().objects, std::size_t(5));
    const QString path = QDir::temp().filePath(QStringLiteral("rvscope-nojournal-%1.jsonl").arg(QCoreApplication::applicationPid()));
    engine.exportHistory(path);
    QVERIFY(exported.wait(5000));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().isEmpty());
    QFile::remove(path);
    QCOMPARE(batches.size(), 0);
}

namespace {
// A bulk watch connection to the engine's server, its first channel open.
bool openBulkSession(QWebSocket &socket, quint16 port, const QString &watch)
{
    QSignalSpy connected(&socket, &QWebSocket::connected);
    QSignalSpy frames(&socket, &QWebSocket::textMessageReceived);
    socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/apis/bulk.k8s.io/v1/bulkgetoperations").arg(port)));
    if (!connected.wait(10000))
        return false;
    socket.sendTextMessage(watch);
    return frames.wait(10000) && frames.first().at(0).toString().contains(QLatin1String("\"channel\":1"));
}
} // namespace

void TestEngine::testBulkWatchSessionsAreReported()
{
    Engine engine;
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    QSignalSpy changed(&engine, &Engine::bulkSessionsChanged);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    const quint16 port = engine.serverState().port;
    QVERIFY(engine.bulkSessions().isEmpty());

    QWebSocket first;
    QVERIFY(openBulkSession(first, port, QStringLiteral(R"({"id":1,"watch":{"selector":{"resource":{"group":"","version":"v1",)"
                                                        R"("resource":"configmaps"},"options":{"namespace":"default"}}}})")));
    QTRY_COMPARE(engine.bulkSessions().size(), 1);
    QTRY_COMPARE(engine.bulkSessions().first().channels.size(), 1);
    const auto session = engine.bulkSessions().first();
    QCOMPARE(session.id, quint64(1));
    QCOMPARE(session.user, QStringLiteral("system:anonymous"));
    QCOMPARE(session.openChannels, 1);
    const auto channel = session.channels.first();
    QCOMPARE(channel.channel, 1);
    QCOMPARE(channel.version, QStringLiteral("v1"));
    QCOMPARE(channel.resource, QStringLiteral("configmaps"));
    QCOMPARE(channel.namespaceName, QStringLiteral("default"));
    QCOMPARE(channel.collection(), QStringLiteral("configmaps/default"));
    // Batched values: the last signal carries what the engine holds.
    QCOMPARE(changed.last().at(0).value<BulkSessionList>(), engine.bulkSessions());

    // A second connection, then a channel by name with a selector on the first.
    QWebSocket second;
    QVERIFY(openBulkSession(second, port, QStringLiteral(R"({"id":7,"watch":{"selector":{"resource":{"group":"","version":"v1",)"
                                                         R"("resource":"secrets"},"options":{}}}})")));
    first.sendTextMessage(QStringLiteral(R"({"id":2,"watch":{"selector":{"resource":{"group":"","version":"v1","resource":"configmaps"},)"
                                         R"("options":{"namespace":"default","fieldSelector":"metadata.name=foo","labelSelector":"a=b"}}}})"));
    QTRY_VERIFY(engine.bulkSessions().size() == 2 && engine.bulkSessions().first().channels.size() == 2);
    QCOMPARE(engine.bulkSessions().at(1).id, quint64(2));
    QCOMPARE(engine.bulkSessions().at(1).channels.first().collection(), QStringLiteral("secrets"));
    const auto named = engine.bulkSessions().first().channels.at(1);
    QCOMPARE(named.channel, 2);
    QCOMPARE(named.name, QStringLiteral("foo"));
    QCOMPARE(named.labelSelector, QStringLiteral("a=b"));
    QCOMPARE(named.fieldSelector, QStringLiteral("metadata.name=foo"));
    QCOMPARE(named.collection(), QStringLiteral("configmaps/default/foo"));

    // Closing a channel, then a connection: the reports follow; ids are not reused.
    first.sendTextMessage(QStringLiteral(R"({"id":3,"closeWatch":{"channel":1}})"));
    QTRY_COMPARE(engine.bulkSessions().first().openChannels, 1);
    first.close();
    QTRY_COMPARE(engine.bulkSessions().size(), 1);
    QCOMPARE(engine.bulkSessions().first().id, quint64(2));
    QWebSocket third;
    QVERIFY(openBulkSession(third, port, QStringLiteral(R"({"id":1,"watch":{"selector":{"resource":{"group":"","version":"v1",)"
                                                        R"("resource":"pods"},"options":{}}}})")));
    QTRY_COMPARE(engine.bulkSessions().size(), 2);
    QCOMPARE(engine.bulkSessions().last().id, quint64(3));

    // Stopping the server ends them all.
    engine.stopServer();
    QTRY_VERIFY(engine.bulkSessions().isEmpty());
}

void TestEngine::testSeparateRevisionSeriesAreShown()
{
    rvscope::engine::EngineOptions options;
    options.separateStorage = {QStringLiteral("events")};
    Engine engine(options);
    QSignalSpy state(&engine, &Engine::serverStateChanged);
    QSignalSpy batches(&engine, &Engine::operationsRecorded);
    QSignalSpy details(&engine, &Engine::operationDetailReady);
    engine.startServer(QHostAddress::LocalHost, 0);
    QVERIFY(state.wait(5000));
    const quint16 port = engine.serverState().port;
    QVERIFY(httpRequest(port, "POST", "/api/v1/namespaces/default/events",
                        R"({"metadata":{"name":"e1"},"involvedObject":{"kind":"Pod","name":"p"},"reason":"Started"})")
                .startsWith("HTTP/1.1 201"));
    QVERIFY(httpRequest(port, "POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"c"}})")
                .startsWith("HTTP/1.1 201"));
    // The status bar's text names the series of each number.
    QTRY_COMPARE(engine.stats().separateRevisions.size(), 1);
    const auto stats = engine.stats();
    QCOMPARE(stats.separateRevisions.first().first, QStringLiteral("events"));
    QCOMPARE(stats.revisionText(), QStringLiteral("revision %1 (events %2)")
                                       .arg(stats.revision)
                                       .arg(stats.separateRevisions.first().second));
    // An operation's detail says which series its resourceVersions count in.
    QTRY_COMPARE(collected(batches).size(), 2);
    const auto ops = collected(batches);
    engine.fetchOperation(ops[0].id);
    QVERIFY(details.wait(5000));
    QCOMPARE(details.last().at(0).value<rvscope::engine::OperationDetail>().revisionSeries, QStringLiteral("events"));
    engine.fetchOperation(ops[1].id);
    QVERIFY(details.wait(5000));
    QCOMPARE(details.last().at(0).value<rvscope::engine::OperationDetail>().revisionSeries, QStringLiteral("main"));
}

QTEST_GUILESS_MAIN(TestEngine)
#include "TestEngine.moc"
