// SPDX-License-Identifier: MIT
// Server-side Table output (shared/reference/table-output.md): ages, label formats, the pod
// status walk, Accept negotiation, the Table's shape for lists, one object and watch events,
// and custom resources' printer columns. Every built-in kind's columns: TestTablePrinters.
#include <QtTest/QtTest>

#include "TableTestSupport.h"
#include "api/table/PodStatus.h"
#include "api/table/Printers.h"
#include "api/table/TableCells.h"
#include "api/table/TableOutput.h"
#include "registry/ResourceType.h"

using nlohmann::json;
using namespace rvscope;
using namespace rvscope::api::table;

class TestTableOutput final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testHumanDuration_data();
    void testHumanDuration();
    void testLabelsAndSelectors();
    void testPodStatus_data();
    void testPodStatus();
    void testNegotiation();
    void testListTableShape();
    void testWatchEventsCarryHeadersOnce();
    void testCustomResourcePrinterColumns();
};

using namespace rvscope::testing;


void TestTableOutput::testHumanDuration_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    const std::pair<qint64, const char *> worked[] = {
        {-3, "<invalid>"}, {-1, "0s"},     {59, "59s"},       {119, "119s"},  {120, "2m"},
        {303, "5m3s"},     {599, "9m59s"}, {600, "10m"},      {10799, "179m"}, {10800, "3h"},
        {12345, "3h25m"},  {172799, "47h"}, {180000, "2d2h"}, {691200, "8d"}, {63072000, "2y"},
        {252288000, "8y"},
    };
    for (const auto &[seconds, text] : worked)
        QTest::newRow(text) << seconds << QString(text);
}

void TestTableOutput::testHumanDuration()
{
    QFETCH(qint64, seconds);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(humanDuration(seconds)), text);
    QCOMPARE(age(json(ago(300)), NOW), std::string("5m"));
    QCOMPARE(age(json("2026-11-26T10:00:00.123456Z"), *parseTime("2026-11-26T10:00:07Z")), std::string("7s"));
    QCOMPARE(age(json(), NOW), std::string("<unknown>"));
}

void TestTableOutput::testLabelsAndSelectors()
{
    QCOMPARE(formatLabels(json::parse(R"({"tier":"web","app":"x"})")), std::string("app=x,tier=web"));
    QCOMPARE(formatLabels(json()), std::string("<none>"));
    QCOMPARE(formatLabelSelector(json::parse(R"({"matchLabels":{"b":"1"},"matchExpressions":[
        {"key":"a","operator":"In","values":["z","y"]},{"key":"c","operator":"DoesNotExist"}]})")),
             std::string("a in (y,z),b=1,!c"));
    QCOMPARE(formatLabelSelector(json::object()), std::string("<none>"));
    QCOMPARE(formatLabelSelector(json::parse(R"({"matchExpressions":[{"key":"a","operator":"Near"}]})")),
             std::string("<error>"));
}

