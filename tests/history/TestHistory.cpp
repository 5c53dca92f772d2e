// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include <sstream>

#include "HistoryBuilders.h"
#include "history/History.h"

using namespace rvscope::history;
using rvscope::history::testing::counterObject;
using rvscope::history::testing::record;

class TestHistory final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testAppendKeepsOrder();
    void testCapacityDropsOldestAndCounts();
    void testJsonLinesRoundTrip();
    void testJsonLinesFieldNames();
    void testImportSkipsEmptyLinesAndAppliesCapacity();
    void testImportRejectsBadLines_data();
    void testImportRejectsBadLines();
    void testExportRedactsSecretValuesUnlessAsked();
    void testExportCarriesWhatTheJournalDropped();
};

void TestHistory::testAppendKeepsOrder()
{
    History history(10);
    history.append(record(1, "a", "get", 0, 5, 200, "", "1"));
    history.append(record(2, "b", "update", 1, 6, 409, "1", ""));
    history.append(WatchDelivery{"w1", 3, "ADDED", "1", "configmaps/default/hot", 7});
    QCOMPARE(history.operations().size(), std::size_t(2));
    QCOMPARE(history.operations()[0].id, std::uint64_t(1));
    QCOMPARE(history.operations()[1].id, std::uint64_t(2));
    QCOMPARE(history.watchDeliveries().size(), std::size_t(1));
    QCOMPARE(history.droppedOperations(), std::uint64_t(0));
}

void TestHistory::testCapacityDropsOldestAndCounts()
{
    History history(3);
    for (std::uint64_t id = 1; id <= 5; ++id)
        history.append(record(id, "a", "get", 0, 1, 200, "", "1"));
    for (int i = 0; i < 4; ++i)
        history.append(WatchDelivery{"w", 0, "MODIFIED", std::to_string(i), "k", i});
    QCOMPARE(history.operations().size(), std::size_t(3));
    QCOMPARE(history.operations().front().id, std::uint64_t(3));
    QCOMPARE(history.droppedOperations(), std::uint64_t(2));
    QCOMPARE(history.watchDeliveries().size(), std::size_t(3));
    QCOMPARE(history.watchDeliveries().front().resourceVersion, std::string("1"));
    QCOMPARE(history.droppedWatchDeliveries(), std::uint64_t(1));
    history.clear();
    QVERIFY(history.operations().empty());
    QCOMPARE(history.droppedOperations(), std::uint64_t(0));
}

void TestHistory::testJsonLinesRoundTrip()
{
    History history;
    OperationRecord update = record(7, "client-1", "update", 100, 250, 200, "41", "42", counterObject(3));
    update.casRetries = 2;
    update.strategy = "retry-on-conflict";
    history.append(update);
    history.append(record(8, "client-2", "update", 120, -1, 0, "41", "")); // pending
    OperationRecord conflict = record(9, "client-3", "patch", 130, 260, 409, "41", "");
    conflict.injected = "conflict"; // an injected fault's, from rule 4
    conflict.faultRuleId = 4;
    history.append(conflict);
    history.append(WatchDelivery{"w1", 5, "MODIFIED", "42", "configmaps/default/hot", 260});

    std::stringstream out;
    history.exportJsonLines(out);
    auto imported = History::importJsonLines(out);
    QVERIFY(imported);
    QCOMPARE(imported->operations().size(), std::size_t(3));
    const OperationRecord &a = imported->operations()[0];
    QCOMPARE(a.id, std::uint64_t(7));
    QCOMPARE(a.clientId, std::string("client-1"));
    QCOMPARE(a.verb, std::string("update"));
    QCOMPARE(a.key, testing::kHotKey);
    QCOMPARE(a.resourceVersionSent, std::string("41"));
    QCOMPARE(a.startNs, std::int64_t(100));
    QVERIFY(a.endNs && *a.endNs == 250);
    QCOMPARE(a.statusCode, 200);
    QCOMPARE(a.resourceVersionProduced, std::string("42"));
    QCOMPARE(a.casRetries, 2);
    QCOMPARE(a.strategy, std::string("retry-on-conflict"));
    QVERIFY(a.objectJson() == counterObject(3));
    QVERIFY(imported->operations()[1].pending());
    QVERIFY(imported->operations()[1].object == nullptr);
    QCOMPARE(imported->operations()[2].reason, std::string("Conflict"));
    QCOMPARE(imported->operations()[2].injected, std::string("conflict"));
    QCOMPARE(imported->operations()[2].faultRuleId, std::uint64_t(4));
    QVERIFY(imported->operations()[2].refusedByFault());
    QVERIFY(imported->operations()[0].injected.empty());
    QCOMPARE(imported->watchDeliveries().size(), std::size_t(1));
    const WatchDelivery &d = imported->watchDeliveries()[0];
    QCOMPARE(d.watcherId, std::string("w1"));
    QCOMPARE(d.operationId, std::uint64_t(5));
    QCOMPARE(d.eventType, std::string("MODIFIED"));
    QCOMPARE(d.resourceVersion, std::string("42"));
    QCOMPARE(d.timeNs, std::int64_t(260));

    std::stringstream again;
    imported->exportJsonLines(again);
    QCOMPARE(again.str(), out.str());
}

