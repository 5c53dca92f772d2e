// SPDX-License-Identifier: MIT
#include <QTest>

#include <random>

#include <nlohmann/json.hpp>

#include "model/Status.h"
#include "registry/selection/LabelSelector.h"

using rvscope::registry::LabelSelector;

namespace {
// "k=v" entries; an entry without '=' is a label with the empty value.
std::map<std::string, std::string> labelsFrom(const QStringList &entries)
{
    std::map<std::string, std::string> labels;
    for (const QString &entry : entries) {
        const qsizetype equals = entry.indexOf(QLatin1Char('='));
        if (equals < 0)
            labels[entry.toStdString()] = std::string();
        else
            labels[entry.left(equals).toStdString()] = entry.mid(equals + 1).toStdString();
    }
    return labels;
}

const QString KEY_NAME_REGEX_ERROR =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const QString LABEL_VALUE_REGEX_ERROR =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
    "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QString SUBDOMAIN_REGEX_ERROR =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QString OPERATORS = "in, notin, =, ==, !=, gt, lt";
} // namespace

// labels.Parse as the apiserver runs it on ?labelSelector=: grammar, canonical form, matching
// and the exact 400 messages real clients print.
class TestLabelSelector final : public QObject {
    Q_OBJECT

private slots:
    void parsesToCanonicalForm_data();
    void parsesToCanonicalForm();
    void rejectsWithUpstreamMessage_data();
    void rejectsWithUpstreamMessage();
    void parseErrorIsA400BadRequest();
    void matches_data();
    void matches();
    void requiresExactMatch_data();
    void requiresExactMatch();
    void emptySelectsEverythingAndNothingSelectsNothing();
    void nulByteEndsTheInputLikeUpstream();
    void canonicalFormParsesBackToTheSameSelector();
    void fromJson_data();
    void fromJson();
    void fromJsonNullSelectsNothing();
    void fromJsonMatchesLikeTheEquivalentString();
    void fromSetBuildsSortedEqualities();
};

void TestLabelSelector::parsesToCanonicalForm_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("canonical");
    QTest::addColumn<int>("requirementCount");

    QTest::newRow("empty selects everything") << "" << "" << 0;
    QTest::newRow("only whitespace") << " \t\r\n " << "" << 0;
    QTest::newRow("=") << "a=b" << "a=b" << 1;
    QTest::newRow("== keeps its spelling") << "a==b" << "a==b" << 1;
    QTest::newRow("!=") << "a!=b" << "a!=b" << 1;
    QTest::newRow("in") << "a in (x,y)" << "a in (x,y)" << 1;
    QTest::newRow("in sorts and dedups values") << "a in (y,x,y)" << "a in (x,y)" << 1;
    QTest::newRow("notin") << "a notin (x)" << "a notin (x)" << 1;
    QTest::newRow("exists") << "a" << "a" << 1;
    QTest::newRow("does not exist") << "!a" << "!a" << 1;
    QTest::newRow("does not exist with space") << "! a" << "!a" << 1;
    QTest::newRow("gt") << "a>1" << "a>1" << 1;
    QTest::newRow("lt") << "a<10" << "a<10" << 1;
    QTest::newRow("requirements sorted by key") << "b=1,a=2,c" << "a=2,b=1,c" << 3;
    QTest::newRow("same key keeps input order") << "a=b,a!=c" << "a=b,a!=c" << 2;
    QTest::newRow("spaces around everything") << "  a  =  b  ,  c  " << "a=b,c" << 2;
    QTest::newRow("tabs and newlines") << "\ta\t!=\tb\n,\r!d" << "a!=b,!d" << 2;
    QTest::newRow("no space before paren") << "a in(x)" << "a in (x)" << 1;
    QTest::newRow("notin without spaces") << "a notin(x),b in(y)" << "a notin (x),b in (y)" << 2;
    QTest::newRow("= with empty value") << "a=" << "a=" << 1;
    QTest::newRow("== with empty value") << "a==" << "a==" << 1;
    QTest::newRow("!= with empty value") << "a!=" << "a!=" << 1;
    QTest::newRow("empty value then more") << "a=,b" << "a=,b" << 2;
    QTest::newRow("in ()") << "a in ()" << "a in ()" << 1;
    QTest::newRow("in (,)") << "a in (,)" << "a in ()" << 1;
    QTest::newRow("in (x,) adds empty value") << "a in (x,)" << "a in (,x)" << 1;
    QTest::newRow("in (,x) adds empty value") << "a in (,x)" << "a in (,x)" << 1;
    QTest::newRow("in (x,,y) adds empty value") << "a in (x,,y)" << "a in (,x,y)" << 1;
    QTest::newRow("upstream doc example") << "x in (foo,,baz),y,z notin ()" << "x in (,baz,foo),y,z notin ()" << 3;
    QTest::newRow("in and notin as key and values") << "in in (in,notin)" << "in in (in,notin)" << 1;
    QTest::newRow("notin as key") << "notin notin (x)" << "notin notin (x)" << 1;
    QTest::newRow("in as a bare key") << "in" << "in" << 1;
    QTest::newRow("in as a value") << "a=in" << "a=in" << 1;
    QTest::newRow("prefixed key") << "example.com/app=web" << "example.com/app=web" << 1;
    QTest::newRow("63 character name part")
        << QString(63, QLatin1Char('k')) + "=v" << QString(63, QLatin1Char('k')) + "=v" << 1;
    QTest::newRow("63 character value") << "k=" + QString(63, QLatin1Char('v')) << "k=" + QString(63, QLatin1Char('v')) << 1;
    QTest::newRow("value charset") << "k=A.b-c_9" << "k=A.b-c_9" << 1;
}

