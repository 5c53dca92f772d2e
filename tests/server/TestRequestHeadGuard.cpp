// SPDX-License-Identifier: MIT
// What the guard refuses before Qt's HTTP parser reads a request (the bounds on heads are
// TestApiServer's): broken escapes in the target, chunked bodies Go would not read, and
// WebSocket upgrades without a key. Real sockets on 127.0.0.1.
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include "RawHttp.h"
#include "ServerFixture.h"

using namespace rvscope;

namespace {
using testing::readReply;
using testing::readUntilClosed;
using testing::rawRequest;
using testing::statusOf;
using Fixture = testing::ServerFixture;

const QByteArray CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
const QByteArray CHUNKED_POST = "POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                                       "Transfer-Encoding: chunked\r\n\r\n";

struct Exchange {
    QByteArray received; // everything the server sent
    bool closed = false; // and then it closed the connection
    int answers() const { return int(received.count("HTTP/1.1 ")); }
    nlohmann::json status() const
    {
        const qsizetype body = received.indexOf("\r\n\r\n");
        return nlohmann::json::parse(received.mid(body + 4).toStdString(), nullptr, false);
    }
};

// Sends `data` on a connection of its own and reads until the server closes it (or 3 s).
Exchange send(quint16 port, const QByteArray &data)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(data);
    Exchange out;
    out.closed = readUntilClosed(socket, out.received, 3000);
    return out;
}
} // namespace

class TestRequestHeadGuard final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testBrokenEscapeInThePath_data();
    void testBrokenEscapeInThePath();
    void testEscapesElsewhereAreNotTheGuards();
    void testMalformedChunkedBodyIsOneAnswerThenClose();
    void testEndlessChunkedBodyIs413();
    void testChunkedBodyWithExtensionsAndTrailerIsServed();
    void testWebSocketUpgradeNeedsAKey();
};

void TestRequestHeadGuard::testBrokenEscapeInThePath_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QString>("escape");
    QTest::newRow("not hex") << CONFIGMAPS + "/%zz" << "%zz";
    QTest::newRow("one digit") << CONFIGMAPS + "/a%2" << "%2";
    QTest::newRow("at the end") << CONFIGMAPS + "/a%" << "%";
    QTest::newRow("before the query") << CONFIGMAPS + "/a%4?limit=1" << "%4";
    QTest::newRow("one bad digit") << CONFIGMAPS + "/a%4g0" << "%4g";
}

void TestRequestHeadGuard::testBrokenEscapeInThePath()
{
    QFETCH(QByteArray, target);
    QFETCH(QString, escape);
    Fixture fixture;
    // Go's url.ParseRequestURI refuses the target before any handler: 400, and the
    // connection closes (the pipelined request is never read).
    const Exchange refused = send(fixture.port, rawRequest("GET", target) + rawRequest("GET", "/version"));
    QCOMPARE(refused.answers(), 1);
    QCOMPARE(statusOf(refused.received), 400);
    QCOMPARE(refused.status()["message"], "invalid URL escape \"" + escape.toStdString() + '"');
    QVERIFY(refused.closed);
}

void TestRequestHeadGuard::testEscapesElsewhereAreNotTheGuards()
{
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    // Well-formed escapes reach the API decoded; the query is the API's to judge (400 for a
    // bad limit, the connection kept); `%` decoded from `%25` is the registry's 400.
    socket.write(rawRequest("GET", CONFIGMAPS + "?limit=%zz"));
    QCOMPARE(readReply(socket).status, 400);
    socket.write(rawRequest("GET", CONFIGMAPS + "/a%25b"));
    const testing::HttpReply named = readReply(socket);
    QCOMPARE(named.status, 400);
    QCOMPARE(nlohmann::json::parse(named.body.toStdString())["message"],
             "Name parameter invalid: \"a%b\": may not contain '%'");
    socket.write(rawRequest("GET", CONFIGMAPS + "/%66oo"));
    QCOMPARE(readReply(socket).status, 404); // configmaps "foo" not found
}

void TestRequestHeadGuard::testMalformedChunkedBodyIsOneAnswerThenClose()
{
    Fixture fixture;
    fixture.createConfigMap("victim");
    // Qt's parser would read the `zz` chunk as an empty body and the DELETE after it as a
    // request of its own. The apiserver's handler fails reading the body: 500 with Go's
    // chunked reader's error and no reason, and Go closes the connection.
    const Exchange refused = send(fixture.port, CHUNKED_POST + "zz\r\n"
                                                    + rawRequest("DELETE", CONFIGMAPS + "/victim") + "0\r\n\r\n");
    QCOMPARE(refused.answers(), 1);
    QCOMPARE(statusOf(refused.received), 500);
    const nlohmann::json status = refused.status();
    QCOMPARE(status["message"], "invalid byte in chunk length");
    QVERIFY(!status.contains("reason"));
    QVERIFY(refused.closed);
    QVERIFY(testing::run(fixture.store("configmaps")->get("default", "victim")).ok());
}

void TestRequestHeadGuard::testEndlessChunkedBodyIs413()
{
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write(CHUNKED_POST);
    const QByteArray chunk = "100000\r\n" + QByteArray(1 << 20, 'x') + "\r\n"; // 1 MiB a chunk
    for (int i = 0; i < 4; ++i)
        socket.write(chunk);
    QByteArray received;
    QVERIFY(readUntilClosed(socket, received, 5000));
    QCOMPARE(statusOf(received), 413);
    QVERIFY(received.contains("Request entity too large: limit is 3145728"));
}

void TestRequestHeadGuard::testChunkedBodyWithExtensionsAndTrailerIsServed()
{
    Fixture fixture;
    const QByteArray object = R"({"metadata":{"name":"chunked"},"data":{"a":"1"}})";
    const QByteArray half = object.left(20);
    const QByteArray rest = object.mid(20);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write(CHUNKED_POST + QByteArray::number(half.size(), 16) + ";part=1\r\n" + half + "\r\n"
                 + QByteArray::number(rest.size(), 16) + "\r\n" + rest + "\r\n0\r\n\r\n");
    QCOMPARE(readReply(socket).status, 201);
    // The connection goes on: the next request's head is counted afresh.
    socket.write(rawRequest("GET", CONFIGMAPS + "/chunked"));
    QCOMPARE(readReply(socket).status, 200);
    // Trailer fields are refused: Qt 6.4's parser would read them as the next request (no
    // Kubernetes client sends trailers; Go reads them).
    QTcpSocket trailered;
    trailered.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(trailered.waitForConnected(5000));
    const QByteArray other = R"({"metadata":{"name":"trailered"}})";
    trailered.write(CHUNKED_POST + QByteArray::number(other.size(), 16) + "\r\n" + other
                    + "\r\n0\r\nX-Checksum: none\r\n\r\n");
    QCOMPARE(readReply(trailered).status, 400);
}

void TestRequestHeadGuard::testWebSocketUpgradeNeedsAKey()
{
    Fixture fixture;
    const QByteArray upgrade = "GET " + CONFIGMAPS + "?watch=true HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                                                     "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n";
    // x/net/websocket, under the apiserver's watch, answers 400 ("mismatch challenge/response").
    const Exchange refused = send(fixture.port, upgrade + "\r\n");
    QCOMPARE(statusOf(refused.received), 400);
    QCOMPARE(refused.status()["message"], "mismatch challenge/response");
    QVERIFY(refused.closed);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write(upgrade + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
    QByteArray received;
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QCOMPARE(statusOf(received), 101);
}

QTEST_GUILESS_MAIN(TestRequestHeadGuard)
#include "TestRequestHeadGuard.moc"