void TestHistory::testJsonLinesFieldNames()
{
    // The documented names are a contract with exported files: pin them.
    auto line = History::toJson(record(1, "c", "get", 1, 2, 200, "", "5"));
    for (const char *field : {"record", "id", "client", "verb", "key", "rvSent", "startNs", "endNs", "code", "reason",
                              "rvProduced", "casRetries", "object"})
        QVERIFY2(line.contains(field), field);
    QCOMPARE(line["record"].get<std::string>(), std::string("operation"));
    auto watch = History::toJson(WatchDelivery{"w", 1, "ADDED", "5", "k", 3});
    for (const char *field : {"record", "watcher", "operation", "type", "rv", "key", "timeNs"})
        QVERIFY2(watch.contains(field), field);
    QCOMPARE(watch["record"].get<std::string>(), std::string("watch"));
}

void TestHistory::testImportSkipsEmptyLinesAndAppliesCapacity()
{
    std::stringstream in;
    in << "\n"
       << R"({"record":"operation","id":1,"verb":"get","key":"k","startNs":0,"endNs":1,"code":200})" << "\n  \n"
       << R"({"record":"operation","id":2,"verb":"get","key":"k","startNs":0})" << "\n"
       << R"({"record":"operation","id":3,"verb":"get","key":"k","startNs":0,"extra":"ignored"})" << "\n";
    auto imported = History::importJsonLines(in, 2);
    QVERIFY(imported);
    QCOMPARE(imported->operations().size(), std::size_t(2));
    QCOMPARE(imported->droppedOperations(), std::uint64_t(1));
    QVERIFY(imported->operations()[0].pending());
}

void TestHistory::testImportRejectsBadLines_data()
{
    QTest::addColumn<QByteArray>("badLine");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("not json") << QByteArray("{\"record\":") << QByteArray("not valid JSON");
    QTest::newRow("array") << QByteArray("[1]") << QByteArray("not a JSON object");
    QTest::newRow("no record") << QByteArray(R"({"id":1})") << QByteArray("record");
    QTest::newRow("unknown record") << QByteArray(R"({"record":"bogus"})") << QByteArray("unknown record");
    QTest::newRow("missing key") << QByteArray(R"({"record":"operation","id":1,"verb":"get","startNs":0})")
                                 << QByteArray("operation needs");
    QTest::newRow("id as string") << QByteArray(R"({"record":"operation","id":"1","verb":"get","key":"k","startNs":0})")
                                  << QByteArray("operation needs");
    QTest::newRow("code as string")
        << QByteArray(R"({"record":"operation","id":1,"verb":"get","key":"k","startNs":0,"code":"200"})")
        << QByteArray("wrong type");
    QTest::newRow("watch without rv") << QByteArray(R"({"record":"watch","watcher":"w","type":"ADDED"})")
                                      << QByteArray("watch delivery needs");
}

void TestHistory::testImportRejectsBadLines()
{
    QFETCH(QByteArray, badLine);
    QFETCH(QByteArray, expected);
    std::stringstream in;
    in << R"({"record":"operation","id":1,"verb":"get","key":"k","startNs":0,"endNs":1,"code":200})" << "\n\n"
       << badLine.toStdString() << "\n";
    auto imported = History::importJsonLines(in);
    QVERIFY(!imported);
    QCOMPARE(imported.error().code, 400);
    const std::string &message = imported.error().message;
    QVERIFY2(message.find("line 3") != std::string::npos, message.c_str());
    QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
}