void TestLabelSelector::parsesToCanonicalForm()
{
    QFETCH(QString, selector);
    QFETCH(QString, canonical);
    QFETCH(int, requirementCount);
    const auto parsed = LabelSelector::parse(selector.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(QString::fromStdString(parsed->toString()), canonical);
    QCOMPARE(int(parsed->requirements().size()), requirementCount);
    QCOMPARE(parsed->empty(), requirementCount == 0);
}

void TestLabelSelector::rejectsWithUpstreamMessage_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("message");

    // Top-level structure: these are not wrapped in "unable to parse requirement".
    QTest::newRow("trailing comma") << "a=b," << "found '', expected: identifier after ','";
    QTest::newRow("double comma") << "a=b,,c" << "found ',', expected: identifier after ','";
    QTest::newRow("leading comma") << ",a" << "found ',', expected: !, identifier, or 'end of string'";
    QTest::newRow("starts with =") << "=b" << "found '=', expected: !, identifier, or 'end of string'";
    QTest::newRow("starts with !=") << "!=a" << "found '!=', expected: !, identifier, or 'end of string'";
    QTest::newRow("starts with (") << "(a)" << "found '(', expected: !, identifier, or 'end of string'";
    QTest::newRow("two values") << "a=b c" << "found 'c', expected: ',' or 'end of string'";
    QTest::newRow("chained =") << "a=b=c" << "found '=', expected: ',' or 'end of string'";
    QTest::newRow("!key takes no operator") << "!a=b" << "found '=', expected: ',' or 'end of string'";
    QTest::newRow("!key takes no set") << "!a in (x)" << "found 'in', expected: ',' or 'end of string'";
    QTest::newRow("after a set") << "a in (x) y" << "found 'y', expected: ',' or 'end of string'";

    // Inside a requirement.
    QTest::newRow("no operator") << "a b" << "unable to parse requirement: found 'b', expected: " + OPERATORS;
    QTest::newRow("! is not binary") << "a!b" << "unable to parse requirement: found '!', expected: " + OPERATORS;
    QTest::newRow("( is no operator") << "a (b)" << "unable to parse requirement: found '(', expected: " + OPERATORS;
    QTest::newRow("bare !") << "!" << "unable to parse requirement: found '', expected: identifier";
    QTest::newRow("!!a") << "!!a" << "unable to parse requirement: found '!', expected: identifier";
    QTest::newRow("!= then =") << "a!==b" << "unable to parse requirement: found '=', expected: identifier";
    QTest::newRow("== then =") << "a===b" << "unable to parse requirement: found '=', expected: identifier";
    QTest::newRow(">=") << "a>=1" << "unable to parse requirement: found '=', expected: identifier";
    QTest::newRow("=!") << "a=!b" << "unable to parse requirement: found '!', expected: identifier";
    QTest::newRow("= then paren") << "a=(b)" << "unable to parse requirement: found '(', expected: identifier";
    QTest::newRow("in without paren") << "a in x" << "unable to parse requirement: found 'x' expected: '('";
    QTest::newRow("in at end") << "a in" << "unable to parse requirement: found '' expected: '('";
    QTest::newRow("notin without paren") << "a notin x" << "unable to parse requirement: found 'x' expected: '('";
    QTest::newRow("unclosed set") << "a in (x" << "unable to parse requirement: found '', expected: ',' or ')'";
    QTest::newRow("space in set") << "a in (x y)" << "unable to parse requirement: found 'y', expected: ',' or ')'";
    QTest::newRow("open paren only") << "a in (" << "unable to parse requirement: found '', expected: ',', ')' or identifier";
    QTest::newRow("operator in set") << "a in (=)" << "unable to parse requirement: found '=', expected: ',', ')' or identifier";
    QTest::newRow("operator after comma") << "a in (x,=)" << "unable to parse requirement: found '=', expected: ',', or identifier";
    QTest::newRow("(x,,) is refused") << "a in (x,,)" << "unable to parse requirement: found ')', expected: ',', or identifier";

    // Key syntax: validated with upstream's nil field path, which prints as <nil>.
    QTest::newRow("key starts with -") << "-a=b"
                                       << "unable to parse requirement: <nil>: Invalid value: \"-a\": " + KEY_NAME_REGEX_ERROR;
    QTest::newRow("key ends with .") << "a.=b"
                                     << "unable to parse requirement: <nil>: Invalid value: \"a.\": " + KEY_NAME_REGEX_ERROR;
    QTest::newRow("key with *") << "a*b"
                                << "unable to parse requirement: <nil>: Invalid value: \"a*b\": " + KEY_NAME_REGEX_ERROR;
    QTest::newRow("key too long")
        << QString(64, QLatin1Char('k'))
        << "unable to parse requirement: <nil>: Invalid value: \"" + QString(64, QLatin1Char('k'))
               + "\": name part must be no more than 63 characters";
    QTest::newRow("empty name part")
        << "example.com/=x"
        << "unable to parse requirement: <nil>: Invalid value: \"example.com/\": name part must be non-empty; "
               + KEY_NAME_REGEX_ERROR;
    QTest::newRow("empty prefix") << "/a" << "unable to parse requirement: <nil>: Invalid value: \"/a\": prefix part must be non-empty";
    QTest::newRow("upper-case prefix")
        << "Example.com/a" << "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\": prefix part " + SUBDOMAIN_REGEX_ERROR;
    QTest::newRow("two slashes")
        << "a/b/c"
        << "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric "
           "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
           "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
           "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    QTest::newRow("quote in key is escaped")
        << "a\"b" << "unable to parse requirement: <nil>: Invalid value: \"a\\\"b\": " + KEY_NAME_REGEX_ERROR;

    // Value syntax: NewRequirement's path values[i][key].
    QTest::newRow("value starts with -")
        << "a=-b" << "unable to parse requirement: values[0][a]: Invalid value: \"-b\": " + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("value with /")
        << "a!=b/c" << "unable to parse requirement: values[0][a]: Invalid value: \"b/c\": " + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("value too long")
        << "a=" + QString(64, QLatin1Char('v'))
        << "unable to parse requirement: values[0][a]: Invalid value: \"" + QString(64, QLatin1Char('v'))
               + "\": must be no more than 63 characters";
    QTest::newRow("value too long and badly ended")
        << "a=" + QString(63, QLatin1Char('v')) + "-"
        << "unable to parse requirement: values[0][a]: Invalid value: \"" + QString(63, QLatin1Char('v'))
               + "-\": must be no more than 63 characters; " + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("two bad values are aggregated in sorted order")
        << "a in (y-,-x)"
        << "unable to parse requirement: [values[0][a]: Invalid value: \"-x\": " + LABEL_VALUE_REGEX_ERROR
               + ", values[1][a]: Invalid value: \"y-\": " + LABEL_VALUE_REGEX_ERROR + "]";
    QTest::newRow("non-ASCII value")
        << QString::fromUtf8("a=\xc3\xbc")
        << QString::fromUtf8("unable to parse requirement: values[0][a]: Invalid value: \"\xc3\xbc\": ") + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("control character value")
        << "a=b\x01"
        << "unable to parse requirement: values[0][a]: Invalid value: \"b\\x01\": " + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("gt needs an integer")
        << "a>x" << "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer";
    QTest::newRow("lt needs a value")
        << "a<" << "unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer";
    QTest::newRow("gt overflow")
        << "a>9223372036854775808"
        << "unable to parse requirement: values[0]: Invalid value: \"9223372036854775808\": for 'Gt', 'Lt' operators, "
           "the value must be an integer";
    QTest::newRow("signed gt is an invalid label value")
        << "a>+5" << "unable to parse requirement: values[0][a]: Invalid value: \"+5\": " + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("negative gt is an invalid label value")
        << "a>-1" << "unable to parse requirement: values[0][a]: Invalid value: \"-1\": " + LABEL_VALUE_REGEX_ERROR;
}

