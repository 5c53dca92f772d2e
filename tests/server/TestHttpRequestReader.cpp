// SPDX-License-Identifier: MIT
// rvscope's HTTP/1.1 reader (the bounds on heads are TestApiServer's): what it refuses
// (broken escapes and targets Go refuses, chunked bodies Go would not read, WebSocket
// upgrades without a key), and how it reads what it serves (targets and bodies as Go reads
// them, requests split anywhere or pipelined, Expect, HTTP/1.0's connections, repeated
// fields). Real sockets on 127.0.0.1.
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

class TestHttpRequestReader final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testBrokenEscapeInThePath_data();
    void testBrokenEscapeInThePath();
    void testEscapesElsewhereReachTheApi();
    void testMalformedChunkedBodyIsOneAnswerThenClose();
    void testEndlessChunkedBodyIs413();
    void testChunkedBodyWithExtensionsAndTrailerIsServed();
    void testWebSocketUpgradeNeedsAKey();
    void testTargetsAsGoReadsThem_data();
    void testTargetsAsGoReadsThem();
    void testRequestsSplitAnywhereOrPipelined();
    void testExpectContinueIsAnswered();
    void testUpgradeAfterOtherRequestsWithBareLineFeeds();
    void testHostIsRequiredOnceInHttp11();
    void testHttp10ClosesUnlessKeptAlive();
    void testHttp10WatchIsBareLinesEndedByClosing();
    void testOtherExpectationsAreRefused();
    void testRepeatedFieldKeepsItsFirstValue();
    void testRepeatedUpgradeFieldsKeepTheirFirstValue();
    void testStalledBodyIsAnsweredTimeout();
    void testHeadAnswersCarryNoBody();
    void testClosingWatchSaysSo();
};

void TestHttpRequestReader::testBrokenEscapeInThePath_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QString>("escape");
    QTest::newRow("not hex") << CONFIGMAPS + "/%zz" << "%zz";
    QTest::newRow("one digit") << CONFIGMAPS + "/a%2" << "%2";
    QTest::newRow("at the end") << CONFIGMAPS + "/a%" << "%";
    QTest::newRow("before the query") << CONFIGMAPS + "/a%4?limit=1" << "%4";
    QTest::newRow("one bad digit") << CONFIGMAPS + "/a%4g0" << "%4g";
}

void TestHttpRequestReader::testBrokenEscapeInThePath()
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

void TestHttpRequestReader::testEscapesElsewhereReachTheApi()
{
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    // Well-formed escapes reach the API decoded; the query is the API's to judge (400 for a
    // bad limit, the connection kept; a broken escape is the value as sent, not a pair
    // dropped); `%` decoded from `%25` is the registry's 400.
    socket.write(rawRequest("GET", CONFIGMAPS + "?limit=%2D1x"));
    QCOMPARE(readReply(socket).status, 400);
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

void TestHttpRequestReader::testMalformedChunkedBodyIsOneAnswerThenClose()
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

void TestHttpRequestReader::testEndlessChunkedBodyIs413()
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

void TestHttpRequestReader::testChunkedBodyWithExtensionsAndTrailerIsServed()
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
    // Trailer fields are refused (no Kubernetes client sends trailers; Go reads them).
    QTcpSocket trailered;
    trailered.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(trailered.waitForConnected(5000));
    const QByteArray other = R"({"metadata":{"name":"trailered"}})";
    trailered.write(CHUNKED_POST + QByteArray::number(other.size(), 16) + "\r\n" + other
                    + "\r\n0\r\nX-Checksum: none\r\n\r\n");
    QCOMPARE(readReply(trailered).status, 400);
}

