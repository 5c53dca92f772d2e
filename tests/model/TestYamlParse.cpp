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

QTEST_GUILESS_MAIN(TestYamlParse)
#include "TestYamlParse.moc"