void TestLabelSelector::rejectsWithUpstreamMessage()
{
    QFETCH(QString, selector);
    QFETCH(QString, message);
    const auto parsed = LabelSelector::parse(selector.toStdString());
    QVERIFY2(!parsed.ok(), qPrintable("accepted: " + selector));
    QCOMPARE(QString::fromStdString(parsed.error().message), message);
}

void TestLabelSelector::parseErrorIsA400BadRequest()
{
    const auto parsed = LabelSelector::parse("a b");
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, 400);
    QCOMPARE(parsed.error().reason, std::string("BadRequest"));
    const nlohmann::json body = parsed.error().toJson();
    QCOMPARE(body.value("message", std::string()),
             std::string("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"));
    QCOMPARE(body.value("status", std::string()), std::string("Failure"));
}

void TestLabelSelector::matches_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<bool>("expected");

    QTest::newRow("= same value") << "a=b" << QStringList{"a=b"} << true;
    QTest::newRow("= other value") << "a=b" << QStringList{"a=c"} << false;
    QTest::newRow("= missing key") << "a=b" << QStringList{} << false;
    QTest::newRow("= is case sensitive") << "a=B" << QStringList{"a=b"} << false;
    QTest::newRow("== same value") << "a==b" << QStringList{"a=b", "x=y"} << true;
    QTest::newRow("!= missing key") << "a!=b" << QStringList{} << true;
    QTest::newRow("!= same value") << "a!=b" << QStringList{"a=b"} << false;
    QTest::newRow("!= other value") << "a!=b" << QStringList{"a=c"} << true;
    QTest::newRow("in listed") << "a in (x,y)" << QStringList{"a=y"} << true;
    QTest::newRow("in unlisted") << "a in (x,y)" << QStringList{"a=z"} << false;
    QTest::newRow("in missing key") << "a in (x,y)" << QStringList{} << false;
    QTest::newRow("notin missing key") << "a notin (x)" << QStringList{} << true;
    QTest::newRow("notin listed") << "a notin (x)" << QStringList{"a=x"} << false;
    QTest::newRow("notin unlisted") << "a notin (x)" << QStringList{"a=y"} << true;
    QTest::newRow("exists with empty value") << "a" << QStringList{"a"} << true;
    QTest::newRow("exists missing") << "a" << QStringList{"b=a"} << false;
    QTest::newRow("!exists missing") << "!a" << QStringList{"b"} << true;
    QTest::newRow("!exists present with empty value") << "!a" << QStringList{"a"} << false;
    QTest::newRow("= empty value, present empty") << "a=" << QStringList{"a"} << true;
    QTest::newRow("= empty value, missing") << "a=" << QStringList{} << false;
    QTest::newRow("!= empty value, missing") << "a!=" << QStringList{} << true;
    QTest::newRow("!= empty value, present empty") << "a!=" << QStringList{"a"} << false;
    QTest::newRow("in () matches empty value") << "a in ()" << QStringList{"a"} << true;
    QTest::newRow("in () needs the key") << "a in ()" << QStringList{} << false;
    QTest::newRow("gt greater") << "a>5" << QStringList{"a=6"} << true;
    QTest::newRow("gt equal") << "a>5" << QStringList{"a=5"} << false;
    QTest::newRow("gt signed label") << "a>5" << QStringList{"a=+9"} << true;
    QTest::newRow("gt non-numeric label") << "a>5" << QStringList{"a=x"} << false;
    QTest::newRow("gt missing") << "a>5" << QStringList{} << false;
    QTest::newRow("lt negative label") << "a<5" << QStringList{"a=-7"} << true;
    QTest::newRow("lt equal") << "a<5" << QStringList{"a=5"} << false;
    QTest::newRow("lt overflowing label") << "a<5" << QStringList{"a=-99999999999999999999"} << false;
    QTest::newRow("AND both hold") << "a=b,c" << QStringList{"a=b", "c=x"} << true;
    QTest::newRow("AND one fails") << "a=b,c" << QStringList{"a=b"} << false;
    QTest::newRow("contradiction") << "a=b,a!=b" << QStringList{"a=b"} << false;
    QTest::newRow("everything, no labels") << "" << QStringList{} << true;
    QTest::newRow("prefixed key") << "example.com/app in (web)" << QStringList{"example.com/app=web"} << true;
}

