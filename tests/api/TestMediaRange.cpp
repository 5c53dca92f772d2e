// SPDX-License-Identifier: MIT
// Accept headers as the apiserver's content negotiation reads them.
#include <QtTest/QtTest>

#include "api/MediaRange.h"

using rvscope::api::acceptableByResourceEndpoint;
using rvscope::api::parseAccept;

class TestMediaRange final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testParseAcceptOrdersByWeight();
    void testResourceEndpointAccepts_data();
    void testResourceEndpointAccepts();
};

void TestMediaRange::testParseAcceptOrdersByWeight()
{
    const auto ranges = parseAccept("text/html;q=0.5, application/json;as=Table;v=v1;g=meta.k8s.io, */*;q=0");
    QCOMPARE(ranges.size(), std::size_t(2)); // q=0: not acceptable at all
    QCOMPARE(ranges[0].type, "application/json");
    QCOMPARE(ranges[0].param("as"), "Table");
    QCOMPARE(ranges[1].type, "text/html");
}

void TestMediaRange::testResourceEndpointAccepts_data()
{
    QTest::addColumn<QString>("accept");
    QTest::addColumn<bool>("acceptable");
    // What kubectl and the Python client send (wire contract §8.2, §8.3).
    QTest::newRow("none") << "" << true;
    QTest::newRow("json") << "application/json" << true;
    QTest::newRow("json and anything") << "application/json, */*" << true;
    QTest::newRow("kubectl get") << "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
                                    "g=meta.k8s.io,application/json"
                                 << true;
    QTest::newRow("protobuf") << "application/vnd.kubernetes.protobuf" << true;
    QTest::newRow("yaml") << "application/yaml" << true;
    QTest::newRow("any application type") << "application/*" << true;
    QTest::newRow("metadata only") << "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1" << true;
    QTest::newRow("watch stream") << "application/json;stream=watch" << true;
    QTest::newRow("unknown parameter") << "application/json;charset=utf-8" << true;
    // Nothing any serializer of the endpoint writes: 406.
    QTest::newRow("xml") << "application/xml" << false;
    QTest::newRow("text") << "text/plain, text/html" << false;
    QTest::newRow("json refused by weight") << "application/json;q=0, text/plain" << false;
    QTest::newRow("Table as protobuf") << "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io" << false;
    QTest::newRow("Table of another version") << "application/json;as=Table;v=v2;g=meta.k8s.io" << false;
    QTest::newRow("another kind") << "application/json;as=Deployment;v=v1;g=apps" << false;
    QTest::newRow("another stream") << "application/json;stream=logs" << false;
    QTest::newRow("another server version") << "application/json;sv=v2" << false;
    QTest::newRow("refused, then served") << "application/xml, application/json;as=Nope;g=x;v=v1, */*" << true;
}

void TestMediaRange::testResourceEndpointAccepts()
{
    QFETCH(QString, accept);
    QFETCH(bool, acceptable);
    QCOMPARE(acceptableByResourceEndpoint(accept.toStdString()), acceptable);
}

QTEST_GUILESS_MAIN(TestMediaRange)
#include "TestMediaRange.moc"