void TestHttpRequestReader::testWebSocketUpgradeNeedsAKey()
{
    Fixture fixture;
    const QByteArray upgrade = "GET " + CONFIGMAPS + "?watch=true HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                                                     "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n";
    // x/net/websocket, under the apiserver's watch, answers 400 ("mismatch challenge/response").
    const Exchange refused = send(fixture.port, upgrade + "\r\n");
    QCOMPARE(statusOf(refused.received), 400);
    QCOMPARE(refused.status()["message"], "mismatch challenge/response");
    QVERIFY(refused.closed);
    const QByteArray key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    const Exchange version = send(fixture.port, QByteArray(upgrade).replace("Version: 13", "Version: 8") + key + "\r\n");
    QCOMPARE(statusOf(version.received), 400);
    QCOMPARE(version.status()["message"], "missing or bad WebSocket Version");
    const Exchange method = send(fixture.port, "POST" + upgrade.mid(3) + key + "\r\n");
    QCOMPARE(statusOf(method.received), 405);
    QCOMPARE(method.status()["message"], "bad method");
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write(upgrade + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
    QByteArray received;
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QCOMPARE(statusOf(received), 101);
}

void TestHttpRequestReader::testTargetsAsGoReadsThem_data()
{
    QTest::addColumn<QByteArray>("requestLine");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("message"); // of a refusal
    QTest::newRow("absolute path") << QByteArray("GET /version HTTP/1.1") << 200 << QByteArray();
    // url.ParseRequestURI: an absolute URL's path is the path; its host is no part of it.
    QTest::newRow("absolute URL") << QByteArray("GET http://elsewhere:1/version HTTP/1.1") << 200 << QByteArray();
    QTest::newRow("scheme, absolute path") << QByteArray("GET http:/version HTTP/1.1") << 200 << QByteArray();
    QTest::newRow("control byte") << QByteArray("GET /vers\x01ion HTTP/1.1") << 400
                                  << QByteArray("parse \"/vers\x01ion\": net/url: invalid control character in URL");
    QTest::newRow("relative") << QByteArray("GET version HTTP/1.1") << 400
                              << QByteArray(R"(parse "version": invalid URI for request)");
    QTest::newRow("empty") << QByteArray("GET  HTTP/1.1") << 400 << QByteArray(R"(parse "": invalid URI for request)");
    // parseRequestLine cuts at the first two spaces: the rest is no version.
    QTest::newRow("space in target") << QByteArray("GET /ver sion HTTP/1.1") << 400
                                     << QByteArray(R"(malformed HTTP version "sion HTTP/1.1")");
    // A '#' is part of the path (a request URI has no fragment), so no such path.
    QTest::newRow("hash") << QByteArray("GET /version#x HTTP/1.1") << 404 << QByteArray();
    // Go's ReadLine takes off one line end: a line of "\r\r\n" is a field without a colon.
    QTest::newRow("CR CR LF") << QByteArray("GET /version HTTP/1.1\r\nX: y\r\n\r") << 400
                              << QByteArray("malformed MIME header line: \r");
    QTest::newRow("CR in a value") << QByteArray("GET /version HTTP/1.1\r\nX: y\r") << 400
                                   << QByteArray("invalid header field value for \"X\"");
    // The query is kept as sent, and decoded as url.ParseQuery does: `a in (b`, no selector.
    QTest::newRow("query") << QByteArray("GET " + CONFIGMAPS + "?labelSelector=a+in+%28b HTTP/1.1") << 400
                           << QByteArray();
}

void TestHttpRequestReader::testTargetsAsGoReadsThem()
{
    QFETCH(QByteArray, requestLine);
    QFETCH(int, status);
    QFETCH(QByteArray, message);
    Fixture fixture;
    const Exchange exchange = send(fixture.port, requestLine + "\r\nHost: x\r\nConnection: close\r\n\r\n");
    QCOMPARE(statusOf(exchange.received), status);
    if (!message.isEmpty())
        QCOMPARE(QByteArray::fromStdString(exchange.status().value("message", std::string())), message);
    QVERIFY(exchange.closed);
}

void TestHttpRequestReader::testRequestsSplitAnywhereOrPipelined()
{
    Fixture fixture;
    const QByteArray object = R"({"metadata":{"name":"split"},"data":{"a":"1"}})";
    const QByteArray requests = rawRequest("POST", CONFIGMAPS, object) + rawRequest("GET", CONFIGMAPS + "/split")
        + "\r\n" + rawRequest("DELETE", CONFIGMAPS + "/split");
    // Byte by byte, each byte its own segment (TCP_NODELAY; the server reads them apart).
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    for (const char c : requests) {
        socket.write(&c, 1);
        socket.flush();
        QTest::qWait(0);
    }
    QByteArray received;
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.count("HTTP/1.1 ") == 3; }));
    QVERIFY2(received.startsWith("HTTP/1.1 201"), received.constData());
    QCOMPARE(received.count("HTTP/1.1 200"), 2);
    QVERIFY(received.mid(received.indexOf("HTTP/1.1 200")).contains("\"name\":\"split\""));
    // All three in one segment: answered in order, the GET seeing the POST.
    socket.write(requests);
    received.clear();
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.count("HTTP/1.1 ") == 3; }));
    const qsizetype created = received.indexOf("HTTP/1.1 201");
    const qsizetype read = received.indexOf("HTTP/1.1 200");
    QVERIFY2(created == 0 && read > created && received.indexOf("HTTP/1.1 200", read + 1) > read, received.constData());
}