void TestLabelSelector::matches()
{
    QFETCH(QString, selector);
    QFETCH(QStringList, labels);
    QFETCH(bool, expected);
    const auto parsed = LabelSelector::parse(selector.toStdString());
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->matches(labelsFrom(labels)), expected);
}

void TestLabelSelector::requiresExactMatch_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("found");
    QTest::addColumn<QString>("value");

    QTest::newRow("=") << "a=b" << "a" << true << "b";
    QTest::newRow("==") << "a==b" << "a" << true << "b";
    QTest::newRow("in one value") << "a in (b)" << "a" << true << "b";
    QTest::newRow("empty value") << "a=" << "a" << true << "";
    QTest::newRow("in two values") << "a in (b,c)" << "a" << false << "";
    QTest::newRow("!=") << "a!=b" << "a" << false << "";
    QTest::newRow("notin") << "a notin (b)" << "a" << false << "";
    QTest::newRow("exists") << "a" << "a" << false << "";
    QTest::newRow("other key") << "b=c" << "a" << false << "";
    QTest::newRow("first requirement on the key wins") << "a=b,a=c" << "a" << true << "b";
    QTest::newRow("a first != hides a later =") << "a!=x,a=b" << "a" << false << "";
}

void TestLabelSelector::requiresExactMatch()
{
    QFETCH(QString, selector);
    QFETCH(QString, key);
    QFETCH(bool, found);
    QFETCH(QString, value);
    const auto parsed = LabelSelector::parse(selector.toStdString());
    QVERIFY(parsed.ok());
    const auto exact = parsed->requiresExactMatch(key.toStdString());
    QCOMPARE(exact.has_value(), found);
    if (found)
        QCOMPARE(QString::fromStdString(*exact), value);
}

