// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "model/GoJson.h"
#include "model/JsonParse.h"

using rvscope::model::appendGoJsonString;
using rvscope::model::goJsonSyntaxError;
using rvscope::model::goSummarizeData;

class TestGoJson final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testStringsAsGoWritesThem_data();
    void testStringsAsGoWritesThem();
    void testSyntaxErrorsInGoWords_data();
    void testSyntaxErrorsInGoWords();
    void testValidJsonHasNoError();
    void testSummarizeData();
};

void TestGoJson::testStringsAsGoWritesThem_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("plain") << QByteArray("abc") << QByteArray("\"abc\"");
    QTest::newRow("quotes") << QByteArray("a\"b\\c") << QByteArray("\"a\\\"b\\\\c\"");
    QTest::newRow("named controls") << QByteArray("\n\r\t\b\f") << QByteArray("\"\\n\\r\\t\\b\\f\"");
    QTest::newRow("other controls") << QByteArray("\x01\x1f", 2) << QByteArray("\"\\u0001\\u001f\"");
    QTest::newRow("html") << QByteArray("<a href='x'>&</a>") << QByteArray("\"\\u003ca href='x'\\u003e\\u0026\\u003c/a\\u003e\"");
    QTest::newRow("utf-8") << QByteArray("caf\xc3\xa9 \xe2\x9c\x93") << QByteArray("\"caf\xc3\xa9 \xe2\x9c\x93\"");
    QTest::newRow("line separators") << QByteArray("\xe2\x80\xa8\xe2\x80\xa9") << QByteArray("\"\\u2028\\u2029\"");
    QTest::newRow("invalid utf-8") << QByteArray("a\xff\xc3z") << QByteArray("\"a\\ufffd\\ufffdz\"");
    QTest::newRow("delete") << QByteArray("\x7f") << QByteArray("\"\x7f\"");
}

void TestGoJson::testStringsAsGoWritesThem()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, json);
    std::string out;
    appendGoJsonString(out, std::string_view(text.constData(), std::size_t(text.size())));
    QCOMPARE(QByteArray::fromStdString(out), json);
}

void TestGoJson::testSyntaxErrorsInGoWords_data()
{
    // Each as Go 1.23's json.Unmarshal words it.
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("error");
    QTest::newRow("yaml") << QByteArray("apiVersion: v1\n") << "invalid character 'a' looking for beginning of value";
    QTest::newRow("empty") << QByteArray() << "unexpected end of JSON input";
    QTest::newRow("spaces") << QByteArray("  \n") << "unexpected end of JSON input";
    QTest::newRow("open object") << QByteArray("{") << "unexpected end of JSON input";
    QTest::newRow("bare key") << QByteArray("{nope") << "invalid character 'n' looking for beginning of object key string";
    QTest::newRow("no colon") << QByteArray("{\"a\" 1}") << "invalid character '1' after object key";
    QTest::newRow("no comma") << QByteArray("{\"a\":1 \"b\":2}") << "invalid character '\"' after object key:value pair";
    QTest::newRow("trailing comma") << QByteArray("{\"a\":1,}") << "invalid character '}' looking for beginning of object key string";
    QTest::newRow("array") << QByteArray("[1 2]") << "invalid character '2' after array element";
    QTest::newRow("array comma") << QByteArray("[1,]") << "invalid character ']' looking for beginning of value";
    QTest::newRow("after value") << QByteArray("{} x") << "invalid character 'x' after top-level value";
    QTest::newRow("leading zero") << QByteArray("01") << "invalid character '1' after top-level value";
    QTest::newRow("minus") << QByteArray("-x") << "invalid character 'x' in numeric literal";
    QTest::newRow("decimal point") << QByteArray("1.x") << "invalid character 'x' after decimal point in numeric literal";
    QTest::newRow("exponent") << QByteArray("1ex") << "invalid character 'x' in exponent of numeric literal";
    QTest::newRow("literal") << QByteArray("trux") << "invalid character 'x' in literal true (expecting 'e')";
    QTest::newRow("null literal") << QByteArray("nul") << "unexpected end of JSON input";
    QTest::newRow("control in string") << QByteArray("\"a\tb\"") << "invalid character '\\t' in string literal";
    QTest::newRow("escape") << QByteArray("\"\\q\"") << "invalid character 'q' in string escape code";
    QTest::newRow("unicode escape") << QByteArray("\"\\u12x4\"") << "invalid character 'x' in \\u hexadecimal character escape";
    QTest::newRow("quote char") << QByteArray("'a'") << "invalid character '\\'' looking for beginning of value";
    QTest::newRow("high byte") << QByteArray("\xc3\xa9") << QString::fromUtf8("invalid character 'Ã' looking for beginning of value");
    QTest::newRow("nul byte") << QByteArray("\0", 1) << "invalid character '\\x00' looking for beginning of value";
    QTest::newRow("too deep") << QByteArray(10001, '[') << "exceeded max depth";
}

void TestGoJson::testSyntaxErrorsInGoWords()
{
    QFETCH(QByteArray, data);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(goJsonSyntaxError(std::string_view(data.constData(), std::size_t(data.size())))), error);
    // The JSON parser agrees that it is not JSON.
    QVERIFY(!rvscope::model::parseJson(std::string_view(data.constData(), std::size_t(data.size()))));
}

void TestGoJson::testValidJsonHasNoError()
{
    for (const char *valid : {"{}", " [ ] ", "{\"a\":[1,-2.5e+3,true,false,null,\"\\u00e9\\n\"]}", "0", "-0.0E-1", "\"x\""})
        QCOMPARE(goJsonSyntaxError(valid), std::string());
    QCOMPARE(goJsonSyntaxError(std::string(10000, '[') + std::string(10000, ']')), std::string());
}

void TestGoJson::testSummarizeData()
{
    QCOMPARE(goSummarizeData(""), std::string("<empty>"));
    QCOMPARE(goSummarizeData("{\"kind\":\"Pod\"}"), std::string("{\"kind\":\"Pod\"}"));
    QCOMPARE(goSummarizeData(std::string("{") + std::string(40, 'a')), std::string("{") + std::string(29, 'a') + " ...");
    QCOMPARE(goSummarizeData("ab"), std::string("6162"));
    std::string thirtyHex;
    for (int i = 0; i < 30; ++i)
        thirtyHex += "61";
    QCOMPARE(goSummarizeData(std::string(31, 'a')), thirtyHex + " ...");
    QCOMPARE(goSummarizeData(std::string(30, 'a')), thirtyHex);
}

QTEST_GUILESS_MAIN(TestGoJson)
#include "TestGoJson.moc"
