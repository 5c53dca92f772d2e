// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "model/Object.h"

using rvscope::model::Object;
using rvscope::model::parseResourceVersion;

class TestObject final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testParseValidObject();
    void testParseRejectsBadInput_data();
    void testParseRejectsBadInput();
    void testMetadataAccessors();
    void testAbsentMetadataIsEmpty();
    void testSettersRoundTrip();
    void testBytesAreCachedAndInvalidated();
    void testParseResourceVersion_data();
    void testParseResourceVersion();
    void testBytesOnlyAccessorsAgreeWithTheTree_data();
    void testBytesOnlyAccessorsAgreeWithTheTree();
};

void TestObject::testParseValidObject()
{
    auto parsed = Object::parse(R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"foo"}})");
    QVERIFY(parsed);
    QCOMPARE(parsed->kind(), std::string("ConfigMap"));
    QCOMPARE(parsed->apiVersion(), std::string("v1"));
    QCOMPARE(parsed->name(), std::string("foo"));
}

void TestObject::testParseRejectsBadInput_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::newRow("truncated") << QByteArray(R"({"kind":)");
    QTest::newRow("array") << QByteArray("[1,2]");
    QTest::newRow("string") << QByteArray(R"("x")");
    QTest::newRow("empty") << QByteArray();
}

void TestObject::testParseRejectsBadInput()
{
    QFETCH(QByteArray, input);
    auto parsed = Object::parse(std::string_view(input.constData(), static_cast<std::size_t>(input.size())));
    QVERIFY(!parsed);
    QCOMPARE(parsed.error().code, 400);
    QCOMPARE(parsed.error().reason, std::string("BadRequest"));
}

void TestObject::testMetadataAccessors()
{
    auto object = Object::parse(R"({"metadata":{
        "name":"web","generateName":"web-","namespace":"prod","uid":"u-1","resourceVersion":"42",
        "generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-03T00:00:00Z",
        "labels":{"app":"web","tier":"front"},"annotations":{"note":"x"},"finalizers":["a/b","c"]}})")
                      .value();
    QCOMPARE(object.name(), std::string("web"));
    QCOMPARE(object.generateName(), std::string("web-"));
    QCOMPARE(object.namespaceName(), std::string("prod"));
    QCOMPARE(object.uid(), std::string("u-1"));
    QCOMPARE(object.resourceVersion(), std::string("42"));
    QCOMPARE(object.generation().value_or(-1), std::int64_t(3));
    QCOMPARE(object.creationTimestamp(), std::string("2024-01-02T03:04:05Z"));
    QCOMPARE(object.deletionTimestamp(), std::string("2024-01-03T00:00:00Z"));
    QCOMPARE(object.labels(), (std::map<std::string, std::string>{{"app", "web"}, {"tier", "front"}}));
    QCOMPARE(object.annotations().at("note"), std::string("x"));
    QCOMPARE(object.finalizers(), (std::vector<std::string>{"a/b", "c"}));
}

void TestObject::testAbsentMetadataIsEmpty()
{
    for (const char *text : {R"({})", R"({"metadata":null})", R"({"metadata":{"name":7,"labels":[1]}})"}) {
        Object object = Object::parse(text).value();
        QVERIFY(object.name().empty());
        QVERIFY(object.labels().empty());
        QVERIFY(object.finalizers().empty());
        QVERIFY(!object.generation());
    }
}

void TestObject::testSettersRoundTrip()
{
    Object object;
    object.setName("foo");
    object.setNamespace("default");
    object.setUid("u");
    object.setResourceVersion("7");
    object.setGeneration(2);
    object.setCreationTimestamp("2024-01-02T03:04:05Z");
    object.setLabels({{"a", "1"}});
    object.setAnnotations({{"b", "2"}});
    object.setFinalizers({"f"});
    QCOMPARE(object.bytes(),
             std::string(R"({"metadata":{"annotations":{"b":"2"},"creationTimestamp":"2024-01-02T03:04:05Z",)"
                         R"("finalizers":["f"],"generation":2,"labels":{"a":"1"},"name":"foo","namespace":"default",)"
                         R"("resourceVersion":"7","uid":"u"}})"));
    // Empty values remove the field, as the apiserver omits empty metadata.
    object.setResourceVersion("");
    object.setGeneration(std::nullopt);
    object.setLabels({});
    object.setFinalizers({});
    QVERIFY(!object.json()["metadata"].contains("resourceVersion"));
    QVERIFY(!object.json()["metadata"].contains("generation"));
    QVERIFY(!object.json()["metadata"].contains("labels"));
    QVERIFY(!object.json()["metadata"].contains("finalizers"));
}

