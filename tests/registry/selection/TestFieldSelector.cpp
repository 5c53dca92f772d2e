// SPDX-License-Identifier: MIT
#include <QTest>

#include <algorithm>
#include <random>

#include "model/Status.h"
#include "registry/selection/FieldSelector.h"

using rvscope::registry::escapeFieldSelectorValue;
using rvscope::registry::FieldOperator;
using rvscope::registry::FieldSelector;

namespace {
std::map<std::string, std::string> fieldsFrom(const QStringList &entries)
{
    std::map<std::string, std::string> fields;
    for (const QString &entry : entries) {
        const qsizetype equals = entry.indexOf(QLatin1Char('='));
        fields[entry.left(equals).toStdString()] = entry.mid(equals + 1).toStdString();
    }
    return fields;
}

std::vector<std::string> sortedTerms(const FieldSelector &selector)
{
    std::vector<std::string> terms;
    for (const auto &requirement : selector.requirements())
        terms.push_back(requirement.field + (requirement.op == FieldOperator::Equals ? "=" : "!=") + requirement.value);
    std::sort(terms.begin(), terms.end());
    return terms;
}

void checkRequirements(const FieldSelector &selector, const QStringList &expected)
{
    QStringList actual;
    for (const auto &requirement : selector.requirements())
        actual << QString::fromStdString(requirement.field)
                      + (requirement.op == FieldOperator::Equals ? QStringLiteral(" = ") : QStringLiteral(" != "))
                      + QString::fromStdString(requirement.value);
    QCOMPARE(actual, expected);
}

const std::vector<std::string> METADATA_LABELS = {"metadata.name", "metadata.namespace"};
const QString NOT_A_KNOWN_FIELD = R"( is not a known field selector: only "metadata.name", "metadata.namespace")";
} // namespace

// fields.ParseSelector as the apiserver runs it on ?fieldSelector=, then the field label
// check, with upstream's exact 400 messages.
class TestFieldSelector final : public QObject {
    Q_OBJECT

private slots:
    void parses_data();
    void parses();
    void rejectsWithUpstreamMessage_data();
    void rejectsWithUpstreamMessage();
    void matches_data();
    void matches();
    void requiresExactMatch_data();
    void requiresExactMatch();
    void validatesFieldLabels_data();
    void validatesFieldLabels();
    void escapedValuesRoundTrip_data();
    void escapedValuesRoundTrip();
    void canonicalFormParsesBackToTheSameSelector();
    void oneTermEqualsIsAnExactMatch();
};

void TestFieldSelector::parses_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QStringList>("requirements"); // "field = value" / "field != value", unescaped
    QTest::addColumn<QString>("canonical");

    QTest::newRow("empty") << "" << QStringList{} << "";
    QTest::newRow("=") << "metadata.name=foo" << QStringList{"metadata.name = foo"} << "metadata.name=foo";
    QTest::newRow("== prints as =") << "metadata.name==foo" << QStringList{"metadata.name = foo"} << "metadata.name=foo";
    QTest::newRow("!=") << "metadata.name!=foo" << QStringList{"metadata.name != foo"} << "metadata.name!=foo";
    QTest::newRow("terms sorted") << "b=1,a=2" << QStringList{"a = 2", "b = 1"} << "a=2,b=1";
    QTest::newRow("!= sorts before = on the same field") << "a=b,a!=c" << QStringList{"a != c", "a = b"} << "a!=c,a=b";
    QTest::newRow("empty terms skipped") << ",a=b,,c=d," << QStringList{"a = b", "c = d"} << "a=b,c=d";
    QTest::newRow("empty value") << "spec.nodeName=" << QStringList{"spec.nodeName = "} << "spec.nodeName=";
    QTest::newRow("empty value with !=") << "spec.nodeName!=" << QStringList{"spec.nodeName != "} << "spec.nodeName!=";
    QTest::newRow("bare = is dropped") << "=" << QStringList{} << "";
    QTest::newRow("bare = next to a term") << "=,a=b" << QStringList{"a = b"} << "a=b";
    QTest::newRow("value without field is kept") << "=x" << QStringList{" = x"} << "=x";
    QTest::newRow("no whitespace trimming") << "a = b" << QStringList{"a  =  b"} << "a = b";
    QTest::newRow("first = splits") << "a=!b" << QStringList{"a = !b"} << "a=!b";
    QTest::newRow("! in the field") << "!a=b" << QStringList{"!a = b"} << "!a=b";
    QTest::newRow("escaped comma") << R"(a=x\,y)" << QStringList{"a = x,y"} << R"(a=x\,y)";
    QTest::newRow("escaped equals") << R"(a=x\=y)" << QStringList{"a = x=y"} << R"(a=x\=y)";
    QTest::newRow("escaped backslash") << R"(a=x\\y)" << QStringList{R"(a = x\y)"} << R"(a=x\\y)";
    QTest::newRow("only an escaped backslash") << R"(a=\\)" << QStringList{R"(a = \)"} << R"(a=\\)";
    QTest::newRow("escaped comma between terms") << R"(b=1\,2,a=3)" << QStringList{"a = 3", "b = 1,2"} << R"(a=3,b=1\,2)";
    QTest::newRow("escaped comma in the field is not unescaped")
        << R"(a\,b=c)" << QStringList{R"(a\,b = c)"} << R"(a\,b=c)";
    QTest::newRow("escaped backslash before a real comma") << R"(a=x\\,b=y)" << QStringList{R"(a = x\)", "b = y"}
                                                           << R"(a=x\\,b=y)";
    QTest::newRow("non-ASCII value") << QString::fromUtf8("a=\xc3\xa9") << QStringList{QString::fromUtf8("a = \xc3\xa9")}
                                     << QString::fromUtf8("a=\xc3\xa9");
}

