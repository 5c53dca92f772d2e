// SPDX-License-Identifier: MIT
#include <QTest>

#include <nlohmann/json.hpp>

#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"

using namespace rvscope::registry;

// field.Error rendering: the text of every 422 cause, and Go's %q quoting inside it.
class TestFieldErrors final : public QObject {
    Q_OBJECT

private slots:
    void goQuoteMatchesStrconvQuote_data();
    void goQuoteMatchesStrconvQuote();
    void causesCarryTypeFieldAndBody();
    void jsonValuesRenderLikeEncodingJson_data();
    void jsonValuesRenderLikeEncodingJson();
    void aggregateJoinsAndDeduplicates();
    void invalidStatusReadsLikeTheApiserver();
};

void TestFieldErrors::goQuoteMatchesStrconvQuote_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("quoted");

    QTest::newRow("plain") << QByteArray("Bad_x") << QByteArray(R"("Bad_x")");
    QTest::newRow("empty") << QByteArray("") << QByteArray(R"("")");
    QTest::newRow("double quote") << QByteArray(R"(a"b)") << QByteArray(R"("a\"b")");
    QTest::newRow("backslash") << QByteArray(R"(a\b)") << QByteArray(R"("a\\b")");
    QTest::newRow("single quote stays") << QByteArray("it's") << QByteArray(R"("it's")");
    QTest::newRow("newline and tab") << QByteArray("a\nb\tc") << QByteArray(R"("a\nb\tc")");
    QTest::newRow("other C escapes") << QByteArray("\a\b\f\r\v") << QByteArray(R"("\a\b\f\r\v")");
    QTest::newRow("control byte") << QByteArray("\x01") << QByteArray(R"("\x01")");
    QTest::newRow("NUL") << QByteArray("a\0b", 3) << QByteArray(R"("a\x00b")");
    QTest::newRow("DEL") << QByteArray("\x7f") << QByteArray(R"("\x7f")");
    QTest::newRow("printable UTF-8 stays") << QByteArray("caf\xc3\xa9 \xe2\x9c\x93") << QByteArray("\"caf\xc3\xa9 \xe2\x9c\x93\"");
    QTest::newRow("4-byte UTF-8 stays") << QByteArray("\xf0\x9f\x98\x80") << QByteArray("\"\xf0\x9f\x98\x80\"");
    QTest::newRow("invalid byte") << QByteArray("a\xffz") << QByteArray(R"("a\xffz")");
    QTest::newRow("truncated sequence") << QByteArray("\xc3") << QByteArray(R"("\xc3")");
    QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << QByteArray(R"("\xc0\xaf")");
    QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray(R"("\xed\xa0\x80")");
    QTest::newRow("no-break space") << QByteArray("\xc2\xa0") << QByteArray(R"("\u00a0")");
    QTest::newRow("C1 control") << QByteArray("\xc2\x85") << QByteArray(R"("\u0085")");
    QTest::newRow("zero-width space") << QByteArray("\xe2\x80\x8b") << QByteArray(R"("\u200b")");
    QTest::newRow("byte order mark") << QByteArray("\xef\xbb\xbf") << QByteArray(R"("\ufeff")");
}

void TestFieldErrors::goQuoteMatchesStrconvQuote()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, quoted);
    QCOMPARE(QByteArray::fromStdString(goQuote(input.toStdString())), quoted);
}

void TestFieldErrors::causesCarryTypeFieldAndBody()
{
    const auto invalid = invalidField("metadata.name", "Bad_x", "detail");
    QCOMPARE(invalid.type, std::string("FieldValueInvalid"));
    QCOMPARE(invalid.field, std::string("metadata.name"));
    QCOMPARE(invalid.message, std::string(R"(Invalid value: "Bad_x": detail)"));
    QCOMPARE(invalidField("f", "v", "").message, std::string(R"(Invalid value: "v")"));

    const auto required = requiredField("metadata.name", "name or generateName is required");
    QCOMPARE(required.type, std::string("FieldValueRequired"));
    QCOMPARE(required.message, std::string("Required value: name or generateName is required"));
    QCOMPARE(requiredField("metadata.namespace").message, std::string("Required value"));

    const auto forbidden = forbiddenField("metadata.namespace", "not allowed on this type");
    QCOMPARE(forbidden.type, std::string("FieldValueForbidden"));
    QCOMPARE(forbidden.message, std::string("Forbidden: not allowed on this type"));

    const auto tooLong = tooLongField("metadata.annotations", 262144);
    QCOMPARE(tooLong.type, std::string("FieldValueTooLong"));
    QCOMPARE(tooLong.message, std::string("Too long: must have at most 262144 bytes"));

    QCOMPARE(fieldErrorText(invalid), std::string(R"(metadata.name: Invalid value: "Bad_x": detail)"));
}

void TestFieldErrors::jsonValuesRenderLikeEncodingJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("message");

    QTest::newRow("null") << QByteArray("null") << QByteArray("Invalid value: null: d");
    QTest::newRow("negative integer") << QByteArray("-1") << QByteArray("Invalid value: -1: d");
    QTest::newRow("string array") << QByteArray(R"(["a","b"])") << QByteArray(R"(Invalid value: ["a","b"]: d)");
    QTest::newRow("HTML characters escaped") << QByteArray(R"(["<&>"])") << QByteArray(R"(Invalid value: ["\u003c\u0026\u003e"]: d)");
}

void TestFieldErrors::jsonValuesRenderLikeEncodingJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, message);
    const auto cause = invalidFieldJson("f", nlohmann::json::parse(json.toStdString()), "d");
    QCOMPARE(QByteArray::fromStdString(cause.message), message);
}

void TestFieldErrors::aggregateJoinsAndDeduplicates()
{
    const auto a = invalidField("a", "x", "one");
    const auto b = invalidField("b", "y", "two");
    QCOMPARE(aggregateErrorText({}), std::string());
    QCOMPARE(aggregateErrorText({a}), std::string(R"(a: Invalid value: "x": one)"));
    QCOMPARE(aggregateErrorText({a, b}), std::string(R"([a: Invalid value: "x": one, b: Invalid value: "y": two])"));
    QCOMPARE(aggregateErrorText({a, a}), std::string(R"(a: Invalid value: "x": one)"));
    QCOMPARE(aggregateErrorText({a, b, a}), std::string(R"([a: Invalid value: "x": one, b: Invalid value: "y": two])"));
}

void TestFieldErrors::invalidStatusReadsLikeTheApiserver()
{
    // model::errors::invalid() renders "<field>: <message>", so causes must not repeat the field.
    const auto status = rvscope::model::errors::invalid(
        "ConfigMap", "x", {invalidField("metadata.name", "x", "d"), requiredField("metadata.namespace")});
    QCOMPARE(status.code, 422);
    QCOMPARE(status.message,
             std::string(R"(ConfigMap "x" is invalid: [metadata.name: Invalid value: "x": d, metadata.namespace: Required value])"));
}

QTEST_GUILESS_MAIN(TestFieldErrors)
#include "TestFieldErrors.moc"
