// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "api/QueryString.h"

using rvscope::api::encodeQueryString;
using rvscope::api::parseQueryString;
using Query = std::map<std::string, std::string>;

class TestQueryString final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testDecodesAsGo_data();
    void testDecodesAsGo();
    void testEncodeRoundTrips();
};

void TestQueryString::testDecodesAsGo_data()
{
    QTest::addColumn<QString>("raw");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value"); // "<absent>": not in the result
    // What kubectl 1.32 sends for `-l 'name in (valid-pod)'`: '+' is a space.
    QTest::newRow("set selector") << "labelSelector=name+in+%28valid-pod%29&limit=500" << "labelSelector"
                                  << "name in (valid-pod)";
    QTest::newRow("notin") << "labelSelector=tier+notin+%28a%2Cb%29" << "labelSelector" << "tier notin (a,b)";
    QTest::newRow("exists") << "labelSelector=name" << "labelSelector" << "name";
    QTest::newRow("not exists") << "labelSelector=%21name" << "labelSelector" << "!name";
    QTest::newRow("escaped plus") << "fieldSelector=a%2Bb" << "fieldSelector" << "a+b";
    QTest::newRow("escaped amp") << "x=a%26b&y=2" << "x" << "a&b";
    QTest::newRow("utf-8") << "x=%E2%9C%93" << "x" << QString::fromUtf8("✓");
    QTest::newRow("no value") << "watch" << "watch" << "";
    QTest::newRow("empty value") << "watch=" << "watch" << "";
    QTest::newRow("first wins") << "limit=1&limit=2" << "limit" << "1";
    QTest::newRow("escaped name") << "a%20b=1" << "a b" << "1";
    QTest::newRow("bad escape dropped") << "x=%zz&y=1" << "x" << "<absent>";
    QTest::newRow("others survive a bad escape") << "x=%zz&y=1" << "y" << "1";
    QTest::newRow("short escape dropped") << "x=ab%4" << "x" << "<absent>";
    QTest::newRow("semicolon dropped") << "x=1;y=2&z=3" << "x" << "<absent>";
    QTest::newRow("empty pairs skipped") << "&&x=1&" << "x" << "1";
}

void TestQueryString::testDecodesAsGo()
{
    QFETCH(QString, raw);
    QFETCH(QString, name);
    QFETCH(QString, value);
    const Query query = parseQueryString(raw.toStdString());
    const auto it = query.find(name.toStdString());
    if (value == u"<absent>") {
        QVERIFY(it == query.end());
        return;
    }
    QVERIFY(it != query.end());
    QCOMPARE(QString::fromStdString(it->second), value);
}

void TestQueryString::testEncodeRoundTrips()
{
    const Query query{{"labelSelector", "name in (a,b),!x"}, {"fieldSelector", "a+b=c&d"}, {"x y", "%✓"}};
    const std::string encoded = encodeQueryString(query);
    QCOMPARE(QString::fromStdString(encoded),
             QStringLiteral("fieldSelector=a%2Bb%3Dc%26d&labelSelector=name+in+%28a%2Cb%29%2C%21x&x+y=%25%E2%9C%93"));
    QCOMPARE(parseQueryString(encoded), query);
}

QTEST_GUILESS_MAIN(TestQueryString)
#include "TestQueryString.moc"