void TestFieldSelector::parses()
{
    QFETCH(QString, selector);
    QFETCH(QStringList, requirements);
    QFETCH(QString, canonical);
    const auto parsed = FieldSelector::parse(selector.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    checkRequirements(*parsed, requirements);
    QCOMPARE(QString::fromStdString(parsed->toString()), canonical);
    QCOMPARE(parsed->empty(), requirements.isEmpty());
}

void TestFieldSelector::rejectsWithUpstreamMessage_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("message");

    QTest::newRow("no operator") << "abc" << "invalid selector: 'abc'; can't understand 'abc'";
    QTest::newRow("second term without operator") << "a=b,xyz" << "invalid selector: 'a=b,xyz'; can't understand 'xyz'";
    QTest::newRow("! alone is no operator") << "a!b" << "invalid selector: 'a!b'; can't understand 'a!b'";
    QTest::newRow("label-selector syntax") << "a in (b)" << "invalid selector: 'a in (b)'; can't understand 'a in (b)'";
    QTest::newRow("=== leaves = in the value") << "a===b" << "invalid field selector: unescaped character in value: 61";
    QTest::newRow("!== leaves = in the value") << "a!==b" << "invalid field selector: unescaped character in value: 61";
    QTest::newRow("= in the value") << "a=b=c" << "invalid field selector: unescaped character in value: 61";
    QTest::newRow("trailing backslash") << R"(a=b\)" << R"(invalid field selector: invalid escape sequence: \)";
    QTest::newRow("unknown escape") << R"(a=b\x)" << R"(invalid field selector: invalid escape sequence: \x)";
    QTest::newRow("escaped space") << R"(a=\ b)" << R"(invalid field selector: invalid escape sequence: \ )";
    QTest::newRow("escaped non-ASCII") << QString::fromUtf8("a=\\\xc3\xa9") << QString::fromUtf8(
        "invalid field selector: invalid escape sequence: \\\xc3\xa9");
    QTest::newRow("escaped comma kept whole, = refused") << R"(a=b\,c,d=e=f)" << "invalid field selector: unescaped character in value: 61";
    // Terms are sorted before they are parsed, so the first error is the first sorted term's.
    QTest::newRow("sorted order decides which error") << "z,a=b=c" << "invalid field selector: unescaped character in value: 61";
    QTest::newRow("sorted order, other way") << "a,z=b=c" << "invalid selector: 'a,z=b=c'; can't understand 'a'";
}

void TestFieldSelector::rejectsWithUpstreamMessage()
{
    QFETCH(QString, selector);
    QFETCH(QString, message);
    const auto parsed = FieldSelector::parse(selector.toStdString());
    QVERIFY2(!parsed.ok(), qPrintable("accepted: " + selector));
    QCOMPARE(parsed.error().code, 400);
    QCOMPARE(parsed.error().reason, std::string("BadRequest"));
    QCOMPARE(QString::fromStdString(parsed.error().message), message);
}