void TestTableOutput::testPodStatus_data()
{
    QTest::addColumn<QByteArray>("pod");
    QTest::addColumn<QByteArray>("cells");
    const std::string created = R"("metadata":{"name":"p","creationTimestamp":")" + ago(5) + R"("},)";
    QTest::newRow("no statuses") << QByteArray::fromStdString("{" + created + R"("spec":{"containers":[{"name":"a"}]},
        "status":{"phase":"Pending"}})") << QByteArray(R"(["p","0/1","Pending","0","5s","<none>","<none>","<none>","<none>"])");
    QTest::newRow("running") << QByteArray::fromStdString("{" + created + R"("spec":{"containers":[{"name":"a"}],
        "nodeName":"node-1"},"status":{"phase":"Running","podIP":"10.0.0.5","containerStatuses":[
        {"name":"a","ready":true,"restartCount":0,"state":{"running":{}}}]}})")
                             << QByteArray(R"(["p","1/1","Running","0","5s","10.0.0.5","node-1","<none>","<none>"])");
    QTest::newRow("crash loop") << QByteArray::fromStdString("{" + created + R"("spec":{"containers":[{"name":"a"}]},
        "status":{"phase":"Running","containerStatuses":[{"name":"a","ready":false,"restartCount":5,
        "state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"finishedAt":")" + ago(40)
                                                             + R"("}}}]}})")
                                << QByteArray(R"x(["p","0/1","CrashLoopBackOff","5 (40s ago)","5s","<none>","<none>","<none>","<none>"])x");
    QTest::newRow("init") << QByteArray::fromStdString("{" + created + R"("spec":{"containers":[{"name":"a"},{"name":"b"}],
        "initContainers":[{"name":"i"}]},"status":{"phase":"Pending","initContainerStatuses":[{"name":"i",
        "state":{"running":{}}}]}})") << QByteArray(R"(["p","0/2","Init:0/1","0","5s","<none>","<none>","<none>","<none>"])");
    QTest::newRow("terminating") << QByteArray::fromStdString(R"({"metadata":{"name":"p","creationTimestamp":")" + ago(5)
                                                             + R"(","deletionTimestamp":")" + ago(1) + R"("},
        "spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running"}})")
                                 << QByteArray(R"(["p","0/1","Terminating","0","5s","<none>","<none>","<none>","<none>"])");
}

void TestTableOutput::testPodStatus()
{
    QFETCH(QByteArray, pod);
    QFETCH(QByteArray, cells);
    QCOMPARE(QByteArray::fromStdString(podCells(json::parse(pod.toStdString()), NOW).dump()), cells);
}

void TestTableOutput::testNegotiation()
{
    auto table = tableRequested(accepting(KUBECTL));
    QVERIFY(table && *table);
    QCOMPARE((*table)->version, std::string("v1"));
    QCOMPARE((*table)->includeObject, std::string("Metadata"));
    table = tableRequested(accepting("application/json;as=Table;v=v1beta1;g=meta.k8s.io"));
    QCOMPARE((*table)->version, std::string("v1beta1"));
    // Plain JSON first, or a Table of another group: not a Table.
    QVERIFY(!*tableRequested(accepting("application/json,application/json;as=Table;v=v1;g=meta.k8s.io")));
    QVERIFY(!*tableRequested(accepting("application/json;as=Table;v=v1;g=example.com,application/json")));
    QVERIFY(!*tableRequested(accepting("application/json")));
    // Weights count, as in the apiserver's negotiation.
    QVERIFY(!*tableRequested(accepting("application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5,application/json")));
    QVERIFY(*tableRequested(accepting("application/json;q=0.1,application/json;as=Table;v=v1;g=meta.k8s.io")));
    QCOMPARE((*tableRequested(accepting(KUBECTL, "None")))->includeObject, std::string("None"));
    const auto refused = tableRequested(accepting(KUBECTL, "Everything"));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 400);
}

void TestTableOutput::testListTableShape()
{
    const auto object = std::make_shared<const model::Object>(json::parse(
        R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","resourceVersion":"41",
            "creationTimestamp":")" + realAgo(303) + R"("},"data":{"a":"1","b":"2"}})"));
    const TableRequest request;
    const json table = json::parse(tableJson(request, typeOf("ConfigMap"), {object}, {"42", "next", 3}, true));
    QCOMPARE(table["kind"], "Table");
    QCOMPARE(table["apiVersion"], "meta.k8s.io/v1");
    QCOMPARE(table["metadata"], json::parse(R"({"resourceVersion":"42","continue":"next","remainingItemCount":3})"));
    QCOMPARE(table["columnDefinitions"].size(), std::size_t(3));
    QCOMPARE(table["columnDefinitions"][0]["format"], "name");
    QCOMPARE(table["rows"][0]["cells"][0], "c");
    QCOMPARE(table["rows"][0]["cells"][1], 2);
    QVERIFY(table["rows"][0]["cells"][2].get<std::string>().starts_with("5m")); // the clock moves
    QCOMPARE(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    QCOMPARE(table["rows"][0]["object"]["metadata"]["resourceVersion"], "41");
    // Every row has a cell per column; an empty list has rows [].
    const json empty = json::parse(tableJson(request, typeOf("Deployment"), {}, {"42", {}, std::nullopt}, true));
    QCOMPARE(empty["rows"], json::array());
    QCOMPARE(empty["columnDefinitions"].size(), std::size_t(8));
    // Types without a printer get the default convertor's Name and Created At.
    const json crd = json::parse(tableJson(request, typeOf("CustomResourceDefinition"), {object}, {"42", {}, std::nullopt}, true));
    QCOMPARE(crd["columnDefinitions"][1]["name"], "Created At");
    QCOMPARE(crd["rows"][0]["cells"][1], object->json()["metadata"]["creationTimestamp"]);
}