void TestLabelSelector::emptySelectsEverythingAndNothingSelectsNothing()
{
    const LabelSelector everything;
    QVERIFY(everything.empty());
    QVERIFY(everything.matches({}));
    QVERIFY(everything.matches({{"a", "b"}}));
    QCOMPARE(everything.toString(), std::string());

    const LabelSelector nothing = LabelSelector::nothing();
    QVERIFY(!nothing.empty());
    QVERIFY(nothing.matchesNothing());
    QVERIFY(!nothing.matches({}));
    QVERIFY(!nothing.matches({{"a", "b"}}));
    QCOMPARE(nothing.toString(), std::string());
    QVERIFY(!(nothing == everything));
}

void TestLabelSelector::nulByteEndsTheInputLikeUpstream()
{
    // Go's lexer reads 0 at the end of input and cannot tell a NUL byte from it: where a
    // token may start, NUL ends the input; inside a token it only ends that token.
    const auto ended = LabelSelector::parse(std::string_view("a=b \0c d e", 10));
    QVERIFY(ended.ok());
    QCOMPARE(ended->toString(), std::string("a=b"));

    const auto split = LabelSelector::parse(std::string_view("a=b\0c", 5));
    QVERIFY(!split.ok());
    QCOMPARE(split.error().message, std::string("found 'c', expected: ',' or 'end of string'"));

    // After an operator character the NUL is swallowed with it, so scanning goes on.
    const auto afterComma = LabelSelector::parse(std::string_view("a=b,\0c", 6));
    QVERIFY(afterComma.ok());
    QCOMPARE(afterComma->toString(), std::string("a=b,c"));
}

