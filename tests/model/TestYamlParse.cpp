// SPDX-License-Identifier: MIT
// Server-side apply bodies in YAML: plain scalars typed as sigs.k8s.io/yaml types them,
// quoted ones strings, JSON accepted as YAML, and a clear error for broken input.
#include <QtTest/QtTest>

#include "model/YamlParse.h"

using namespace rvscope;
using nlohmann::json;

class TestYamlParse final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testScalarsAreTypedAsYamlTypesThem();
    void testJsonIsYaml();
    void testBrokenYamlIsAnError();
    void testNumbersAsGoReadsThem_data();
    void testNumbersAsGoReadsThem();
    void testTextThatIsNotUtf8IsRefusedAsGoYamlDoes_data();
    void testTextThatIsNotUtf8IsRefusedAsGoYamlDoes();
};

void TestYamlParse::testScalarsAreTypedAsYamlTypesThem()
{
    const auto parsed = model::parseYaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
                                         "data:\n  quoted: \"1\"\n  single: 'true'\n  plain: text\n"
                                         "spec:\n  replicas: 3\n  ratio: 0.5\n  on: true\n  off: null\n  list: [a, 2]\n");
    const json &value = std::get<json>(parsed);
    QCOMPARE(value["data"]["quoted"], json("1"));
    QCOMPARE(value["data"]["single"], json("true"));
    QCOMPARE(value["data"]["plain"], json("text"));
    QCOMPARE(value["spec"]["replicas"], json(3));
    QCOMPARE(value["spec"]["ratio"], json(0.5));
    QCOMPARE(value["spec"]["on"], json(true));
    QVERIFY(value["spec"]["off"].is_null());
    QCOMPARE(value["spec"]["list"], json::parse(R"(["a",2])"));
    QCOMPARE(value["metadata"]["name"], json("c"));
}

void TestYamlParse::testJsonIsYaml()
{
    const auto parsed = model::parseYaml(R"({"data":{"a":"1"},"n":[1,2]})");
    QCOMPARE(std::get<json>(parsed), json::parse(R"({"data":{"a":"1"},"n":[1,2]})"));
}

void TestYamlParse::testBrokenYamlIsAnError()
{
    const auto parsed = model::parseYaml("data: [unclosed\n");
    QVERIFY(std::holds_alternative<std::string>(parsed));
    QVERIFY(!std::get<std::string>(parsed).empty());
}

// Plain scalars that look like numbers: go-yaml takes what strconv parses whole and keeps
// the rest strings (a fuzzer's finding: std::stod threw on some and read others in part).
void TestYamlParse::testNumbersAsGoReadsThem_data()
{
    QTest::addColumn<QString>("scalar");
    QTest::addColumn<QString>("json");
    QTest::newRow("beyond a double") << "1e999" << "\"1e999\"";
    QTest::newRow("an integer beyond a double") << QString(400, u'9') << QString(u'"' + QString(400, u'9') + u'"');
    QTest::newRow("underflow") << "1e-999" << "0.0";
    QTest::newRow("a dot alone") << "-." << "\"-.\"";
    QTest::newRow("two dots") << "1.2.3" << "\"1.2.3\"";
    QTest::newRow("underscores") << "1_0.5" << "10.5";
    QTest::newRow("beyond int64, within uint64") << "18446744073709551615" << "18446744073709551615";
    QTest::newRow("beyond uint64") << "18446744073709551616" << "1.8446744073709552e+19";
}

void TestYamlParse::testNumbersAsGoReadsThem()
{
    QFETCH(QString, scalar);
    QFETCH(QString, json);
    const auto parsed = model::parseYaml("a: " + scalar.toStdString() + "\n");
    QVERIFY(std::holds_alternative<nlohmann::json>(parsed));
    QCOMPARE(QString::fromStdString(std::get<nlohmann::json>(parsed)["a"].dump()), json);
}

void TestYamlParse::testTextThatIsNotUtf8IsRefusedAsGoYamlDoes_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("a stray continuation byte") << QByteArray("a: \"x\x80\"\n") << "yaml: invalid leading UTF-8 octet";
    QTest::newRow("a lead without its trail") << QByteArray("a: \xc3(\n") << "yaml: invalid trailing UTF-8 octet";
    QTest::newRow("cut at the end") << QByteArray("a: \xe2\x82") << "yaml: incomplete UTF-8 octet sequence";
    QTest::newRow("overlong") << QByteArray("a: \xc0\xaf\n") << "yaml: invalid length of a UTF-8 sequence";
    QTest::newRow("a surrogate") << QByteArray("a: \xed\xa0\x80\n") << "yaml: invalid Unicode character";
}

void TestYamlParse::testTextThatIsNotUtf8IsRefusedAsGoYamlDoes()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    const auto parsed = model::parseYaml(std::string_view(text.constData(), std::size_t(text.size())));
    QVERIFY(std::holds_alternative<std::string>(parsed));
    QCOMPARE(QString::fromStdString(std::get<std::string>(parsed)), error);
}

QTEST_GUILESS_MAIN(TestYamlParse)
#include "TestYamlParse.moc"