void TestObject::testBytesAreCachedAndInvalidated()
{
    Object object = Object::parse(R"({"b":1,"a":2})").value();
    const std::string &first = object.bytes();
    QCOMPARE(first, std::string(R"({"a":2,"b":1})")); // canonical: keys sorted
    QCOMPARE(&object.bytes(), &first);
    object.mutableJson()["c"] = 3;
    QCOMPARE(object.bytes(), std::string(R"({"a":2,"b":1,"c":3})"));
    object.setName("n");
    QVERIFY(object.bytes().find(R"("name":"n")") != std::string::npos);
}

void TestObject::testBytesOnlyAccessorsAgreeWithTheTree_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("plain") << QByteArray(
        R"({"apiVersion":"v1","data":{"a":"x"},"kind":"ConfigMap","metadata":{"labels":{"app":"web"},"name":"web","namespace":"prod","resourceVersion":"42"}})");
    QTest::newRow("metadata first") << QByteArray(R"({"metadata":{"name":"a","generation":7},"kind":"K"})");
    QTest::newRow("escapes and brackets in strings before metadata") << QByteArray(
        R"({"data":{"q":"say \"}\" and ]","b":"back\\\\","u":"\u00e9{["},"metadata":{"name":"n\"1","finalizers":["a/b","c"]},"kind":"K"})");
    QTest::newRow("numbers, bools, nulls and nesting") << QByteArray(
        R"({"spec":{"n":-1.5e3,"t":true,"f":false,"z":null,"l":[[1,{"x":[]}],{}]},"metadata":{"generation":12,"deletionTimestamp":"t"},"apiVersion":"apps/v1"})");
    QTest::newRow("no metadata") << QByteArray(R"({"kind":"K","data":{"metadata":{"name":"inner"}}})");
    QTest::newRow("metadata not an object") << QByteArray(R"({"metadata":"x","kind":"K"})");
    QTest::newRow("escaped key") << QByteArray(R"({"me\u0074adata":{"name":"escaped"},"kind":"K"})");
    QTest::newRow("empty") << QByteArray("{}");
}

// Storage keeps cold objects as bytes only; their accessors read without building the tree,
// and must answer exactly what the tree would.
void TestObject::testBytesOnlyAccessorsAgreeWithTheTree()
{
    QFETCH(QByteArray, json);
    const Object tree = Object::parse(json.toStdString()).value();
    const Object bytesOnly = Object::fromTrustedBytes(json.toStdString());
    QCOMPARE(bytesOnly.kind(), tree.kind());
    QCOMPARE(bytesOnly.apiVersion(), tree.apiVersion());
    QCOMPARE(bytesOnly.name(), tree.name());
    QCOMPARE(bytesOnly.namespaceName(), tree.namespaceName());
    QCOMPARE(bytesOnly.resourceVersion(), tree.resourceVersion());
    QCOMPARE(bytesOnly.generation(), tree.generation());
    QCOMPARE(bytesOnly.deletionTimestamp(), tree.deletionTimestamp());
    QCOMPARE(bytesOnly.labels(), tree.labels());
    QCOMPARE(bytesOnly.finalizers(), tree.finalizers());
    if (!json.contains("\\u0074")) // an escaped key is the one case that parses the tree
        QVERIFY(!bytesOnly.holdsTree());
}

void TestObject::testParseResourceVersion_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("expected"); // -1: invalid
    QTest::newRow("zero") << "0" << qint64(0);
    QTest::newRow("number") << "12345" << qint64(12345);
    QTest::newRow("empty") << "" << qint64(-1);
    QTest::newRow("negative") << "-1" << qint64(-1);
    QTest::newRow("junk") << "12a" << qint64(-1);
    QTest::newRow("space") << " 1" << qint64(-1);
    QTest::newRow("overflow") << "99999999999999999999" << qint64(-1);
}

void TestObject::testParseResourceVersion()
{
    QFETCH(QString, text);
    QFETCH(qint64, expected);
    const auto parsed = parseResourceVersion(text.toStdString());
    QCOMPARE(parsed ? qint64(*parsed) : qint64(-1), expected);
}

QTEST_GUILESS_MAIN(TestObject)
#include "TestObject.moc"