void TestHttpRequestReader::testExpectContinueIsAnswered()
{
    Fixture fixture;
    const QByteArray object = R"({"metadata":{"name":"expected"}})";
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    // As curl sends a large body: the head, then the body once the server says so.
    socket.write("POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 "Expect: 100-continue\r\nContent-Length: " + QByteArray::number(object.size()) + "\r\n\r\n");
    QByteArray received;
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QCOMPARE(received, QByteArray("HTTP/1.1 100 Continue\r\n\r\n"));
    socket.write(object);
    QCOMPARE(readReply(socket).status, 201);
}

void TestHttpRequestReader::testUpgradeAfterOtherRequestsWithBareLineFeeds()
{
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    // A request served, blank lines, then an upgrade whose lines end in LF alone (Go reads
    // them; the head goes back to the WebSocket server with CRLF).
    socket.write(rawRequest("GET", "/version") + "\r\n\n" + "GET " + CONFIGMAPS
                 + "?watch=true HTTP/1.1\nHost: x\nUpgrade: websocket\nConnection: Upgrade\n"
                   "Sec-WebSocket-Version: 13\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\n\n");
    QByteArray received;
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.contains("HTTP/1.1 101"); }));
    QVERIFY2(received.startsWith("HTTP/1.1 200"), received.constData());
}

