// SPDX-License-Identifier: MIT
// The JSON edits and comparisons behind defaulting and the update rules of the strategies.
#include <QTest>

#include <nlohmann/json.hpp>

#include "registry/strategies/JsonEdit.h"

using nlohmann::json;
namespace jsonedit = rvscope::registry::jsonedit;

class TestJsonEdit final : public QObject {
    Q_OBJECT

private slots:
    void setDefaultFillsOnlyAbsentOrNull();
    void setDefaultStringTreatsEmptyAsUnset();
    void semanticEqualTreatsZeroValuesAsAbsent_data();
    void semanticEqualTreatsZeroValuesAsAbsent();
};

void TestJsonEdit::setDefaultFillsOnlyAbsentOrNull()
{
    json object = json::parse(R"({"zero":0,"empty":"","no":false,"none":null,"list":[],"set":5})");
    for (const char *key : {"zero", "empty", "no", "list", "set"})
        jsonedit::setDefault(object, key, 42);
    jsonedit::setDefault(object, "none", 1);
    jsonedit::setDefault(object, "absent", "25%");
    jsonedit::setDefault(object, "fresh", json::value_t::object);
    QCOMPARE(object.dump(),
             json::parse(R"({"zero":0,"empty":"","no":false,"none":1,"list":[],"set":5,"absent":"25%","fresh":{}})").dump());

    // Not an object: nothing to default, nothing thrown.
    json list = json::array();
    jsonedit::setDefault(list, "x", 1);
    QCOMPARE(list.dump(), std::string("[]"));
    QVERIFY(!jsonedit::unsetMember(list, "x"));
    json text = "s";
    QVERIFY(!jsonedit::unsetStringMember(text, "x"));
}

void TestJsonEdit::setDefaultStringTreatsEmptyAsUnset()
{
    json object = json::parse(R"({"empty":"","set":"Never","number":3,"none":null})");
    for (const char *key : {"empty", "set", "number", "none", "absent"})
        jsonedit::setDefaultString(object, key, "Always");
    QCOMPARE(object.dump(),
             json::parse(R"({"empty":"Always","set":"Never","number":3,"none":"Always","absent":"Always"})").dump());
    QVERIFY(jsonedit::isString(object["set"], "Never"));
    QVERIFY(!jsonedit::isString(object["number"], "3"));
}

void TestJsonEdit::semanticEqualTreatsZeroValuesAsAbsent_data()
{
    QTest::addColumn<QByteArray>("left");
    QTest::addColumn<QByteArray>("right");
    QTest::addColumn<bool>("equal");

    QTest::newRow("same") << QByteArray(R"({"a":1,"b":{"c":[1,2]}})") << QByteArray(R"({"b":{"c":[1,2]},"a":1})") << true;
    QTest::newRow("numbers by value") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1.0})") << true;
    QTest::newRow("null member") << QByteArray(R"({"a":1,"b":null})") << QByteArray(R"({"a":1})") << true;
    QTest::newRow("empty map member, either side") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1,"m":{}})") << true;
    QTest::newRow("nested zeros") << QByteArray(R"({"m":{"x":{"y":null},"l":[]}})") << QByteArray(R"({})") << true;
    QTest::newRow("zero of another shape") << QByteArray(R"({"m":{}})") << QByteArray(R"({"m":[]})") << true;
    QTest::newRow("zero scalar counts") << QByteArray(R"({"a":0})") << QByteArray(R"({})") << false;
    QTest::newRow("empty string counts") << QByteArray(R"({"a":""})") << QByteArray(R"({"a":null})") << false;
    QTest::newRow("extra key on the left") << QByteArray(R"({"a":1,"z":2})") << QByteArray(R"({"a":1})") << false;
    QTest::newRow("extra key on the right") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1,"b":2})") << false;
    QTest::newRow("zero against non-zero") << QByteArray(R"({"m":{}})") << QByteArray(R"({"m":{"x":1}})") << false;
    QTest::newRow("deep difference") << QByteArray(R"({"s":{"t":{"c":[{"n":"a","v":"0"}]}}})")
                                     << QByteArray(R"({"s":{"t":{"c":[{"n":"a","v":"5"}]}}})") << false;
    QTest::newRow("list elements are kept") << QByteArray(R"({"l":[{}]})") << QByteArray(R"({"l":[{"x":null}]})") << true;
    QTest::newRow("list lengths") << QByteArray(R"({"l":[{}]})") << QByteArray(R"({"l":[{},{}]})") << false;
    QTest::newRow("null element is not {}") << QByteArray(R"({"l":[null]})") << QByteArray(R"({"l":[{}]})") << false;
    QTest::newRow("interleaved keys") << QByteArray(R"({"a":1,"c":null,"e":3})") << QByteArray(R"({"b":{},"a":1,"d":[],"e":3})")
                                      << true;
}

void TestJsonEdit::semanticEqualTreatsZeroValuesAsAbsent()
{
    QFETCH(QByteArray, left);
    QFETCH(QByteArray, right);
    QFETCH(bool, equal);
    const json a = json::parse(left.toStdString());
    const json b = json::parse(right.toStdString());
    QCOMPARE(jsonedit::semanticEqual(a, b), equal);
    QCOMPARE(jsonedit::semanticEqual(b, a), equal);
}

QTEST_GUILESS_MAIN(TestJsonEdit)
#include "TestJsonEdit.moc"