void TestTableOutput::testWatchEventsCarryHeadersOnce()
{
    auto type = std::make_shared<registry::ResourceType>(typeOf("ConfigMap"));
    auto encode = tableWatchEncoder(TableRequest{}, type);
    registry::WatchEvent event;
    event.type = registry::WatchEventType::Added;
    event.object = std::make_shared<const model::Object>(json::parse(
        R"({"kind":"ConfigMap","metadata":{"name":"c","resourceVersion":"7"},"data":{}})"));
    const json first = json::parse(encode(event));
    QCOMPARE(first["type"], "ADDED");
    QCOMPARE(first["object"]["metadata"]["resourceVersion"], "7");
    QCOMPARE(first["object"]["columnDefinitions"].size(), std::size_t(3));
    event.type = registry::WatchEventType::Modified;
    const json second = json::parse(encode(event));
    QVERIFY(second["object"]["columnDefinitions"].is_null());
    QCOMPARE(second["object"]["rows"].size(), std::size_t(1));
    // The aggregator's APIService convertor ignores NoHeaders: every event has them.
    auto encodeApiService = tableWatchEncoder(
        TableRequest{}, std::make_shared<registry::ResourceType>(typeOf("APIService")));
    event.object = std::make_shared<const model::Object>(json::parse(
        R"({"kind":"APIService","metadata":{"name":"v1.apps","resourceVersion":"8"},"spec":{"group":"apps"}})"));
    encodeApiService(event);
    QCOMPARE(json::parse(encodeApiService(event))["object"]["columnDefinitions"].size(), std::size_t(4));
}

void TestTableOutput::testCustomResourcePrinterColumns()
{
    registry::ResourceType widget = typeOf("Widget");
    widget.custom = true;
    widget.printerColumns = json::parse(R"([{"name":"Size","type":"integer","jsonPath":".spec.size"},
        {"name":"First Part","type":"string","jsonPath":".spec.parts[0].name","priority":1},
        {"name":"Since","type":"date","jsonPath":".status.since"}])");
    const Printer printer = printerFor(widget);
    QCOMPARE(printer.columns.size(), std::size_t(4));
    QCOMPARE(printer.columns[2].priority, 1);
    QCOMPARE(printer.columns[1].description, std::string("Custom resource definition column (in JSONPath format): .spec.size"));
    const json cells = printer.cells(json::parse(R"({"metadata":{"name":"w"},"spec":{"size":2.7,"parts":[{"name":"a"}]},
        "status":{"since":")" + ago(10) + R"("}})"), NOW);
    QCOMPARE(cells, json::parse(R"(["w",2,"a","10s"])"));
    QCOMPARE(printer.cells(json::parse(R"({"metadata":{"name":"w"},"spec":{"size":"big"}})"), NOW),
             json::parse(R"(["w",null,null,null])"));
    // Without printer columns: Name and Age (a date column).
    widget.printerColumns = nullptr;
    const Printer plain = printerFor(widget);
    QCOMPARE(plain.columns.size(), std::size_t(2));
    QCOMPARE(plain.columns[1].name, std::string("Age"));
    QCOMPARE(plain.columns[1].type, std::string("date"));
}

QTEST_GUILESS_MAIN(TestTableOutput)
#include "TestTableOutput.moc"
