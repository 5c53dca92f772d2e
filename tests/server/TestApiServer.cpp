// SPDX-License-Identifier: MIT
// The HTTP/WebSocket transport with real sockets on 127.0.0.1: keep-alive, chunked watch
// streams, WebSocket watch, timeouts and shutdown, garbage on the wire.
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>

#include "RawHttp.h"
#include "ServerFixture.h"
#include "server/WatchTransports.h"

using namespace rvscope;

namespace {
using testing::readUntil;
using testing::readUntilClosed;
using testing::statusOf;
using testing::rawRequest;
using Fixture = testing::ServerFixture;

const QByteArray CM = R"({"metadata":{"name":"foo"},"data":{"a":"1"}})";

// The lines a chunked stream's body (after its head) carries, each chunk checked: its size,
// then CRLF, that many bytes ending in a newline, CRLF. Stops at what has not fully arrived.
QList<QByteArray> chunkedLines(const QByteArray &stream, bool &wellFramed)
{
    QList<QByteArray> lines;
    wellFramed = true;
    qsizetype at = stream.indexOf("\r\n\r\n");
    if (at < 0)
        return lines;
    at += 4;
    for (;;) {
        const qsizetype sizeEnd = stream.indexOf("\r\n", at);
        if (sizeEnd < 0)
            return lines;
        bool parsed = false;
        const qsizetype size = stream.mid(at, sizeEnd - at).toLongLong(&parsed, 16);
        if (!parsed || size <= 0) {
            wellFramed = parsed && size == 0;
            return lines;
        }
        if (stream.size() < sizeEnd + 2 + size + 2)
            return lines;
        const QByteArray data = stream.mid(sizeEnd + 2, size);
        if (!data.endsWith('\n') || stream.mid(sizeEnd + 2 + size, 2) != "\r\n") {
            wellFramed = false;
            return lines;
        }
        lines.append(data.chopped(1));
        at = sizeEnd + 2 + size + 2;
    }
}
} // namespace

class TestApiServer final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testKeepAliveServesSeveralRequests();
    void testChunkedWatchStream();
    void testEventsFanOutFramedAlike();
    void testWritesDuringARoundReachEveryWatchInOrder();
    void testWatchTimeoutEndsStream();
    void testShutdownEndsWatches();
    void testWebSocketWatch();
    void testGarbageDoesNotStopTheServer();
    void testWatchLimitRefusesWith429();
    void testMutatingRequestsInFlightAreBounded();
    void testIdleKeepAliveConnectionIsClosedButWatchesStay();
    void testOversizedHeadersGet431();
    void testRequestHeadBounds_data();
    void testRequestHeadBounds();
    void testHeadsAreBoundedOnePerRequest();
    void testStalledWatcherGets410WhileOthersContinue();
};

void TestApiServer::testKeepAliveServesSeveralRequests()
{
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    QByteArray buffer;
    socket.write(rawRequest("POST", "/api/v1/namespaces/default/configmaps", CM));
    QVERIFY(readUntil(socket, buffer, [](const QByteArray &b) { return b.contains("\"foo\""); }));
    QCOMPARE(statusOf(buffer), 201);
    buffer.clear();
    socket.write(rawRequest("GET", "/api/v1/namespaces/default/configmaps/foo"));
    QVERIFY(readUntil(socket, buffer, [](const QByteArray &b) { return b.contains("\"foo\""); }));
    QCOMPARE(statusOf(buffer), 200);
    QVERIFY(buffer.contains("Content-Length: "));
}

void TestApiServer::testChunkedWatchStream()
{
    Fixture fixture;
    QTcpSocket watcher;
    watcher.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(watcher.waitForConnected(5000));
    watcher.write(rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=true"));
    QByteArray stream;
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QCOMPARE(statusOf(stream), 200);
    QVERIFY(stream.contains("Transfer-Encoding: chunked"));

    QTcpSocket writer;
    writer.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(writer.waitForConnected(5000));
    writer.write(rawRequest("POST", "/api/v1/namespaces/default/configmaps", CM));
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.contains("\"type\":\"ADDED\""); }));
    // Each event is one chunk ending in a newline (the Python client splits on it).
    QVERIFY(stream.contains("}\n\r\n"));
}