void TestFieldSelector::matches_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QStringList>("fields");
    QTest::addColumn<bool>("expected");

    QTest::newRow("= same") << "metadata.name=foo" << QStringList{"metadata.name=foo", "metadata.namespace=default"} << true;
    QTest::newRow("= other") << "metadata.name=foo" << QStringList{"metadata.name=bar"} << false;
    QTest::newRow("= missing field") << "metadata.name=foo" << QStringList{} << false;
    QTest::newRow("!= missing field") << "metadata.name!=foo" << QStringList{} << true;
    QTest::newRow("!= same") << "metadata.name!=foo" << QStringList{"metadata.name=foo"} << false;
    QTest::newRow("empty value matches a missing field") << "spec.nodeName=" << QStringList{} << true;
    QTest::newRow("empty value matches an empty field") << "spec.nodeName=" << QStringList{"spec.nodeName="} << true;
    QTest::newRow("empty value, field set") << "spec.nodeName=" << QStringList{"spec.nodeName=n1"} << false;
    QTest::newRow("!= empty, field set") << "spec.nodeName!=" << QStringList{"spec.nodeName=n1"} << true;
    QTest::newRow("AND") << "a=b,c!=d" << QStringList{"a=b", "c=e"} << true;
    QTest::newRow("AND fails") << "a=b,c!=d" << QStringList{"a=b", "c=d"} << false;
    QTest::newRow("escaped value") << R"(a=x\,y)" << QStringList{"a=x,y"} << true;
    QTest::newRow("case sensitive") << "status.phase=running" << QStringList{"status.phase=Running"} << false;
    QTest::newRow("everything") << "" << QStringList{} << true;
}

void TestFieldSelector::matches()
{
    QFETCH(QString, selector);
    QFETCH(QStringList, fields);
    QFETCH(bool, expected);
    const auto parsed = FieldSelector::parse(selector.toStdString());
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->matches(fieldsFrom(fields)), expected);
}

void TestFieldSelector::requiresExactMatch_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("field");
    QTest::addColumn<bool>("found");
    QTest::addColumn<QString>("value");

    QTest::newRow("=") << "metadata.name=foo" << "metadata.name" << true << "foo";
    QTest::newRow("==") << "metadata.name==foo" << "metadata.name" << true << "foo";
    QTest::newRow("empty value") << "metadata.name=" << "metadata.name" << true << "";
    QTest::newRow("!=") << "metadata.name!=foo" << "metadata.name" << false << "";
    QTest::newRow("other field") << "metadata.namespace=foo" << "metadata.name" << false << "";
    QTest::newRow("among other terms") << "a=b,metadata.name=x" << "metadata.name" << true << "x";
    // Unlike label selectors, a != term does not stop the search.
    QTest::newRow("!= then = on the same field") << "metadata.name!=a,metadata.name=b" << "metadata.name" << true << "b";
    QTest::newRow("escaped value") << R"(metadata.name=a\=b)" << "metadata.name" << true << "a=b";
}

void TestFieldSelector::requiresExactMatch()
{
    QFETCH(QString, selector);
    QFETCH(QString, field);
    QFETCH(bool, found);
    QFETCH(QString, value);
    const auto parsed = FieldSelector::parse(selector.toStdString());
    QVERIFY(parsed.ok());
    const auto exact = parsed->requiresExactMatch(field.toStdString());
    QCOMPARE(exact.has_value(), found);
    if (found)
        QCOMPARE(QString::fromStdString(*exact), value);
}

