// SPDX-License-Identifier: MIT
// Which fields a conflicting write and the writes that beat it changed (FieldOverlap), and
// the line map of the pretty JSON the three-way view highlights (PrettyJson).
#include <QtTest/QtTest>

#include "conflicts/FieldOverlap.h"
#include "conflicts/PrettyJson.h"

using rvscope::engine::OperationDetail;
using rvscope::ui::FieldOverlap;
using rvscope::ui::PrettyJson;

class TestFieldOverlap final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testOverlap_data();
    void testOverlap();
    void testUnknownWithoutTheRead();
    void testOwnershipConflictNamesManagersAndFields();
    void testPrettyJsonLines();
};

namespace {
const QByteArray READ = R"({"apiVersion":"v1","kind":"ConfigMap",
    "metadata":{"name":"foo","namespace":"default","resourceVersion":"41","labels":{"app":"x"}},
    "data":{"counter":"0","color":"red"}})";
} // namespace

void TestFieldOverlap::testOwnershipConflictNamesManagersAndFields()
{
    OperationDetail detail;
    detail.summary.id = 9;
    detail.summary.verb = QStringLiteral("patch");
    detail.summary.statusCode = 409;
    detail.summary.reason = QStringLiteral("FieldManagerConflict");
    detail.summary.message = QStringLiteral("Apply failed with 3 conflicts: conflicts with \"alice\":\n- .data.a\n"
                                            "- .data.c\nconflicts with \"kubectl\" using v1:\n- .data.b");
    // Known without the read or the live object: the message says it all.
    const FieldOverlap overlap = FieldOverlap::compute(detail);
    QVERIFY(overlap.known);
    QVERIFY(overlap.ownership());
    QVERIFY(!overlap.falseConflict());
    QCOMPARE(overlap.overlapping, (QStringList{"data.a", "data.c", "data.b"}));
    QCOMPARE(overlap.cellText(), QStringLiteral("\"alice\": .data.a, .data.c; \"kubectl\" using v1: .data.b"));
    QVERIFY2(overlap.sentence().startsWith("Field ownership conflict: the apply would change .data.a, .data.c, which "
                                           "\"alice\" manages; and .data.b, which \"kubectl\" using v1 manages."),
             qPrintable(overlap.sentence()));
    QCOMPARE(FieldOverlap::ownershipOf(detail.summary).cellText(), overlap.cellText());

    // A resourceVersion 409 is no ownership conflict.
    detail.summary.reason = QStringLiteral("Conflict");
    QVERIFY(!FieldOverlap::ownershipOf(detail.summary).known);
    QVERIFY(!FieldOverlap::compute(detail).ownership());
}

void TestFieldOverlap::testOverlap_data()
{
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QByteArray>("live");
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QStringList>("client");
    QTest::addColumn<QStringList>("intervening");
    QTest::addColumn<QStringList>("overlapping");

    const QByteArray liveColor = R"({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","resourceVersion":"42","labels":{"app":"x"}},
        "data":{"counter":"0","color":"blue"}})";
    const QByteArray liveCounter = R"({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","resourceVersion":"42","labels":{"app":"x"}},
        "data":{"counter":"1","color":"blue"}})";
    const QByteArray putSize = R"({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","resourceVersion":"41","labels":{"app":"x"}},
        "data":{"counter":"0","color":"red","size":"large"}})";
    const QByteArray putCounter = R"({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","resourceVersion":"41","labels":{"app":"x"}},
        "data":{"counter":"1","color":"red","size":"large"}})";
    const QByteArray putNoLabels = R"({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","resourceVersion":"41"},
        "data":{"counter":"0","color":"red"}})";

    QTest::newRow("disjoint PUT: false conflict") << "update" << liveColor << putSize << QStringList{"data.size"}
                                                  << QStringList{"data.color"} << QStringList{};
    QTest::newRow("same field PUT") << "update" << liveCounter << putCounter
                                    << QStringList{"data.counter", "data.size"}
                                    << QStringList{"data.color", "data.counter"} << QStringList{"data.counter"};
    QTest::newRow("removed subtree") << "update" << liveColor << putNoLabels << QStringList{"metadata.labels"}
                                     << QStringList{"data.color"} << QStringList{};
    QTest::newRow("merge patch with rv") << "patch" << liveCounter
                                         << QByteArray(R"({"metadata":{"resourceVersion":"41"},"data":{"counter":"1"}})")
                                         << QStringList{"data.counter"} << QStringList{"data.color", "data.counter"}
                                         << QStringList{"data.counter"};
    QTest::newRow("merge patch of a parent") << "patch" << liveColor << QByteArray(R"({"data":null})")
                                             << QStringList{"data"} << QStringList{"data.color"}
                                             << QStringList{"data.color"};
    QTest::newRow("json patch") << "patch" << liveColor
                                << QByteArray(R"([{"op":"test","path":"/data/counter","value":"0"},
                                                  {"op":"replace","path":"/data/counter","value":"1"},
                                                  {"op":"add","path":"/metadata/labels/a~1b","value":"y"}])")
                                << QStringList{"data.counter", "metadata.labels.a/b"} << QStringList{"data.color"}
                                << QStringList{};
    QTest::newRow("nothing changed but the version") << "update" << READ << putSize << QStringList{"data.size"}
                                                     << QStringList{} << QStringList{};
}

