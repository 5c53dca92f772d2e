// SPDX-License-Identifier: MIT
#include <QTest>

#include "ValidationMessages.h"

#include <set>

#include "registry/validation/NameValidation.h"

using namespace rvscope::registry;

namespace {
QStringList toQt(const std::vector<std::string> &messages)
{
    QStringList list;
    for (const std::string &message : messages)
        list << QString::fromStdString(message);
    return list;
}

QString repeated(char c, int count)
{
    return QString(count, QLatin1Char(c));
}

} // namespace

using namespace validation_messages;

// The name syntax checks behind every 422 on metadata.name, with apimachinery's exact texts.
class TestNameValidation final : public QObject {
    Q_OBJECT

private slots:
    void dns1123Subdomain_data();
    void dns1123Subdomain();
    void dns1123Label_data();
    void dns1123Label();
    void dns1035Label_data();
    void dns1035Label();
    void qualifiedName_data();
    void qualifiedName();
    void labelValue_data();
    void labelValue();
    void nameFunctionsAllowATrailingDashForPrefixes_data();
    void nameFunctionsAllowATrailingDashForPrefixes();
    void objectNameCauses_data();
    void objectNameCauses();
    void generatedNameIsBasePlusFiveAlphabetCharacters();
    void generatedNameIsDeterministicPerGeneratorState();
    void generatedNameCutsLongBases();
    void generatedNamesUseTheWholeAlphabetEvenly();
};

void TestNameValidation::dns1123Subdomain_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("errors");

    for (const char *valid : {"a", "0", "abc", "a-b", "a--b", "a.b", "1.2.3", "example.com", "my-app.v2"})
        QTest::newRow(valid) << valid << QStringList{};
    QTest::newRow("253 characters") << repeated('a', 253) << QStringList{};
    QTest::newRow("253 characters with dots") << (repeated('a', 63) + '.').repeated(3) + repeated('b', 61) << QStringList{};
    QTest::newRow("empty") << "" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("wire contract example") << "Bad_x" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("upper case") << "A" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("underscore") << "a_b" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("leading dash") << "-a" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("trailing dash") << "a-" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("leading dot") << ".a" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("trailing dot") << "a." << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("double dot") << "a..b" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("dash before dot") << "a-.b" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("dash after dot") << "a.-b" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("space") << "a b" << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("non-ASCII") << QString::fromUtf8("caf\xc3\xa9") << QStringList{SUBDOMAIN_ERROR};
    QTest::newRow("254 characters") << repeated('a', 254) << QStringList{"must be no more than 253 characters"};
    QTest::newRow("254 characters and bad")
        << repeated('A', 254) << QStringList{"must be no more than 253 characters", SUBDOMAIN_ERROR};
}

void TestNameValidation::dns1123Subdomain()
{
    QFETCH(QString, value);
    QFETCH(QStringList, errors);
    QCOMPARE(toQt(isDns1123Subdomain(value.toStdString())), errors);
}

void TestNameValidation::dns1123Label_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("errors");

    for (const char *valid : {"a", "0", "my-name", "123-abc", "kube-system"})
        QTest::newRow(valid) << valid << QStringList{};
    QTest::newRow("63 characters") << repeated('a', 63) << QStringList{};
    QTest::newRow("dot") << "a.b" << QStringList{LABEL_ERROR};
    QTest::newRow("empty") << "" << QStringList{LABEL_ERROR};
    QTest::newRow("upper case") << "Default" << QStringList{LABEL_ERROR};
    QTest::newRow("trailing dash") << "789-" << QStringList{LABEL_ERROR};
    QTest::newRow("64 characters") << repeated('a', 64) << QStringList{"must be no more than 63 characters"};
    QTest::newRow("64 characters and bad")
        << repeated('a', 63) + '-' << QStringList{"must be no more than 63 characters", LABEL_ERROR};
}

void TestNameValidation::dns1123Label()
{
    QFETCH(QString, value);
    QFETCH(QStringList, errors);
    QCOMPARE(toQt(isDns1123Label(value.toStdString())), errors);
}

void TestNameValidation::dns1035Label_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("errors");

    for (const char *valid : {"a", "my-name", "abc-123", "a1"})
        QTest::newRow(valid) << valid << QStringList{};
    QTest::newRow("63 characters") << repeated('s', 63) << QStringList{};
    QTest::newRow("leading digit") << "1abc" << QStringList{DNS1035_ERROR};
    QTest::newRow("only digits") << "123" << QStringList{DNS1035_ERROR};
    QTest::newRow("dot") << "no-domain.com" << QStringList{DNS1035_ERROR};
    QTest::newRow("trailing dash") << "a-" << QStringList{DNS1035_ERROR};
    QTest::newRow("empty") << "" << QStringList{DNS1035_ERROR};
    QTest::newRow("64 characters") << repeated('s', 64) << QStringList{"must be no more than 63 characters"};
}

void TestNameValidation::dns1035Label()
{
    QFETCH(QString, value);
    QFETCH(QStringList, errors);
    QCOMPARE(toQt(isDns1035Label(value.toStdString())), errors);
}