void TestLabelSelector::canonicalFormParsesBackToTheSameSelector()
{
    // Random strings over the grammar's alphabet: parsing never fails in an unexpected way,
    // and whatever parses prints to a form that parses to the very same selector.
    static const char ALPHABET[] = "ab=!(),<> \tinot0-1";
    std::mt19937 random(20240601);
    int accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string selector;
        const int length = int(random() % 12);
        for (int i = 0; i < length; ++i)
            selector += ALPHABET[random() % (sizeof(ALPHABET) - 1)];
        const auto parsed = LabelSelector::parse(selector);
        if (!parsed.ok()) {
            QCOMPARE(parsed.error().code, 400);
            QVERIFY(!parsed.error().message.empty());
            continue;
        }
        ++accepted;
        const auto again = LabelSelector::parse(parsed->toString());
        QVERIFY2(again.ok(), selector.c_str());
        QVERIFY2(*again == *parsed, selector.c_str());
    }
    QVERIFY(accepted > 500);
}

void TestLabelSelector::fromJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("expected"); // toString() or the error message

    QTest::newRow("empty object selects everything") << QByteArray("{}") << true << "";
    QTest::newRow("empty members select everything")
        << QByteArray(R"({"matchLabels":{},"matchExpressions":[]})") << true << "";
    QTest::newRow("null members select everything")
        << QByteArray(R"({"matchLabels":null,"matchExpressions":null})") << true << "";
    QTest::newRow("matchLabels") << QByteArray(R"({"matchLabels":{"app":"web"}})") << true << "app=web";
    QTest::newRow("Scale.status.selector shape")
        << QByteArray(R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["b","a"]}]})")
        << true << "app=web,tier in (a,b)";
    QTest::newRow("everything sorted by key")
        << QByteArray(R"({"matchLabels":{"tier":"x","app":"web"},"matchExpressions":[{"key":"env","operator":"NotIn","values":["prod"]}]})")
        << true << "app=web,env notin (prod),tier=x";
    QTest::newRow("Exists") << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"Exists"}]})") << true << "a";
    QTest::newRow("DoesNotExist")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"DoesNotExist","values":[]}]})") << true << "!a";
    QTest::newRow("duplicate values are kept")
        << QByteArray(R"({"matchExpressions":[{"key":"x","operator":"In","values":["b","a","b"]}]})") << true
        << "x in (a,b,b)";
    QTest::newRow("empty label value") << QByteArray(R"({"matchLabels":{"a":""}})") << true << "a=";

    QTest::newRow("unknown operator")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"Foo","values":["x"]}]})") << false
        << "\"Foo\" is not a valid label selector operator";
    QTest::newRow("operators are case sensitive")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"in","values":["x"]}]})") << false
        << "\"in\" is not a valid label selector operator";
    QTest::newRow("string-syntax operator")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"!=","values":["x"]}]})") << false
        << "\"!=\" is not a valid label selector operator";
    QTest::newRow("missing operator")
        << QByteArray(R"({"matchExpressions":[{"key":"a"}]})") << false << "\"\" is not a valid label selector operator";
    QTest::newRow("In without values")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"In"}]})") << false
        << "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty";
    QTest::newRow("NotIn with empty values")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"NotIn","values":[]}]})") << false
        << "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty";
    QTest::newRow("Exists with values")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]})") << false
        << "values: Invalid value: [\"x\"]: values set must be empty for exists and does not exist";
    QTest::newRow("bad key in matchLabels")
        << QByteArray(R"({"matchLabels":{"-a":"b"}})") << false << "key: Invalid value: \"-a\": " + KEY_NAME_REGEX_ERROR;
    QTest::newRow("bad value in matchLabels")
        << QByteArray(R"({"matchLabels":{"a":"-b"}})") << false
        << "values[0][a]: Invalid value: \"-b\": " + LABEL_VALUE_REGEX_ERROR;
    QTest::newRow("bad key and value aggregate")
        << QByteArray(R"({"matchExpressions":[{"key":"-a","operator":"In","values":["ok","-b"]}]})") << false
        << "[key: Invalid value: \"-a\": " + KEY_NAME_REGEX_ERROR + ", values[1][-a]: Invalid value: \"-b\": "
               + LABEL_VALUE_REGEX_ERROR + "]";
    QTest::newRow("not an object") << QByteArray("[]") << false
                                   << "invalid label selector: a label selector must be a JSON object";
    QTest::newRow("matchLabels with a number")
        << QByteArray(R"({"matchLabels":{"a":1}})") << false << "invalid label selector: matchLabels must be an object of strings";
    QTest::newRow("values not strings")
        << QByteArray(R"({"matchExpressions":[{"key":"a","operator":"In","values":[1]}]})") << false
        << "invalid label selector: matchExpressions values must be strings";
}

