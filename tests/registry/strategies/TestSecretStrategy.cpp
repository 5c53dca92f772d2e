// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StrategyTestSupport.h"
#include "registry/strategies/Base64.h"
#include "registry/strategies/SecretStrategy.h"

using rvscope::model::Object;
using rvscope::registry::SecretStrategy;
using rvscope::testing::causeOn;
using rvscope::testing::describe;
using rvscope::testing::objectFrom;

namespace {
Object createdSecret(const char *json)
{
    Object secret = objectFrom(json);
    rvscope::testing::stampIdentity(secret);
    SecretStrategy().prepareForCreate(secret);
    return secret;
}
} // namespace

class TestSecretStrategy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testTypeProperties();
    void testCreateDefaultsTypeToOpaque();
    void testStringDataIsMergedIntoData();
    void testStringDataIsMergedOnUpdate();
    void testBase64_data();
    void testBase64();
    void testInvalidBase64IsRejected();
    void testInvalidKeyIsRejected();
    void testWellKnownTypesRequireTheirKeys();
    void testTypeIsImmutable();
    void testImmutableSecretKeepsItsData();
    void testSelectableFields();
};

void TestSecretStrategy::testTypeProperties()
{
    const SecretStrategy strategy;
    QVERIFY(strategy.namespaced());
    QVERIFY(!strategy.hasGeneration());
    QVERIFY(!strategy.allowCreateOnUpdate());
    QVERIFY(strategy.allowUnconditionalUpdate());
    QCOMPARE(strategy.extraFieldLabels(), std::vector<std::string>{"type"});
}

void TestSecretStrategy::testCreateDefaultsTypeToOpaque()
{
    const Object secret = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"data":{"a":"YQ=="}})");
    QCOMPARE(secret.json()["type"], nlohmann::json("Opaque"));
    QVERIFY(SecretStrategy().validate(secret).empty());
    const Object typed = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"type":"example.com/x"})");
    QCOMPARE(typed.json()["type"], nlohmann::json("example.com/x"));
}

void TestSecretStrategy::testStringDataIsMergedIntoData()
{
    const Object secret = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},
        "data":{"user":"b2xk","keep":"a2VlcA=="},"stringData":{"user":"admin","pass":"s3cr3t!"}})");
    QCOMPARE(secret.json()["data"], nlohmann::json::parse(R"({"user":"YWRtaW4=","keep":"a2VlcA==","pass":"czNjcjN0IQ=="})"));
    QVERIFY(!secret.json().contains("stringData"));
    QVERIFY(SecretStrategy().validate(secret).empty());
    const Object empty = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"stringData":{}})");
    QVERIFY(!empty.json().contains("data"));
    QVERIFY(!empty.json().contains("stringData"));
}

void TestSecretStrategy::testStringDataIsMergedOnUpdate()
{
    const Object old = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"data":{"a":"YQ=="}})");
    Object updated = old;
    updated.mutableJson()["stringData"] = {{"b", "bee"}};
    SecretStrategy().prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["data"], nlohmann::json::parse(R"({"a":"YQ==","b":"YmVl"})"));
    QVERIFY(!updated.json().contains("stringData"));
    QVERIFY(SecretStrategy().validateUpdate(updated, old).empty());
}

void TestSecretStrategy::testBase64_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("errorOffset");
    QTest::newRow("empty") << QByteArray("") << QByteArray("") << -1;
    QTest::newRow("one byte") << QByteArray("YQ==") << QByteArray("a") << -1;
    QTest::newRow("two bytes") << QByteArray("YWI=") << QByteArray("ab") << -1;
    QTest::newRow("newlines skipped") << QByteArray("YW\nJj\r\n") << QByteArray("abc") << -1;
    // Offsets as Go's CorruptInputError reports them.
    QTest::newRow("missing padding") << QByteArray("YWJ") << QByteArray() << 0;
    QTest::newRow("bad character") << QByteArray("YW!j") << QByteArray() << 2;
    QTest::newRow("half padding") << QByteArray("YQ=") << QByteArray() << 3;
    QTest::newRow("early padding") << QByteArray("Y===") << QByteArray() << 1;
    QTest::newRow("trailing garbage") << QByteArray("YQ==YQ==") << QByteArray() << 4;
}

void TestSecretStrategy::testBase64()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, bytes);
    QFETCH(int, errorOffset);
    const auto decoded = rvscope::registry::base64Decode(text.toStdString());
    if (errorOffset < 0) {
        QVERIFY(!decoded.errorOffset);
        QCOMPARE(QByteArray::fromStdString(decoded.bytes), bytes);
        QCOMPARE(QByteArray::fromStdString(rvscope::registry::base64Encode(bytes.toStdString())),
                 text.replace("\n", "").replace("\r", ""));
    } else {
        QVERIFY(decoded.errorOffset);
        QCOMPARE(int(*decoded.errorOffset), errorOffset);
    }
}