void TestApiServer::testEventsFanOutFramedAlike()
{
    // Three watches, events committed in one pass and one by one: each stream gets every
    // event, each in a chunk of its own, whether its bytes are shared with the other
    // watches (one event unsent) or gathered (several).
    Fixture fixture;
    std::vector<std::unique_ptr<QTcpSocket>> watchers;
    std::vector<QByteArray> streams(3);
    for (int i = 0; i < 3; ++i) {
        watchers.push_back(std::make_unique<QTcpSocket>());
        watchers.back()->connectToHost(QHostAddress::LocalHost, fixture.port);
        QVERIFY(watchers.back()->waitForConnected(5000));
        watchers.back()->write(rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=true"));
        QVERIFY(readUntil(*watchers.back(), streams[std::size_t(i)],
                          [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    }
    QTRY_COMPARE(fixture.server->openWatchCount(), std::size_t(3));
    QTcpSocket writer;
    writer.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(writer.waitForConnected(5000));
    QByteArray pipelined;
    for (int n = 0; n < 3; ++n)
        pipelined += rawRequest("POST", "/api/v1/namespaces/default/configmaps",
                                R"({"metadata":{"name":"together-)" + QByteArray::number(n) + R"("}})");
    writer.write(pipelined);
    QByteArray answers;
    QVERIFY(readUntil(writer, answers, [](const QByteArray &b) { return b.count("HTTP/1.1 201") == 3; }));
    writer.write(rawRequest("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"alone"}})"));
    for (std::size_t i = 0; i < streams.size(); ++i) {
        QVERIFY(readUntil(*watchers[i], streams[i], [](const QByteArray &b) {
            bool framed = false;
            return chunkedLines(b, framed).size() == 4 || !framed;
        }));
        bool framed = false;
        const QList<QByteArray> lines = chunkedLines(streams[i], framed);
        QVERIFY(framed);
        QCOMPARE(lines.size(), 4);
        for (int n = 0; n < 3; ++n)
            QVERIFY(lines[n].contains("\"name\":\"together-" + QByteArray::number(n) + '"'));
        QVERIFY(lines[3].contains("\"name\":\"alone\""));
        QCOMPARE(lines, chunkedLines(streams[0], framed));
    }
}

void TestApiServer::testWritesDuringARoundReachEveryWatchInOrder()
{
    // More watches than one slice of a round of writes (HttpWatchTransport::FLUSH_SLICE),
    // and writes sent while rounds are written (so some are answered between slices, their
    // events joining the watches the round has not reached and waiting a round for the
    // others): each watch gets every event once, and all in the same order. (That writes are
    // answered between slices at all is what bench_http's watch rows measure.)
    Fixture fixture;
    const int watches = int(server::HttpWatchTransport::FLUSH_SLICE) * 3 + 5;
    std::vector<std::unique_ptr<QTcpSocket>> watchers;
    auto streams = std::vector<QByteArray>(std::size_t(watches));
    for (int i = 0; i < watches; ++i) {
        watchers.push_back(std::make_unique<QTcpSocket>());
        watchers.back()->connectToHost(QHostAddress::LocalHost, fixture.port);
        QVERIFY(watchers.back()->waitForConnected(5000));
        watchers.back()->write(rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=true"));
    }
    QTRY_COMPARE_WITH_TIMEOUT(fixture.server->openWatchCount(), std::size_t(watches), 10000);
    std::vector<std::unique_ptr<QTcpSocket>> writers;
    constexpr int WRITES = 12;
    for (int n = 0; n < WRITES; ++n) {
        // Each write on a connection of its own, sent while earlier events are being written.
        writers.push_back(std::make_unique<QTcpSocket>());
        writers.back()->connectToHost(QHostAddress::LocalHost, fixture.port);
        QVERIFY(writers.back()->waitForConnected(5000));
        writers.back()->write(rawRequest("POST", "/api/v1/namespaces/default/configmaps",
                                         R"({"metadata":{"name":"w-)" + QByteArray::number(n) + R"("}})"));
        QCoreApplication::processEvents();
    }
    for (auto &writer : writers) {
        QByteArray answer;
        QVERIFY(readUntil(*writer, answer, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
        QCOMPARE(statusOf(answer), 201);
    }
    std::vector<QByteArray> expected;
    for (int i = 0; i < watches; ++i) {
        QByteArray &stream = streams[std::size_t(i)];
        QVERIFY(readUntil(*watchers[std::size_t(i)], stream, [](const QByteArray &b) {
            bool framed = false;
            return chunkedLines(b, framed).size() >= WRITES || !framed;
        }));
        bool framed = false;
        const QList<QByteArray> lines = chunkedLines(stream, framed);
        QVERIFY(framed);
        QCOMPARE(lines.size(), WRITES);
        std::vector<QByteArray> names;
        for (const QByteArray &line : lines) {
            const qsizetype at = line.indexOf("\"name\":\"w-");
            QVERIFY(at >= 0);
            names.push_back(line.mid(at, line.indexOf('"', at + 9) - at));
        }
        if (expected.empty())
            expected = names;
        QCOMPARE(names, expected); // one commit order for all
    }
}

void TestApiServer::testWatchTimeoutEndsStream()
{
    Fixture fixture;
    QTcpSocket watcher;
    watcher.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(watcher.waitForConnected(5000));
    watcher.write(rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1"));
    QByteArray stream;
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.endsWith("0\r\n\r\n"); }));
    QCOMPARE(fixture.server->openWatchCount(), std::size_t(0));
}

void TestApiServer::testShutdownEndsWatches()
{
    Fixture fixture;
    QTcpSocket watcher;
    watcher.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(watcher.waitForConnected(5000));
    watcher.write(rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=1"));
    QByteArray stream;
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QTRY_COMPARE(fixture.server->openWatchCount(), std::size_t(1));
    fixture.server->closeWatches();
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.endsWith("0\r\n\r\n"); }));
}

void TestApiServer::testWebSocketWatch()
{
    Fixture fixture;
    QWebSocket socket;
    QStringList messages;
    connect(&socket, &QWebSocket::textMessageReceived, this, [&messages](const QString &m) { messages << m; });
    QSignalSpy connected(&socket, &QWebSocket::connected);
    socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/api/v1/namespaces/default/configmaps?watch=true")
                         .arg(fixture.port)));
    QVERIFY(connected.wait(5000));
    QTRY_COMPARE(fixture.server->openWatchCount(), std::size_t(1));

    QTcpSocket writer;
    writer.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(writer.waitForConnected(5000));
    writer.write(rawRequest("POST", "/api/v1/namespaces/default/configmaps", CM));
    QTRY_COMPARE(messages.size(), 1);
    const auto event = nlohmann::json::parse(messages[0].toStdString());
    QCOMPARE(event["type"], "ADDED");
    QCOMPARE(event["object"]["metadata"]["name"], "foo");
    QVERIFY(messages[0].endsWith(u'\n'));
    socket.close();
    QTRY_COMPARE(fixture.server->openWatchCount(), std::size_t(0));
}

void TestApiServer::testGarbageDoesNotStopTheServer()
{
    Fixture fixture;
    QTcpSocket garbage;
    garbage.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(garbage.waitForConnected(5000));
    garbage.write(QByteArray("\x00\x01\x02 this is not HTTP\r\n\r\n", 25));
    garbage.write(QByteArray(70000, 'x'));
    // As from Go's server: 400, then the connection closes (the barrier: it was handled).
    QByteArray answer;
    QVERIFY(readUntilClosed(garbage, answer));
    QCOMPARE(statusOf(answer), 400);
    QVERIFY(answer.contains("malformed HTTP request line"));
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    QByteArray buffer;
    socket.write(rawRequest("GET", "/healthz"));
    QVERIFY(readUntil(socket, buffer, [](const QByteArray &b) { return b.endsWith("ok"); }));
    QCOMPARE(statusOf(buffer), 200);
}

void TestApiServer::testWatchLimitRefusesWith429()
{
    Fixture fixture;
    fixture.handler->openWatches().setMax(1);
    QTcpSocket first;
    first.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(first.waitForConnected(5000));
    first.write(rawRequest("GET", "/api/v1/configmaps?watch=1"));
    QByteArray stream;
    QVERIFY(readUntil(first, stream, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QTcpSocket second;
    second.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(second.waitForConnected(5000));
    second.write(rawRequest("GET", "/api/v1/configmaps?watch=1"));
    QByteArray refused;
    QVERIFY(readUntil(second, refused, [](const QByteArray &b) { return b.contains("TooManyRequests"); }));
    QCOMPARE(statusOf(refused), 429);
    QVERIFY(refused.contains("Retry-After: 1"));
    // Plain requests are not limited.
    QByteArray listed;
    second.write(rawRequest("GET", "/api/v1/configmaps"));
    QVERIFY(readUntil(second, listed, [](const QByteArray &b) { return b.contains("ConfigMapList"); }));
}

// The apiserver's max-in-flight: a write held in its CAS loop (the lab's processing delay)
// counts until its response; one more write is answered 429 at once, reads are counted apart,
// and the held write still lands.
void TestApiServer::testMutatingRequestsInFlightAreBounded()
{
    Fixture fixture;
    fixture.createConfigMap("held");
    server::Limits limits;
    limits.maxMutatingRequestsInFlight = 1;
    fixture.server->setLimits(limits);
    fixture.handler->setProcessingDelay(300);
    const auto patch = [](const QByteArray &value) {
        return rawRequest("PATCH", "/api/v1/namespaces/default/configmaps/held", R"({"data":{"a":")" + value + R"("}})",
                          {}, "application/merge-patch+json");
    };
    QTcpSocket held;
    held.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(held.waitForConnected(5000));
    held.write(patch("first"));
    QVERIFY(held.waitForBytesWritten(5000));
    QTest::qWait(50); // the first write is in its delay

    QTcpSocket second;
    second.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(second.waitForConnected(5000));
    second.write(patch("refused"));
    QByteArray refused;
    QVERIFY2(readUntil(second, refused, [](const QByteArray &b) { return b.contains("TooManyRequests"); }),
             refused.constData());
    QCOMPARE(statusOf(refused), 429);
    QVERIFY(refused.contains("Retry-After: 1"));
    QVERIFY(refused.contains("Too many requests, please try again later."));
    QByteArray listed;
    second.write(rawRequest("GET", "/api/v1/namespaces/default/configmaps"));
    QVERIFY(readUntil(second, listed, [](const QByteArray &b) { return b.contains("ConfigMapList"); }));
    QCOMPARE(statusOf(listed), 200);

    QByteArray patched;
    QVERIFY(readUntil(held, patched, [](const QByteArray &b) { return b.contains("\"first\""); }));
    QCOMPARE(statusOf(patched), 200);
    // Room again once it answered.
    QByteArray after;
    second.write(patch("later"));
    QVERIFY(readUntil(second, after, [](const QByteArray &b) { return b.contains("\"later\""); }));
    QCOMPARE(statusOf(after), 200);
}

void TestApiServer::testIdleKeepAliveConnectionIsClosedButWatchesStay()
{
    Fixture fixture;
    fixture.server->setIdleTimeout(150);
    QTcpSocket watcher;
    watcher.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(watcher.waitForConnected(5000));
    watcher.write(rawRequest("GET", "/api/v1/namespaces/default/configmaps?watch=1"));
    QByteArray stream;
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));

    QTcpSocket idle;
    QSignalSpy closed(&idle, &QTcpSocket::disconnected);
    idle.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(idle.waitForConnected(5000));
    QByteArray buffer;
    idle.write(rawRequest("GET", "/healthz"));
    QVERIFY(readUntil(idle, buffer, [](const QByteArray &b) { return b.endsWith("ok"); }));
    // Idle after its response: the server hangs up (the 150 ms idle timeout).
    QVERIFY(closed.wait(5000));

    // The watch was just as quiet, and is still open and streaming.
    QCOMPARE(watcher.state(), QAbstractSocket::ConnectedState);
    QTcpSocket writer;
    writer.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(writer.waitForConnected(5000));
    writer.write(rawRequest("POST", "/api/v1/namespaces/default/configmaps", CM));
    QVERIFY(readUntil(watcher, stream, [](const QByteArray &b) { return b.contains("\"type\":\"ADDED\""); }));
}

void TestApiServer::testOversizedHeadersGet431()
{
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray big(70 * 1024, 'x');
    socket.write("GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n");
    QByteArray buffer;
    QVERIFY(readUntil(socket, buffer, [](const QByteArray &b) { return b.contains("RequestHeaderFieldsTooLarge"); }));
    QCOMPARE(statusOf(buffer), 431);
    // The server goes on serving.
    QTcpSocket next;
    next.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(next.waitForConnected(5000));
    QByteArray reply;
    next.write(rawRequest("GET", "/healthz"));
    QVERIFY(readUntil(next, reply, [](const QByteArray &b) { return b.endsWith("ok"); }));
}

void TestApiServer::testRequestHeadBounds_data()
{
    QTest::addColumn<int>("lineBytes");  // the request target's length
    QTest::addColumn<int>("headerBytes"); // one X-Big header's value
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("reason");
    constexpr int KiB = 1024;
    // Go bounds the request line and the headers together at 1 MiB (DefaultMaxHeaderBytes).
    QTest::newRow("long line, within") << 900 * KiB << 0 << 200 << QByteArray();
    QTest::newRow("line over 1 MiB") << 1024 * KiB + 1 << 0 << 414 << QByteArray("RequestURITooLong");
    QTest::newRow("line 8 MiB") << 8 * 1024 * KiB << 0 << 414 << QByteArray("RequestURITooLong");
    QTest::newRow("line and headers over 1 MiB") << 1000 * KiB << 40 * KiB << 431
                                                  << QByteArray("RequestHeaderFieldsTooLarge");
    QTest::newRow("headers within") << 100 << 60 * KiB << 200 << QByteArray();
    // Past the header bound (set below the ~96 KiB past which Qt's parser dropped every header).
    QTest::newRow("headers over 64 KiB") << 100 << 65 * KiB << 431 << QByteArray("RequestHeaderFieldsTooLarge");
    QTest::newRow("headers 2 MiB") << 100 << 2048 * KiB << 431 << QByteArray("RequestHeaderFieldsTooLarge");
}

void TestApiServer::testRequestHeadBounds()
{
    QFETCH(int, lineBytes);
    QFETCH(int, headerBytes);
    QFETCH(int, status);
    QFETCH(QByteArray, reason);
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray path = "/api/v1/namespaces?x=";
    QByteArray head = "GET " + path + QByteArray(lineBytes - path.size(), 'a') + " HTTP/1.1\r\nHost: x\r\n";
    if (headerBytes > 0)
        head += "X-Big: " + QByteArray(headerBytes, 'b') + "\r\n";
    socket.write(head + "\r\n");
    QByteArray buffer;
    QVERIFY(readUntil(socket, buffer, [](const QByteArray &b) { return b.contains("\r\n\r\n") && b.endsWith("\n"); }));
    QCOMPARE(statusOf(buffer), status);
    if (!reason.isEmpty()) {
        // A Status naming the bound, then the connection closes.
        QVERIFY2(buffer.contains("\"reason\":\"" + reason + "\""), buffer.left(400).constData());
        QVERIFY(buffer.contains("1048576 bytes") || buffer.contains("65536 bytes"));
        QVERIFY(buffer.contains("Connection: close"));
        QVERIFY(readUntilClosed(socket, buffer));
    }
    // The server goes on serving.
    QTcpSocket next;
    next.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(next.waitForConnected(5000));
    QByteArray reply;
    next.write(rawRequest("GET", "/healthz"));
    QVERIFY(readUntil(next, reply, [](const QByteArray &b) { return b.endsWith("ok"); }));
}

void TestApiServer::testHeadsAreBoundedOnePerRequest()
{
    // Twenty requests of 60 KiB headers each on one keep-alive connection, dribbled in small
    // pieces: each head is counted on its own, so all are served.
    Fixture fixture;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray one = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + QByteArray(60 * 1024, 'b') + "\r\n\r\n";
    QByteArray buffer;
    for (int i = 0; i < 20; ++i) {
        for (qsizetype at = 0; at < one.size(); at += 7000) {
            socket.write(one.mid(at, 7000));
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        QVERIFY(readUntil(socket, buffer, [i](const QByteArray &b) { return b.count("HTTP/1.1 200") == i + 1; }));
    }
    QCOMPARE(socket.state(), QAbstractSocket::ConnectedState);
}

// The JSON event lines of a chunked watch body (chunk framing removed).
QList<QByteArray> eventLines(const QByteArray &response)
{
    QList<QByteArray> lines;
    qsizetype at = response.indexOf("\r\n\r\n") + 4;
    while (at < response.size()) {
        const qsizetype sizeEnd = response.indexOf("\r\n", at);
        const qsizetype size = response.mid(at, sizeEnd - at).toLongLong(nullptr, 16);
        if (size == 0)
            break;
        lines.append(response.mid(sizeEnd + 2, size).trimmed());
        at = sizeEnd + 2 + size + 2;
    }
    return lines;
}

void TestApiServer::testStalledWatcherGets410WhileOthersContinue()
{
    Fixture fixture;
    constexpr std::size_t LIMIT = 4 * 1024 * 1024;
    fixture.handler->setMaxWatchBacklog(LIMIT);
    const QByteArray watchPath = "/api/v1/namespaces/default/configmaps?watch=1";

    // The stalled client reads its headers, then nothing: Qt stops taking bytes off the
    // kernel once its 4 KiB read buffer is full.
    QTcpSocket stalled;
    stalled.setReadBufferSize(4096);
    stalled.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(stalled.waitForConnected(5000));
    stalled.write(rawRequest("GET", watchPath));
    QByteArray stalledStream;
    QVERIFY(readUntil(stalled, stalledStream, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QTcpSocket reader; // reads everything as it comes
    reader.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(reader.waitForConnected(5000));
    reader.write(rawRequest("GET", watchPath));
    QByteArray readerStream;
    QVERIFY(readUntil(reader, readerStream, [](const QByteArray &b) { return b.contains("\r\n\r\n"); }));
    QTRY_COMPARE(fixture.server->openWatchCount(), std::size_t(2));

    // Writers go at full speed, ~512 KiB per object, until the stalled watch is dropped.
    QTcpSocket writer;
    writer.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(writer.waitForConnected(5000));
    const QByteArray value(512 * 1024, 'v');
    int written = 0;
    while (fixture.server->openWatchCount() == 2 && written < 200) {
        const QByteArray body = R"({"metadata":{"name":"big-)" + QByteArray::number(written) + R"("},"data":{"v":")"
            + value + R"("}})";
        QByteArray reply;
        writer.write(rawRequest("POST", "/api/v1/namespaces/default/configmaps", body));
        QVERIFY(readUntil(writer, reply, [](const QByteArray &b) { return b.contains("\r\n\r\n") && b.endsWith("}\n"); }));
        QCOMPARE(statusOf(reply), 201); // never slowed down or refused by the stalled reader
        ++written;
        readerStream += reader.readAll();
    }
    QCOMPARE(fixture.server->openWatchCount(), std::size_t(1));
    QVERIFY2(written < 200, "the stalled watch was never dropped");
    // Well before its backlog could grow without bound: kernel buffers plus the limit.
    QVERIFY(std::size_t(written) * value.size() < LIMIT + 16 * 1024 * 1024);

    // The other watcher got every event, in order.
    const QByteArray last = "big-" + QByteArray::number(written - 1);
    QVERIFY(readUntil(reader, readerStream, [&](const QByteArray &b) { return b.contains(last); }));
    QCOMPARE(eventLines(readerStream).size(), written);

    // The stalled client reads at last: events in order, then ERROR 410 Expired, then the end.
    stalled.setReadBufferSize(0);
    QVERIFY(readUntil(stalled, stalledStream, [](const QByteArray &b) { return b.endsWith("0\r\n\r\n"); }));
    const QList<QByteArray> lines = eventLines(stalledStream);
    QVERIFY(lines.size() >= 2);
    QVERIFY(lines.size() <= written);
    for (qsizetype i = 0; i + 1 < lines.size(); ++i)
        QVERIFY2(lines[i].contains("\"name\":\"big-" + QByteArray::number(i) + "\""), lines[i].left(120).constData());
    const QByteArray error = lines.last();
    QVERIFY2(error.startsWith(R"({"type":"ERROR","object":{)"), error.constData());
    QVERIFY(error.contains(R"("code":410)"));
    QVERIFY(error.contains(R"("reason":"Expired")"));
    QVERIFY(error.contains("the client fell behind"));
    // And the server hangs up on it.
    QTRY_VERIFY_WITH_TIMEOUT(stalled.state() != QAbstractSocket::ConnectedState, 5000);
}

QTEST_GUILESS_MAIN(TestApiServer)
#include "TestApiServer.moc"
