// SPDX-License-Identifier: MIT
// The Engine through its public API only: a real core thread, real sockets, signals waited
// for with QSignalSpy (no sleeps).
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include "engine/Engine.h"

using rvscope::engine::CoreStats;
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

QTEST_GUILESS_MAIN(TestEngine)
#include "TestEngine.moc"