void TestNameValidation::qualifiedName_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("errors");

    for (const char *valid : {"a", "A", "MyName", "my.name", "123-abc", "a_b", "example.com/MyName",
                              "app.kubernetes.io/name", "k8s.io/a-b_c.d"})
        QTest::newRow(valid) << valid << QStringList{};
    QTest::newRow("63 character name") << repeated('n', 63) << QStringList{};
    QTest::newRow("prefix of 253") << repeated('p', 253) + "/n" << QStringList{};
    QTest::newRow("empty") << "" << QStringList{"name part must be non-empty", NAME_PART_ERROR};
    QTest::newRow("leading dash") << "-a" << QStringList{NAME_PART_ERROR};
    QTest::newRow("trailing underscore") << "a_" << QStringList{NAME_PART_ERROR};
    QTest::newRow("colon") << "run:tmp" << QStringList{NAME_PART_ERROR};
    QTest::newRow("64 character name") << repeated('n', 64) << QStringList{"name part must be no more than 63 characters"};
    QTest::newRow("64 character bad name")
        << repeated('n', 63) + '.' << QStringList{"name part must be no more than 63 characters", NAME_PART_ERROR};
    QTest::newRow("empty prefix") << "/a" << QStringList{"prefix part must be non-empty"};
    QTest::newRow("empty name after prefix")
        << "example.com/" << QStringList{"name part must be non-empty", NAME_PART_ERROR};
    QTest::newRow("bad prefix") << "Example.com/a" << QStringList{"prefix part " + SUBDOMAIN_ERROR};
    QTest::newRow("prefix with trailing dot") << "example.com./a" << QStringList{"prefix part " + SUBDOMAIN_ERROR};
    QTest::newRow("prefix too long")
        << repeated('p', 254) + "/n" << QStringList{"prefix part must be no more than 253 characters"};
    QTest::newRow("bad prefix and bad name")
        << "_/_" << QStringList{"prefix part " + SUBDOMAIN_ERROR, NAME_PART_ERROR};
    QTest::newRow("two slashes")
        << "thaitype.dev/kubricate/resource-id"
        << QStringList{"a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
                       "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
                       "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
                       "subdomain prefix and '/' (e.g. 'example.com/MyName')"};
}

void TestNameValidation::qualifiedName()
{
    QFETCH(QString, value);
    QFETCH(QStringList, errors);
    QCOMPARE(toQt(isQualifiedName(value.toStdString())), errors);
}

void TestNameValidation::labelValue_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("errors");

    for (const char *valid : {"", "MyValue", "my_value", "12345", "a.b-c_D", "1"})
        QTest::newRow(valid[0] ? valid : "empty") << valid << QStringList{};
    QTest::newRow("63 characters") << repeated('v', 63) << QStringList{};
    QTest::newRow("leading dash") << "-a" << QStringList{LABEL_VALUE_ERROR};
    QTest::newRow("trailing dot") << "a." << QStringList{LABEL_VALUE_ERROR};
    QTest::newRow("space") << "a b" << QStringList{LABEL_VALUE_ERROR};
    QTest::newRow("slash") << "public/default" << QStringList{LABEL_VALUE_ERROR};
    QTest::newRow("url") << "https://radarr.domain.org" << QStringList{LABEL_VALUE_ERROR};
    QTest::newRow("64 characters") << repeated('v', 64) << QStringList{"must be no more than 63 characters"};
    QTest::newRow("64 characters and bad")
        << '_' + repeated('v', 63) << QStringList{"must be no more than 63 characters", LABEL_VALUE_ERROR};
}

void TestNameValidation::labelValue()
{
    QFETCH(QString, value);
    QFETCH(QStringList, errors);
    QCOMPARE(toQt(isValidLabelValue(value.toStdString())), errors);
}

void TestNameValidation::nameFunctionsAllowATrailingDashForPrefixes_data()
{
    QTest::addColumn<int>("rule"); // 0 subdomain, 1 DNS-1123 label, 2 DNS-1035 label
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("prefix");
    QTest::addColumn<bool>("valid");

    QTest::newRow("subdomain name with trailing dash") << 0 << "web-" << false << false;
    QTest::newRow("subdomain prefix with trailing dash") << 0 << "web-" << true << true;
    QTest::newRow("subdomain prefix without dash") << 0 << "web" << true << true;
    QTest::newRow("subdomain prefix '-' alone") << 0 << "-" << true << false;
    QTest::newRow("subdomain prefix 'a-'") << 0 << "a-" << true << true;
    QTest::newRow("subdomain prefix with dots") << 0 << "a.b-" << true << true;
    QTest::newRow("subdomain prefix bad start") << 0 << "-web-" << true << false;
    QTest::newRow("subdomain prefix upper case") << 0 << "Web-" << true << false;
    // maskTrailingDash drops two characters, so an upper-case last letter is never seen.
    QTest::newRow("subdomain prefix upstream quirk") << 0 << "wE-" << true << true;
    QTest::newRow("label prefix with trailing dash") << 1 << "ns-" << true << true;
    QTest::newRow("label prefix with dot") << 1 << "a.b-" << true << false;
    QTest::newRow("label name with trailing dash") << 1 << "ns-" << false << false;
    QTest::newRow("1035 prefix with trailing dash") << 2 << "svc-" << true << true;
    QTest::newRow("1035 prefix leading digit") << 2 << "1svc-" << true << false;
}

