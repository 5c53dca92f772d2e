// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "CommandLine.h"

using rvscope::app::Command;
using rvscope::app::parseCommandLine;

class TestCommandLine final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testNoArgumentsOpensGui();
    void testServeDefaults();
    void testServeOptions_data();
    void testServeOptions();
    void testErrors_data();
    void testErrors();
    void testHelpMentionsEveryFlag();
};

void TestCommandLine::testNoArgumentsOpensGui()
{
    QCOMPARE(parseCommandLine({"rvscope"}).kind, Command::Kind::Gui);
    QCOMPARE(parseCommandLine({"rvscope", "gui"}).kind, Command::Kind::Gui);
    QCOMPARE(parseCommandLine({"rvscope", "-platform", "offscreen"}).kind, Command::Kind::Gui);
    const Command withServer = parseCommandLine({"rvscope", "--listen", "127.0.0.1:0"});
    QCOMPARE(withServer.kind, Command::Kind::Gui);
    QCOMPARE(withServer.serve.port, quint16(0));
}

void TestCommandLine::testServeDefaults()
{
    const Command command = parseCommandLine({"rvscope", "serve"});
    QCOMPARE(command.kind, Command::Kind::Serve);
    QCOMPARE(command.serve.address, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(command.serve.port, quint16(8001));
    QCOMPARE(command.serve.watchHistory, std::size_t(10000));
}

void TestCommandLine::testServeOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("address");
    QTest::addColumn<int>("port");
    QTest::addColumn<int>("history");
    QTest::newRow("any port") << QStringList{"--listen", "127.0.0.1:0"} << "127.0.0.1" << 0 << 10000;
    QTest::newRow("equals form") << QStringList{"--listen=127.0.0.2:9000"} << "127.0.0.2" << 9000 << 10000;
    QTest::newRow("ipv6") << QStringList{"--listen", "[::1]:8443"} << "::1" << 8443 << 10000;
    QTest::newRow("localhost") << QStringList{"--listen", "localhost:80"} << "127.0.0.1" << 80 << 10000;
    QTest::newRow("history") << QStringList{"--watch-history", "50"} << "127.0.0.1" << 8001 << 50;
    QTest::newRow("both") << QStringList{"--watch-history=7", "--listen", "0.0.0.0:1"} << "0.0.0.0" << 1 << 7;
}

void TestCommandLine::testServeOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, address);
    QFETCH(int, port);
    QFETCH(int, history);
    const Command command = parseCommandLine(QStringList{"rvscope", "serve"} + args);
    QCOMPARE(command.kind, Command::Kind::Serve);
    QCOMPARE(command.serve.address, QHostAddress(address));
    QCOMPARE(int(command.serve.port), port);
    QCOMPARE(int(command.serve.watchHistory), history);
}

void TestCommandLine::testErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    QTest::newRow("unknown flag") << QStringList{"serve", "--nope"} << "unknown argument '--nope'";
    QTest::newRow("no port") << QStringList{"serve", "--listen", "127.0.0.1"} << "ADDR:PORT";
    QTest::newRow("bad port") << QStringList{"serve", "--listen", "127.0.0.1:99999"} << "not a port";
    QTest::newRow("bad host") << QStringList{"serve", "--listen", "no.such.host:80"} << "not an IP address";
    QTest::newRow("missing value") << QStringList{"serve", "--listen"} << "needs a value";
    QTest::newRow("bad history") << QStringList{"serve", "--watch-history", "0"} << "positive number";
}

void TestCommandLine::testErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const Command command = parseCommandLine(QStringList{"rvscope"} + args);
    QCOMPARE(command.kind, Command::Kind::Error);
    QVERIFY2(command.error.contains(fragment), qPrintable(command.error));
}

void TestCommandLine::testHelpMentionsEveryFlag()
{
    QCOMPARE(parseCommandLine({"rvscope", "--help"}).kind, Command::Kind::Help);
    QCOMPARE(parseCommandLine({"rvscope", "serve", "--help"}).kind, Command::Kind::Help);
    const QString usage = rvscope::app::usageText();
    for (const char *word : {"serve", "--listen", "--watch-history", "--help", "--version", "gui"})
        QVERIFY2(usage.contains(QLatin1String(word)), word);
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "TestCommandLine.moc"
