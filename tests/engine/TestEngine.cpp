// SPDX-License-Identifier: MIT
// The Engine through its public API only: a real core thread, real sockets, signals waited
// for with QSignalSpy (no sleeps). Server, stats, journal, watches and bulk sessions here;
// scenarios, clients and history files in TestEngineScenarios.
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>
#include <QtTest/QtTest>

#include "EngineTestSupport.h"
#include "RawHttp.h"
#include "engine/Engine.h"

using rvscope::engine::BulkSessionList;
using rvscope::engine::ClientLaunch;
using rvscope::engine::CoreStats;
using rvscope::engine::VerdictList;
using rvscope::engine::Engine;
using rvscope::engine::ServerState;
using rvscope::engine::test::collected;

namespace {
// One request on its own connection: the whole raw answer (empty when none came).
QByteArray httpRequest(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {})
{
    const rvscope::testing::HttpReply reply = rvscope::testing::exchange(port, method, path, body);
    return reply.status == 0 ? QByteArray() : reply.headers + "\r\n\r\n" + reply.body;
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
    watch.write(rvscope::testing::rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=true"));
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
    options.journalSize = 0;
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
    // The client's end of the connection, as an access log names it.
    QCOMPARE(session.peer, QStringLiteral("127.0.0.1:%1").arg(first.localPort()));
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
