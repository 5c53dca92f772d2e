// SPDX-License-Identifier: MIT
// A WebSocket client's frame heads followed as their bytes arrive: masked frames of every
// length form pass however they are split, and the first unmasked one is a breach.
#include <QtTest/QtTest>

#include <string>

#include "server/ClientFrameHeads.h"

using rvscope::server::ClientFrameHeads;

namespace {
// One client frame: FIN and `opcode`, the payload length in its shortest form (7 bits, 16
// or 64), a masking key when `masked`, then the payload as given (masking it changes
// nothing the follower looks at).
std::string frame(int opcode, std::size_t length, bool masked = true, bool fin = true)
{
    std::string out;
    out += char((fin ? 0x80 : 0) | opcode);
    const char mask = masked ? char(0x80) : char(0);
    if (length < 126) {
        out += char(mask | char(length));
    } else if (length < 65536) {
        out += char(mask | 126);
        out += char(length >> 8);
        out += char(length & 0xFF);
    } else {
        out += char(mask | 127);
        for (int shift = 56; shift >= 0; shift -= 8)
            out += char((std::uint64_t(length) >> shift) & 0xFF);
    }
    if (masked)
        out += "\x12\x34\x56\x78";
    // A payload that looks like frame heads, unmasked ones among them: never read as one.
    for (std::size_t i = 0; i < length; ++i)
        out += char(i % 2 ? 0x05 : 0x81);
    return out;
}
} // namespace

class TestClientFrameHeads final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testMaskedFramesPassHoweverSplit();
    void testUnmaskedFrameIsABreach_data();
    void testUnmaskedFrameIsABreach();
    void testPayloadSkippedUnread();
};

void TestClientFrameHeads::testMaskedFramesPassHoweverSplit()
{
    const std::string stream = frame(0x1, 0) + frame(0x1, 125) + frame(0x2, 126) + frame(0x1, 10, true, false)
        + frame(0x9, 4) + frame(0x0, 3) + frame(0x2, 65535) + frame(0x2, 65536) + frame(0x8, 2);
    for (const std::size_t piece : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(7), std::size_t(4096),
                                    stream.size()}) {
        ClientFrameHeads heads;
        for (std::size_t at = 0; at < stream.size(); at += piece)
            QVERIFY2(heads.feed(std::string_view(stream).substr(at, piece)).empty(), qPrintable(QString::number(piece)));
        QVERIFY(!heads.breached());
        QCOMPARE(heads.payloadLeft(), std::uint64_t(0));
    }
}

void TestClientFrameHeads::testUnmaskedFrameIsABreach_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::newRow("first frame") << QByteArray::fromStdString(frame(0x1, 5, false));
    QTest::newRow("after masked ones") << QByteArray::fromStdString(frame(0x1, 300) + frame(0x2, 70000) + frame(0x1, 5, false));
    QTest::newRow("a ping") << QByteArray::fromStdString(frame(0x1, 3) + frame(0x9, 0, false));
    QTest::newRow("a close") << QByteArray::fromStdString(frame(0x8, 2, false));
    QTest::newRow("64-bit length") << QByteArray::fromStdString(frame(0x2, 70000, false));
}

void TestClientFrameHeads::testUnmaskedFrameIsABreach()
{
    QFETCH(QByteArray, stream);
    for (const qsizetype piece : {qsizetype(1), qsizetype(5), stream.size()}) {
        ClientFrameHeads heads;
        std::string breach;
        for (qsizetype at = 0; at < stream.size() && breach.empty(); at += piece)
            breach = heads.feed(std::string_view(stream.constData() + at, std::size_t(std::min(piece, stream.size() - at))));
        QCOMPARE(QString::fromStdString(breach), QStringLiteral("a client frame is not masked"));
        QVERIFY(heads.breached());
        QVERIFY(!heads.feed(frame(0x1, 1)).empty()); // nothing is read after a breach
    }
}

void TestClientFrameHeads::testPayloadSkippedUnread()
{
    // A 2^40-byte frame announced: what follows its head is payload, passed by count alone.
    ClientFrameHeads heads;
    const std::string head = frame(0x2, 0).substr(0, 1) + std::string("\xFF\x00\x00\x01\x00\x00\x00\x00\x00", 9)
        + "\x01\x02\x03\x04";
    QVERIFY(heads.feed(head).empty());
    QCOMPARE(heads.payloadLeft(), std::uint64_t(1) << 40);
    heads.skip((std::uint64_t(1) << 40) - 2);
    QVERIFY(heads.feed(std::string("\x81\x05", 2)).empty()); // the payload's last two bytes
    QCOMPARE(heads.payloadLeft(), std::uint64_t(0));
    QVERIFY(!heads.feed(std::string("\x81\x05", 2)).empty()); // a head now: unmasked
}

QTEST_APPLESS_MAIN(TestClientFrameHeads)
#include "TestClientFrameHeads.moc"