void TestHttpRequestReader::testHostIsRequiredOnceInHttp11()
{
    Fixture fixture;
    const Exchange none = send(fixture.port, "GET /version HTTP/1.1\r\nConnection: close\r\n\r\n");
    QCOMPARE(statusOf(none.received), 400);
    QCOMPARE(none.status()["message"], "missing required Host header");
    const Exchange two = send(fixture.port, "GET /version HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
    QCOMPARE(statusOf(two.received), 400);
    QCOMPARE(two.status()["message"], "too many Host headers");
    QCOMPARE(statusOf(send(fixture.port, "GET /version HTTP/1.0\r\nConnection: close\r\n\r\n").received), 200);
}

void TestHttpRequestReader::testHttp10ClosesUnlessKeptAlive()
{
    // Go's server: an HTTP/1.0 answer closes the connection unless the request said
    // "Connection: keep-alive", and then the answer says so too; its status line is HTTP/1.0.
    Fixture fixture;
    const Exchange plain = send(fixture.port, "GET /version HTTP/1.0\r\n\r\n");
    QCOMPARE(statusOf(plain.received), 200);
    QVERIFY2(plain.received.startsWith("HTTP/1.0 200 OK\r\n"), plain.received.constData());
    QVERIFY(!plain.received.contains("\r\nConnection:"));
    QVERIFY(plain.closed);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write("GET /version HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n");
    QByteArray received;
    QVERIFY(testing::readUntil(socket, received, [](const QByteArray &b) { return b.contains("\"gitVersion\""); }));
    QVERIFY2(received.contains("\r\nConnection: keep-alive\r\n"), received.constData());
    QVERIFY(socket.state() == QAbstractSocket::ConnectedState);
    socket.write("GET /version HTTP/1.0\r\nExpect: 100-continue\r\n\r\n"); // no 100 for HTTP/1.0
    received.clear();
    QVERIFY(readUntilClosed(socket, received, 3000));
    QVERIFY2(received.startsWith("HTTP/1.0 200 OK\r\n"), received.constData());
    // Every Connection field counts (Go's shouldClose reads them all), not only the first.
    const Exchange twoFields = send(fixture.port, "GET /version HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n"
                                                  "Connection: close\r\n\r\n");
    QCOMPARE(statusOf(twoFields.received), 200);
    QVERIFY(twoFields.closed);
}

void TestHttpRequestReader::testHttp10WatchIsBareLinesEndedByClosing()
{
    // HTTP/1.0 has no chunked encoding: Go's server writes a body of unknown length bare and
    // closes the connection to end it (kept alive or not).
    Fixture fixture;
    const QByteArray create = "POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                                     "Connection: close\r\nContent-Length: 26\r\n\r\n"
                                                     R"({"metadata":{"name":"a"}})" "\n";
    QCOMPARE(statusOf(send(fixture.port, create).received), 201);
    for (const QByteArray &connection : {QByteArray(), QByteArray("Connection: keep-alive\r\n")}) {
        const Exchange watch =
            send(fixture.port, "GET " + CONFIGMAPS + "?watch=true&timeoutSeconds=1 HTTP/1.0\r\n" + connection + "\r\n");
        QVERIFY2(watch.closed, watch.received.constData());
        const qsizetype bodyAt = watch.received.indexOf("\r\n\r\n") + 4;
        const QByteArray head = watch.received.left(bodyAt);
        QVERIFY2(head.startsWith("HTTP/1.0 200 OK\r\n"), head.constData());
        QVERIFY2(!head.contains("Transfer-Encoding") && !head.contains("Connection:"), head.constData());
        const QByteArray body = watch.received.mid(bodyAt);
        QVERIFY2(body.startsWith(R"({"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap")"), body.constData());
        QVERIFY2(body.endsWith("}}\n") && body.count('\n') == 1, body.constData());
    }
}

void TestHttpRequestReader::testOtherExpectationsAreRefused()
{
    // Go answers 417 to an expectation other than 100-continue before any handler runs,
    // and closes: the body is not read, nothing is created.
    Fixture fixture;
    const QByteArray object = R"({"metadata":{"name":"expected"}})";
    const Exchange refused = send(fixture.port, "POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\n"
                                                "Content-Type: application/json\r\nExpect: 200-ok\r\nContent-Length: "
                                                + QByteArray::number(object.size()) + "\r\n\r\n" + object);
    QCOMPARE(statusOf(refused.received), 417);
    QVERIFY(refused.received.startsWith("HTTP/1.1 417 Expectation Failed\r\n"));
    QCOMPARE(refused.status().value("message", std::string()), std::string("unsupported expectation \"200-ok\""));
    QVERIFY(refused.closed);
    QCOMPARE(statusOf(send(fixture.port, rawRequest("GET", CONFIGMAPS + "/expected", {}, {"Connection: close"})).received), 404);
    // 100-continue among other tokens is still 100-continue (Go's hasToken).
    const Exchange listed = send(fixture.port, "GET " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\n"
                                               "Expect: 100-Continue, x\r\nConnection: close\r\n\r\n");
    QCOMPARE(statusOf(listed.received), 200);
    // Over HTTP/1.0: Go's response writer answers the 417 (sendExpectationFailed sets
    // "Connection: close" itself) and the apiserver's 413, so their status line is HTTP/1.0;
    // the refusals Go writes as fixed text stay HTTP/1.1.
    const Exchange old = send(fixture.port, "POST " + CONFIGMAPS + " HTTP/1.0\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}");
    QVERIFY2(old.received.startsWith("HTTP/1.0 417 Expectation Failed\r\n"), old.received.constData());
    QVERIFY2(old.received.contains("\r\nConnection: close\r\n"), old.received.constData());
    const Exchange large = send(fixture.port, "POST " + CONFIGMAPS + " HTTP/1.0\r\nContent-Length: 99999999\r\n\r\n");
    QVERIFY2(large.received.startsWith("HTTP/1.0 413 "), large.received.constData());
    QVERIFY2(!large.received.contains("\r\nConnection:"), large.received.constData());
    const Exchange malformed = send(fixture.port, "GET /version HTTP/1.0\r\nBad Field: x\r\n\r\n");
    QVERIFY2(malformed.received.startsWith("HTTP/1.1 400 "), malformed.received.constData());
}

void TestHttpRequestReader::testRepeatedUpgradeFieldsKeepTheirFirstValue()
{
    // The apiserver tells a WebSocket request (wsstream.IsWebSocketRequest) and x/net/websocket
    // checks its handshake by Header.Get: a repeated field counts with its first value, here
    // and in the handshake the WebSocket server answers.
    Fixture fixture;
    const auto statusFor = [&fixture](const QByteArray &target, const QByteArray &fields) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, fixture.port);
        if (!socket.waitForConnected(5000))
            return 0;
        socket.write("GET " + target + " HTTP/1.1\r\nHost: x\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     + fields + "\r\n");
        QByteArray received;
        if (!testing::readUntil(socket, received, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }))
            return 0;
        return statusOf(received);
    };
    const QByteArray watch = CONFIGMAPS + "?watch=true";
    const QByteArray upgrade = "Connection: Upgrade\r\n";
    QCOMPARE(statusFor(watch, upgrade + "Upgrade: websocket\r\nUpgrade: h2c\r\nSec-WebSocket-Version: 13\r\n"), 101);
    QCOMPARE(statusFor(watch, upgrade + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Version: 8\r\n"),
             101);
    QCOMPARE(statusFor(watch, upgrade + "Upgrade: websocket\r\nSec-WebSocket-Version: 8\r\nSec-WebSocket-Version: 13\r\n"),
             400);
    // Not a WebSocket request at all: a plain list.
    QCOMPARE(statusFor(CONFIGMAPS, upgrade + "Upgrade: h2c\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"), 200);
    QCOMPARE(statusFor(CONFIGMAPS, "Connection: keep-alive\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                                   "Sec-WebSocket-Version: 13\r\n"),
             200);
}

void TestHttpRequestReader::testStalledBodyIsAnsweredTimeout()
{
    // The apiserver's timeout filter answers a request whose handler still waits for its body
    // after --request-timeout: 504 Timeout, nothing of it handled; the connection closes.
    Fixture fixture;
    server::Limits limits;
    limits.requestTimeoutMs = 1000;
    fixture.server->setLimits(limits);
    const QByteArray object = R"({"metadata":{"name":"stalled"}})";
    const QByteArray head = "POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    const QByteArray length = "Content-Length: " + QByteArray::number(object.size()) + "\r\n\r\n";
    QElapsedTimer timer;
    timer.start();
    const Exchange stalled = send(fixture.port, head + length + object.left(10));
    QVERIFY(stalled.closed);
    QVERIFY2(timer.elapsed() >= 900, "answered before the timeout");
    QVERIFY(stalled.received.startsWith("HTTP/1.1 504 "));
    QCOMPARE(stalled.status()["reason"], "Timeout");
    QCOMPARE(stalled.status()["message"], "Timeout: request did not complete within requested timeout - context deadline exceeded");
    // A chunked body that stops coming, too; over HTTP/1.0 the answer says HTTP/1.0, as the
    // filter's answer goes through the response writer.
    const Exchange chunked = send(fixture.port, head + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"met");
    QCOMPARE(statusOf(chunked.received), 504);
    QVERIFY(chunked.closed);
    const Exchange http10 = send(fixture.port, QByteArray(head).replace("HTTP/1.1", "HTTP/1.0") + length + "{");
    QVERIFY2(http10.received.startsWith("HTTP/1.0 504 "), http10.received.left(40).constData());
    // A body that comes whole in time is served, on a connection that then waits longer
    // than the timeout for its next request (only a body is timed, from its head on).
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write(head + length + object.left(10));
    QTest::qWait(100);
    socket.write(object.mid(10));
    QByteArray created;
    QVERIFY(testing::readUntil(socket, created, [](const QByteArray &b) { return b.contains("\"stalled\""); }));
    QCOMPARE(statusOf(created), 201);
    QTest::qWait(1200);
    QByteArray read;
    socket.write(rawRequest("GET", CONFIGMAPS + "/stalled"));
    QVERIFY(testing::readUntil(socket, read, [](const QByteArray &b) { return b.contains("\"stalled\""); }));
    QCOMPARE(statusOf(read), 200);
    // A body behind an answer still owed (a watch streaming for 2 s) is timed from that
    // answer on, as Go reads the request only then: its rest, 1.5 s later, is in time.
    QTcpSocket behind;
    behind.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(behind.waitForConnected(5000));
    const QByteArray late = R"({"metadata":{"name":"behind-a-watch"}})";
    behind.write(rawRequest("GET", CONFIGMAPS + "?watch=true&timeoutSeconds=2") + head + "Content-Length: "
                 + QByteArray::number(late.size()) + "\r\n\r\n" + late.left(5));
    QTest::qWait(1500);
    behind.write(late.mid(5));
    QByteArray answers;
    QVERIFY(testing::readUntil(
        behind, answers, [](const QByteArray &b) { return b.contains("HTTP/1.1 201 ") || b.contains("HTTP/1.1 504 "); },
        8000));
    QVERIFY2(answers.contains("HTTP/1.1 201 "), answers.right(300).constData());
}

void TestHttpRequestReader::testHeadAnswersCarryNoBody()
{
    // Go's server eats what a handler writes for HEAD and keeps the Content-Length: a body
    // would be read as the start of the next answer on the connection.
    Fixture fixture;
    const Exchange exchange = send(fixture.port, rawRequest("HEAD", CONFIGMAPS) + rawRequest("HEAD", "/version")
                                                     + rawRequest("GET", "/version", {}, {"Connection: close"}));
    QCOMPARE(exchange.answers(), 3);
    const qsizetype second = exchange.received.indexOf("HTTP/1.1 ", 1);
    const qsizetype third = exchange.received.indexOf("HTTP/1.1 ", second + 1);
    const QByteArray first = exchange.received.left(second);
    QVERIFY2(first.startsWith("HTTP/1.1 405 ") && first.endsWith("\r\n\r\n"), first.constData());
    QVERIFY2(!first.contains("Content-Length: 0\r\n"), first.constData()); // the length of the body it would carry
    const QByteArray version = exchange.received.mid(second, third - second);
    QVERIFY2(version.startsWith("HTTP/1.1 405 ") && version.endsWith("\r\n\r\n"), version.constData());
    QVERIFY2(exchange.received.mid(third).contains("\"gitVersion\""), exchange.received.constData());
}

void TestHttpRequestReader::testClosingWatchSaysSo()
{
    // Go's server says "Connection: close" on an HTTP/1.1 answer that closes, a watch too.
    Fixture fixture;
    const Exchange watch = send(fixture.port, rawRequest("GET", CONFIGMAPS + "?watch=true&timeoutSeconds=1", {}, {"Connection: close"}));
    QVERIFY2(watch.closed, watch.received.constData());
    const QByteArray head = watch.received.left(watch.received.indexOf("\r\n\r\n") + 4);
    QVERIFY2(head.startsWith("HTTP/1.1 200 OK\r\n") && head.contains("\r\nConnection: close\r\n")
                 && head.contains("\r\nTransfer-Encoding: chunked\r\n"),
             head.constData());
    QVERIFY2(watch.received.endsWith("0\r\n\r\n"), watch.received.constData());
}

void TestHttpRequestReader::testRepeatedFieldKeepsItsFirstValue()
{
    // Go's Header.Get, which the apiserver reads fields with, takes a repeated field's first value.
    Fixture fixture;
    const QByteArray head = "GET " + CONFIGMAPS + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
    QCOMPARE(statusOf(send(fixture.port, head + "Accept: application/json\r\nAccept: text/html\r\n\r\n").received), 200);
    QCOMPARE(statusOf(send(fixture.port, head + "Accept: text/html\r\nAccept: application/json\r\n\r\n").received), 406);
}

QTEST_GUILESS_MAIN(TestHttpRequestReader)
#include "TestHttpRequestReader.moc"
