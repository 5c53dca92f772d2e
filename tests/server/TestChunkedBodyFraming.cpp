// SPDX-License-Identifier: MIT
// Chunked request bodies as Go's net/http reads them: where they end, what it refuses.
#include <QtTest/QtTest>

#include "server/ChunkedBodyFraming.h"

using rvscope::server::ChunkedBodyFraming;
using State = ChunkedBodyFraming::State;

class TestChunkedBodyFraming final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testWellFormedBodiesEnd_data();
    void testWellFormedBodiesEnd();
    void testByteByByteIsTheSame();
    void testGoRefuses_data();
    void testGoRefuses();
    void testExtensionsMayNotOutweighTheData();
};

void TestChunkedBodyFraming::testWellFormedBodiesEnd_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("dataBytes");
    QTest::newRow("empty") << QByteArray("0\r\n\r\n") << 0;
    QTest::newRow("two chunks") << QByteArray("3\r\nabc\r\nA\r\n0123456789\r\n0\r\n\r\n") << 13;
    QTest::newRow("upper-case hex, leading zeros") << QByteArray("00B\r\nhello world\r\n0\r\n\r\n") << 11;
    QTest::newRow("extensions") << QByteArray("3;name=\"v;x\"\r\nabc\r\n0;last\r\n\r\n") << 3;
    QTest::newRow("spaces before the line end") << QByteArray("3 \t\r\nabc\r\n0\r\n\r\n") << 3;
    QTest::newRow("trailer") << QByteArray("3\r\nabc\r\n0\r\nX-Sum: 1\r\nX-Other:\r\n\r\n") << 3;
    QTest::newRow("CRLF inside the data") << QByteArray("4\r\n\r\n\r\n\r\n0\r\n\r\n") << 4;
}

void TestChunkedBodyFraming::testWellFormedBodiesEnd()
{
    QFETCH(QByteArray, body);
    QFETCH(int, dataBytes);
    const QByteArray next = "GET / HTTP/1.1\r\n\r\n"; // a pipelined request is not the body's
    ChunkedBodyFraming framing;
    const QByteArray bytes = body + next;
    QCOMPARE(framing.feed(std::string_view(bytes.constData(), std::size_t(bytes.size()))), std::size_t(body.size()));
    QCOMPARE(framing.state(), State::Complete);
    QCOMPARE(framing.dataBytes(), std::uint64_t(dataBytes));
    QCOMPARE(framing.feed("more"), std::size_t(0));
}

void TestChunkedBodyFraming::testByteByByteIsTheSame()
{
    const std::string body = "5;x=y\r\nhello\r\n1\r\n!\r\n0\r\nA: b\r\n\r\n";
    ChunkedBodyFraming framing;
    for (std::size_t i = 0; i < body.size(); ++i) {
        QCOMPARE(framing.state(), State::Reading);
        QCOMPARE(framing.feed(std::string_view(body).substr(i, 1)), std::size_t(1));
    }
    QCOMPARE(framing.state(), State::Complete);
    QCOMPARE(framing.dataBytes(), std::uint64_t(6));
}

void TestChunkedBodyFraming::testGoRefuses_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("error");
    QTest::newRow("not hex") << QByteArray("zz\r\nDELETE / HTTP/1.1\r\n\r\n0\r\n\r\n") << "invalid byte in chunk length";
    QTest::newRow("negative") << QByteArray("-5\r\nabc\r\n0\r\n\r\n") << "invalid byte in chunk length";
    QTest::newRow("0x prefix") << QByteArray("0x5\r\nabcde\r\n0\r\n\r\n") << "invalid byte in chunk length";
    QTest::newRow("space before an extension") << QByteArray("5 ;x\r\nabcde\r\n0\r\n\r\n")
                                               << "invalid byte in chunk length";
    QTest::newRow("over 64 bits") << QByteArray("ffffffffffffffffffff\r\nabc\r\n0\r\n\r\n")
                                  << "http chunk length too large";
    QTest::newRow("17 digits") << QByteArray("00000000000000001\r\na\r\n0\r\n\r\n") << "http chunk length too large";
    QTest::newRow("empty size") << QByteArray("\r\nabc\r\n") << "empty hex number for chunk length";
    QTest::newRow("only an extension") << QByteArray(";x\r\n") << "empty hex number for chunk length";
    QTest::newRow("bare LF") << QByteArray("3\nabc\r\n0\r\n\r\n") << "chunked line ends with bare LF";
    QTest::newRow("CR inside the line") << QByteArray("3\r;x\r\nabc\r\n0\r\n\r\n") << "invalid CR in chunked line";
    QTest::newRow("data longer than its size") << QByteArray("3\r\nabcd\r\n0\r\n\r\n") << "malformed chunked encoding";
    QTest::newRow("LF alone after the data") << QByteArray("3\r\nabc\n0\r\n\r\n") << "malformed chunked encoding";
    QTest::newRow("size line of 4 KiB") << "1;" + QByteArray(4100, 'x') + "\r\n" << "header line too long";
    QTest::newRow("trailer without a colon") << QByteArray("0\r\nnot a field\r\n\r\n")
                                             << "malformed MIME header line: not a field";
    QTest::newRow("trailer name with a space") << QByteArray("0\r\nX Y: 1\r\n\r\n") << "malformed MIME header line: X Y: 1";
    QTest::newRow("trailer of 4 KiB") << "0\r\nX-Pad: " + QByteArray(4100, 'p')
                                      << "http: suspiciously long trailer after chunked body";
}

void TestChunkedBodyFraming::testGoRefuses()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, error);
    ChunkedBodyFraming framing;
    framing.feed(std::string_view(body.constData(), std::size_t(body.size())));
    QCOMPARE(framing.state(), State::Malformed);
    QCOMPARE(QString::fromStdString(framing.error()), error);
}

void TestChunkedBodyFraming::testExtensionsMayNotOutweighTheData()
{
    // One byte per chunk streams (5 bytes of framing each)...
    std::string streamed;
    for (int i = 0; i < 20000; ++i)
        streamed += "1\r\nx\r\n";
    ChunkedBodyFraming byteWise;
    byteWise.feed(streamed + "0\r\n\r\n");
    QCOMPARE(byteWise.state(), State::Complete);
    QCOMPARE(byteWise.dataBytes(), std::uint64_t(20000));
    // ...but 200 bytes of extension per byte of data soon pass Go's 16 KiB of excess.
    const std::string padded = "1;" + std::string(200, 'e') + "\r\nx\r\n";
    ChunkedBodyFraming framing;
    int chunks = 0;
    while (framing.state() == State::Reading && chunks < 1000) {
        framing.feed(padded);
        ++chunks;
    }
    QCOMPARE(framing.state(), State::Malformed);
    QCOMPARE(QString::fromStdString(framing.error()), "chunked encoding contains too much non-data");
    QVERIFY2(chunks > 50 && chunks < 100, std::to_string(chunks).c_str());
}

QTEST_GUILESS_MAIN(TestChunkedBodyFraming)
#include "TestChunkedBodyFraming.moc"
