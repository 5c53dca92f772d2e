// SPDX-License-Identifier: MIT
// UTF-8 as Go reads it: what is valid, and what an invalid byte becomes.
#include <QtTest/QtTest>

#include "model/Utf8.h"

using rvscope::model::coerceToUtf8;
using rvscope::model::isUtf8;

class TestUtf8 final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testInvalidBytesBecomeReplacementCharacters_data();
    void testInvalidBytesBecomeReplacementCharacters();
};

void TestUtf8::testInvalidBytesBecomeReplacementCharacters_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("coerced"); // what Go's utf8.DecodeRune makes of it
    const QByteArray fffd = "\xEF\xBF\xBD";
    QTest::newRow("ASCII") << QByteArray("plain") << QByteArray("plain");
    QTest::newRow("valid multi-byte") << QByteArray("\xC3\xA9t\xC3\xA9 \xF0\x9F\x98\x80") << QByteArray("\xC3\xA9t\xC3\xA9 \xF0\x9F\x98\x80");
    QTest::newRow("two bad bytes") << QByteArray("\xFF\xFE") << fffd + fffd;
    QTest::newRow("lead without its continuation") << QByteArray("\xC3(") << fffd + "(";
    QTest::newRow("truncated three-byte sequence") << QByteArray("\xE2\x82") << fffd + fffd;
    QTest::newRow("overlong") << QByteArray("\xC0\xAF") << fffd + fffd;
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << fffd + fffd + fffd;
    QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80x") << fffd + fffd + fffd + fffd + "x";
}

void TestUtf8::testInvalidBytesBecomeReplacementCharacters()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, coerced);
    const std::string_view view(text.constData(), std::size_t(text.size()));
    QCOMPARE(isUtf8(view), text == coerced);
    QCOMPARE(QByteArray::fromStdString(coerceToUtf8(view)), coerced);
    QVERIFY(isUtf8(coerceToUtf8(view)));
}

QTEST_GUILESS_MAIN(TestUtf8)
#include "TestUtf8.moc"