void TestFieldSelector::validatesFieldLabels_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QStringList>("extraLabels"); // beyond metadata.name/namespace; non-empty = custom
    QTest::addColumn<QString>("message");         // "" when accepted

    QTest::newRow("metadata.name") << "metadata.name=a" << QStringList{} << "";
    QTest::newRow("metadata.namespace") << "metadata.namespace!=a" << QStringList{} << "";
    QTest::newRow("everything") << "" << QStringList{} << "";
    QTest::newRow("default set refuses spec.nodeName") << "spec.nodeName=a" << QStringList{}
                                                       << "\"spec.nodeName\"" + NOT_A_KNOWN_FIELD;
    QTest::newRow("untrimmed field") << "metadata.name =a" << QStringList{} << "\"metadata.name \"" + NOT_A_KNOWN_FIELD;
    QTest::newRow("empty field") << "=x" << QStringList{} << "\"\"" + NOT_A_KNOWN_FIELD;
    QTest::newRow("quote in field") << "a\"b=x" << QStringList{} << "\"a\\\"b\"" + NOT_A_KNOWN_FIELD;
    QTest::newRow("first unsupported in sorted order") << "z=1,b=2" << QStringList{} << "\"b\"" + NOT_A_KNOWN_FIELD;
    QTest::newRow("custom set accepts its field") << "spec.nodeName=n1,metadata.name=p" << QStringList{"spec.nodeName"} << "";
    QTest::newRow("custom set refuses others") << "status.foo=a" << QStringList{"spec.nodeName", "status.phase"}
                                               << "field label not supported: status.foo";
    QTest::newRow("custom set, unquoted field") << "a b=c" << QStringList{"type"} << "field label not supported: a b";
}

void TestFieldSelector::validatesFieldLabels()
{
    QFETCH(QString, selector);
    QFETCH(QStringList, extraLabels);
    QFETCH(QString, message);
    const auto parsed = FieldSelector::parse(selector.toStdString());
    QVERIFY(parsed.ok());
    std::vector<std::string> supported = METADATA_LABELS;
    for (const QString &label : extraLabels)
        supported.push_back(label.toStdString());
    const auto refused = parsed->validateLabels(supported, !extraLabels.isEmpty());
    QCOMPARE(refused.has_value(), !message.isEmpty());
    if (refused) {
        QCOMPARE(refused->code, 400);
        QCOMPARE(refused->reason, std::string("BadRequest"));
        QCOMPARE(QString::fromStdString(refused->message), message);
    }
}

void TestFieldSelector::escapedValuesRoundTrip_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("escaped");

    QTest::newRow("plain") << "foo" << "foo";
    QTest::newRow("comma") << "a,b" << R"(a\,b)";
    QTest::newRow("equals") << "a=b" << R"(a\=b)";
    QTest::newRow("backslash") << R"(a\b)" << R"(a\\b)";
    QTest::newRow("all of them") << R"(\,=)" << R"(\\\,\=)";
    QTest::newRow("operators") << "!=" << R"(!\=)";
    QTest::newRow("empty") << "" << "";
}

void TestFieldSelector::escapedValuesRoundTrip()
{
    QFETCH(QString, value);
    QFETCH(QString, escaped);
    QCOMPARE(QString::fromStdString(escapeFieldSelectorValue(value.toStdString())), escaped);
    const auto parsed = FieldSelector::parse("f=" + escaped.toStdString());
    QVERIFY(parsed.ok());
    QCOMPARE(QString::fromStdString(parsed->requiresExactMatch("f").value_or("<none>")), value);
}

void TestFieldSelector::canonicalFormParsesBackToTheSameSelector()
{
    static const char ALPHABET[] = "ab=!,\\ ";
    std::mt19937 random(7);
    int accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string selector;
        const int length = int(random() % 10);
        for (int i = 0; i < length; ++i)
            selector += ALPHABET[random() % (sizeof(ALPHABET) - 1)];
        const auto parsed = FieldSelector::parse(selector);
        if (!parsed.ok()) {
            QCOMPARE(parsed.error().code, 400);
            continue;
        }
        ++accepted;
        // Re-escaping can change how terms sort ("a==b" prints as "a=b"), so compare the
        // terms as a set.
        const auto again = FieldSelector::parse(parsed->toString());
        QVERIFY2(again.ok(), selector.c_str());
        QVERIFY2(sortedTerms(*again) == sortedTerms(*parsed), selector.c_str());
    }
    QVERIFY(accepted > 500);
}

void TestFieldSelector::oneTermEqualsIsAnExactMatch()
{
    const FieldSelector selector = FieldSelector::oneTermEquals("metadata.name", "a,b");
    QCOMPARE(selector.toString(), std::string(R"(metadata.name=a\,b)"));
    QCOMPARE(selector.requiresExactMatch("metadata.name").value_or(""), std::string("a,b"));
    QVERIFY(selector.matches({{"metadata.name", "a,b"}}));
    QVERIFY(!selector.matches({{"metadata.name", "a"}}));
    QVERIFY(FieldSelector::everything().empty());
}

QTEST_GUILESS_MAIN(TestFieldSelector)
#include "TestFieldSelector.moc"