void TestSecretStrategy::testInvalidBase64IsRejected()
{
    const Object secret = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"data":{"token":"not base64!"}})");
    RVSCOPE_EXPECT_CAUSE(SecretStrategy().validate(secret), "data[token]", "FieldValueInvalid",
                         "Invalid value: \"<secret contents redacted>\": illegal base64 data at input byte 3");
    const Object number = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"data":{"n":5}})");
    RVSCOPE_EXPECT_CAUSE(SecretStrategy().validate(number), "data[n]", "FieldValueTypeInvalid",
                         "Invalid value: 5: must be a base64 string");
}

void TestSecretStrategy::testInvalidKeyIsRejected()
{
    const Object secret = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"stringData":{"bad key":"x"}})");
    RVSCOPE_EXPECT_CAUSE(SecretStrategy().validate(secret), "data[bad key]", "FieldValueInvalid",
                         "Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', "
                         "'_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
                         "'[-._a-zA-Z0-9]+')");
}

void TestSecretStrategy::testWellKnownTypesRequireTheirKeys()
{
    const Object tls = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"type":"kubernetes.io/tls",
        "stringData":{"tls.crt":"cert"}})");
    const auto causes = SecretStrategy().validate(tls);
    RVSCOPE_EXPECT_CAUSE(causes, "data[tls.key]", "FieldValueRequired", "Required value");
    QVERIFY(!causeOn(causes, "data[tls.crt]"));
    const Object docker = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},
        "type":"kubernetes.io/dockerconfigjson","stringData":{".dockerconfigjson":"{not json"}})");
    RVSCOPE_EXPECT_CAUSE(SecretStrategy().validate(docker), "data[.dockerconfigjson]", "FieldValueInvalid",
                         "Invalid value: \"<secret contents redacted>\": invalid character in JSON");
}

void TestSecretStrategy::testTypeIsImmutable()
{
    const Object old = createdSecret(R"({"metadata":{"name":"s","namespace":"default"}})");
    Object updated = old;
    updated.mutableJson()["type"] = "example.com/other";
    RVSCOPE_EXPECT_CAUSE(SecretStrategy().validateUpdate(updated, old), "type", "FieldValueInvalid",
                         "Invalid value: \"example.com/other\": field is immutable");
    // Leaving type out of a PUT defaults it back to Opaque: no change.
    Object replaced = objectFrom(R"({"metadata":{"name":"s","namespace":"default"}})");
    rvscope::testing::stampIdentity(replaced);
    SecretStrategy().prepareForUpdate(replaced, old);
    QVERIFY2(SecretStrategy().validateUpdate(replaced, old).empty(), qPrintable(describe(SecretStrategy().validateUpdate(replaced, old))));
}

void TestSecretStrategy::testImmutableSecretKeepsItsData()
{
    const Object old = createdSecret(R"({"metadata":{"name":"s","namespace":"default"},"immutable":true,"data":{"a":"YQ=="}})");
    Object relabelled = old;
    relabelled.setLabels({{"x", "y"}});
    QVERIFY(SecretStrategy().validateUpdate(relabelled, old).empty());

    Object changed = old;
    changed.mutableJson()["stringData"] = {{"a", "b"}};
    SecretStrategy().prepareForUpdate(changed, old);
    const auto causes = SecretStrategy().validateUpdate(changed, old);
    RVSCOPE_EXPECT_CAUSE(causes, "data", "FieldValueForbidden", "Forbidden: field is immutable when `immutable` is set");
    QVERIFY(!causeOn(causes, "immutable"));

    Object unfrozen = old;
    unfrozen.mutableJson()["immutable"] = false;
    RVSCOPE_EXPECT_CAUSE(SecretStrategy().validateUpdate(unfrozen, old), "immutable", "FieldValueForbidden",
                         "Forbidden: field is immutable when `immutable` is set");
}

void TestSecretStrategy::testSelectableFields()
{
    const Object secret = createdSecret(R"({"metadata":{"name":"s","namespace":"ns1"},"type":"kubernetes.io/basic-auth",
        "stringData":{"username":"u"}})");
    const std::map<std::string, std::string> expected = {
        {"metadata.name", "s"}, {"metadata.namespace", "ns1"}, {"type", "kubernetes.io/basic-auth"}};
    QCOMPARE(SecretStrategy().selectableFields(secret), expected);
}

QTEST_GUILESS_MAIN(TestSecretStrategy)
#include "TestSecretStrategy.moc"