void TestNameValidation::nameFunctionsAllowATrailingDashForPrefixes()
{
    QFETCH(int, rule);
    QFETCH(QString, name);
    QFETCH(bool, prefix);
    QFETCH(bool, valid);
    const ValidateNameFunc functions[] = {nameIsDnsSubdomain, nameIsDnsLabel, nameIsDns1035Label};
    QCOMPARE(functions[rule](name.toStdString(), prefix).empty(), valid);
}

void TestNameValidation::objectNameCauses_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("rule"); // 0 subdomain, 1 DNS-1123 label, 2 DNS-1035 label
    QTest::addColumn<QStringList>("causes");

    QTest::newRow("valid") << "web" << 0 << QStringList{};
    QTest::newRow("wire contract example")
        << "Bad_x" << 0 << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"Bad_x\": " + SUBDOMAIN_ERROR};
    QTest::newRow("empty")
        << "" << 0 << QStringList{"FieldValueRequired metadata.name: Required value: name or generateName is required"};
    QTest::newRow("service name")
        << "no-domain.com" << 2 << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"no-domain.com\": " + DNS1035_ERROR};
    QTest::newRow("too long namespace")
        << repeated('n', 64) << 1
        << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"" + repeated('n', 64)
                       + "\": must be no more than 63 characters"};
    QTest::newRow("trailing dash is not masked for names")
        << "web-" << 0 << QStringList{"FieldValueInvalid metadata.name: Invalid value: \"web-\": " + SUBDOMAIN_ERROR};
}

void TestNameValidation::objectNameCauses()
{
    QFETCH(QString, name);
    QFETCH(int, rule);
    QFETCH(QStringList, causes);
    const ValidateNameFunc functions[] = {nameIsDnsSubdomain, nameIsDnsLabel, nameIsDns1035Label};
    QStringList actual;
    for (const auto &cause : validateObjectName(name.toStdString(), functions[rule]))
        actual << QString::fromStdString(cause.type + ' ' + cause.field + ": " + cause.message);
    QCOMPARE(actual, causes);
}

void TestNameValidation::generatedNameIsBasePlusFiveAlphabetCharacters()
{
    static const std::string ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    std::mt19937 random(1);
    for (int i = 0; i < 200; ++i) {
        const std::string name = generateNameFrom("web-", random);
        QCOMPARE(name.size(), std::size_t(9));
        QCOMPARE(name.substr(0, 4), std::string("web-"));
        for (char c : name.substr(4))
            QVERIFY2(ALPHABET.find(c) != std::string::npos, name.c_str());
        QVERIFY(nameIsDnsSubdomain(name, false).empty());
    }
    QCOMPARE(generateNameFrom("", random).size(), std::size_t(5));
}

void TestNameValidation::generatedNameIsDeterministicPerGeneratorState()
{
    std::mt19937 first(42);
    std::mt19937 second(42);
    std::mt19937 other(43);
    const std::string a = generateNameFrom("x-", first);
    QCOMPARE(generateNameFrom("x-", second), a);
    QVERIFY(generateNameFrom("x-", other) != a);
    // mt19937's sequence is fixed by the standard and the mapping is ours, so the names are
    // the same on every platform and standard library.
    QCOMPARE(a, std::string("x-jf6ft"));
    QVERIFY(generateNameFrom("x-", first) != a);
}

void TestNameValidation::generatedNameCutsLongBases()
{
    std::mt19937 random(3);
    const std::string base(70, 'b');
    const std::string name = generateNameFrom(base, random);
    QCOMPARE(name.size(), std::size_t(63));
    QCOMPARE(name.substr(0, 58), std::string(58, 'b'));
    QVERIFY(nameIsDnsLabel(name, false).empty());
    QCOMPARE(generateNameFrom(std::string(58, 'c'), random).size(), std::size_t(63));
}

void TestNameValidation::generatedNamesUseTheWholeAlphabetEvenly()
{
    std::mt19937 random(9);
    std::map<char, int> counts;
    const int names = 27000;
    for (int i = 0; i < names; ++i) {
        for (char c : generateNameFrom("", random))
            ++counts[c];
    }
    QCOMPARE(int(counts.size()), 27);
    const int expected = names * 5 / 27; // 5000 each
    for (const auto &[c, count] : counts)
        QVERIFY2(count > expected * 9 / 10 && count < expected * 11 / 10, std::string(1, c).c_str());
}

QTEST_GUILESS_MAIN(TestNameValidation)
#include "TestNameValidation.moc"