void TestLabelSelector::fromJson()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, ok);
    QFETCH(QString, expected);
    const auto selector = LabelSelector::fromJson(nlohmann::json::parse(json.toStdString()));
    QCOMPARE(selector.ok(), ok);
    if (ok) {
        QCOMPARE(QString::fromStdString(selector->toString()), expected);
    } else {
        QCOMPARE(selector.error().code, 400);
        QCOMPARE(QString::fromStdString(selector.error().message), expected);
    }
}

void TestLabelSelector::fromJsonNullSelectsNothing()
{
    const auto selector = LabelSelector::fromJson(nlohmann::json());
    QVERIFY(selector.ok());
    QVERIFY(selector->matchesNothing());
    QVERIFY(!selector->matches({{"app", "web"}}));
}

void TestLabelSelector::fromJsonMatchesLikeTheEquivalentString()
{
    const auto json = nlohmann::json::parse(
        R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]},)"
        R"({"key":"canary","operator":"DoesNotExist"}]})");
    const auto fromJson = LabelSelector::fromJson(json);
    const auto fromString = LabelSelector::parse("app=web,tier notin (db),!canary");
    QVERIFY(fromJson.ok() && fromString.ok());
    QCOMPARE(fromJson->toString(), fromString->toString());
    const std::vector<std::map<std::string, std::string>> cases = {
        {{"app", "web"}},
        {{"app", "web"}, {"tier", "db"}},
        {{"app", "web"}, {"tier", "fe"}},
        {{"app", "web"}, {"canary", "1"}},
        {{"app", "api"}},
        {},
    };
    for (const auto &labels : cases)
        QCOMPARE(fromJson->matches(labels), fromString->matches(labels));
}

void TestLabelSelector::fromSetBuildsSortedEqualities()
{
    const LabelSelector selector = LabelSelector::fromSet({{"b", "2"}, {"a", "1"}});
    QCOMPARE(selector.toString(), std::string("a=1,b=2"));
    QVERIFY(selector.matches({{"a", "1"}, {"b", "2"}, {"c", "3"}}));
    QVERIFY(!selector.matches({{"a", "1"}}));
    QVERIFY(LabelSelector::fromSet({}).empty());
}

QTEST_GUILESS_MAIN(TestLabelSelector)
#include "TestLabelSelector.moc"