void TestFieldOverlap::testOverlap()
{
    QFETCH(QString, verb);
    QFETCH(QByteArray, live);
    QFETCH(QByteArray, request);
    OperationDetail detail;
    detail.summary.verb = verb;
    detail.summary.rvSent = 41;
    detail.summary.statusCode = 409;
    detail.readObject = READ;
    detail.liveObject = live;
    detail.request = request;
    const FieldOverlap overlap = FieldOverlap::compute(detail);
    QVERIFY(overlap.known);
    QTEST(overlap.clientFields, "client");
    QTEST(overlap.interveningFields, "intervening");
    QTEST(overlap.overlapping, "overlapping");
    if (overlap.overlapping.isEmpty()) {
        QVERIFY(overlap.falseConflict());
        QVERIFY(overlap.sentence().startsWith("False conflict: optimistic locking rejects on version, not on fields."));
        QCOMPARE(overlap.cellText(), QStringLiteral("false conflict"));
    } else {
        QVERIFY(overlap.sentence().startsWith("Real conflict: both changed " + overlap.overlapping.first()));
        QCOMPARE(overlap.cellText(), overlap.overlapping.join(", "));
    }
}

void TestFieldOverlap::testUnknownWithoutTheRead()
{
    OperationDetail detail;
    detail.summary.verb = "update";
    detail.summary.rvSent = 7;
    detail.liveObject = READ;
    detail.request = READ;
    FieldOverlap overlap = FieldOverlap::compute(detail);
    QVERIFY(!overlap.known);
    QVERIFY(!overlap.falseConflict());
    QVERIFY(overlap.sentence().contains("rv 7"));
    QVERIFY(overlap.cellText().isEmpty());

    detail.summary.verb = "create";
    detail.readObject = READ;
    overlap = FieldOverlap::compute(detail);
    QVERIFY(!overlap.known);
    QVERIFY(overlap.sentence().contains("create"));
}

void TestFieldOverlap::testPrettyJsonLines()
{
    const PrettyJson pretty = PrettyJson::format(R"({"b":{"x":[1,{"y":true}]},"a":"q\"t","e":{}})");
    QVERIFY(pretty.valid);
    const QString expected = "{\n"
                             "  \"a\": \"q\\\"t\",\n"
                             "  \"b\": {\n"
                             "    \"x\": [\n"
                             "      1,\n"
                             "      {\n"
                             "        \"y\": true\n"
                             "      }\n"
                             "    ]\n"
                             "  },\n"
                             "  \"e\": {}\n"
                             "}";
    QCOMPARE(pretty.text, expected);
    QCOMPARE(pretty.linesOfPath.value("a").first, 1);
    QCOMPARE(pretty.linesOfPath.value("b").first, 2);
    QCOMPARE(pretty.linesOfPath.value("b").last, 9);
    QCOMPARE(pretty.linesOfPath.value("b.x[1].y").first, 6);
    QCOMPARE(pretty.linesOfPath.value("e").last, 10);

    const PrettyJson raw = PrettyJson::format("not json");
    QVERIFY(!raw.valid);
    QCOMPARE(raw.text, QStringLiteral("not json"));
}

QTEST_MAIN(TestFieldOverlap)
#include "TestFieldOverlap.moc"