// A Secret's values, its last-applied copy and the bodies written to it stay out of an export
// by default; everything else (keys, names, other kinds) is kept, and Included keeps it all.
void TestHistory::testExportRedactsSecretValuesUnlessAsked()
{
    const nlohmann::json secret = {
        {"apiVersion", "v1"},
        {"kind", "Secret"},
        {"metadata",
         {{"name", "db"},
          {"namespace", "default"},
          {"annotations", {{"kubectl.kubernetes.io/last-applied-configuration", "{\"data\":{\"pw\":\"c2VjcmV0\"}}"}}}}},
        {"data", {{"pw", "c2VjcmV0"}}},
        {"stringData", {{"user", "secret"}}}};
    History history;
    OperationRecord read = record(1, "a", "get", 0, 1, 200, "", "5", secret, "/registry/secrets/default/db");
    history.append(read);
    OperationRecord json = record(2, "a", "update", 2, 3, 200, "5", "6", secret, "secrets/default/db");
    json.requestBody = secret.dump();
    history.append(json);
    OperationRecord yaml = record(3, "a", "patch", 4, 5, 200, "", "7", secret, "secrets/default/db");
    yaml.requestBody = "data:\n  pw: c2VjcmV0\n";
    history.append(yaml);
    nlohmann::json list = {{"kind", "SecretList"}, {"items", nlohmann::json::array({secret})}};
    history.append(record(4, "a", "list", 6, 7, 200, "", "7", list, "secrets/default"));
    history.append(record(5, "a", "get", 8, 9, 200, "", "7", counterObject(1))); // not a Secret

    std::ostringstream redacted;
    history.exportJsonLines(redacted);
    QVERIFY(redacted.str().find("c2VjcmV0") == std::string::npos);
    QVERIFY(redacted.str().find("\"secret\"") == std::string::npos);
    std::istringstream lines(redacted.str());
    std::vector<nlohmann::json> records;
    for (std::string line; std::getline(lines, line);)
        records.push_back(nlohmann::json::parse(line));
    QCOMPARE(records.size(), std::size_t(5));
    QCOMPARE(records[0]["object"]["data"], nlohmann::json({{"pw", "REDACTED"}}));
    QCOMPARE(records[0]["object"]["stringData"], nlohmann::json({{"user", "REDACTED"}}));
    QCOMPARE(records[0]["object"]["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
             nlohmann::json("REDACTED"));
    QCOMPARE(records[0]["object"]["metadata"]["name"], nlohmann::json("db"));
    QCOMPARE(nlohmann::json::parse(records[1]["request"].get<std::string>())["data"]["pw"], nlohmann::json("REDACTED"));
    QCOMPARE(records[2]["request"], nlohmann::json("REDACTED (a request body to a Secret)"));
    QCOMPARE(records[3]["object"]["items"][0]["data"]["pw"], nlohmann::json("REDACTED"));
    QCOMPARE(records[4]["object"], counterObject(1));
    // The redacted export still imports, for the checkers.
    std::istringstream again(redacted.str());
    QVERIFY(bool(History::importJsonLines(again)));

    std::ostringstream included;
    history.exportJsonLines(included, History::SecretValues::Included);
    QVERIFY(included.str().find("c2VjcmV0") != std::string::npos);
}

void TestHistory::testExportCarriesWhatTheJournalDropped()
{
    History complete;
    complete.append(record(1, "a", "get", 0, 1, 200, "", "1"));
    std::stringstream plain;
    complete.exportJsonLines(plain);
    QVERIFY(plain.str().find("\"record\":\"journal\"") == std::string::npos); // nothing dropped: no journal line

    History bounded(3);
    for (std::uint64_t id = 1; id <= 5; ++id)
        bounded.append(record(id, "a", "get", 0, 1, 200, "", "1"));
    for (int i = 0; i < 4; ++i)
        bounded.append(WatchDelivery{"w", 0, "MODIFIED", std::to_string(i), "k", i});
    std::stringstream out;
    bounded.exportJsonLines(out);
    const std::string first = out.str().substr(0, out.str().find('\n'));
    QCOMPARE(first, std::string(R"({"droppedOperations":2,"droppedWatchDeliveries":1,"record":"journal"})"));
    auto imported = History::importJsonLines(out);
    QVERIFY(imported);
    QCOMPARE(imported->operations().size(), std::size_t(3));
    QCOMPARE(imported->droppedOperations(), std::uint64_t(2));
    QCOMPARE(imported->droppedWatchDeliveries(), std::uint64_t(1));
    std::stringstream again;
    imported->exportJsonLines(again);
    QCOMPARE(again.str(), out.str());

    std::stringstream bad(R"({"record":"journal","droppedOperations":"many"})");
    auto refused = History::importJsonLines(bad);
    QVERIFY(!refused);
    QCOMPARE(refused.error().message, std::string("history line 1: journal counts of the wrong type"));
}

QTEST_GUILESS_MAIN(TestHistory)
#include "TestHistory.moc"
