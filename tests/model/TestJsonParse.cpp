// SPDX-License-Identifier: MIT
// model::parseJson must accept, reject and build exactly what nlohmann::json::parse does:
// every case here is checked against nlohmann itself, value types included. model::dumpJson
// must write exactly what nlohmann's dump writes, and objects keep fieldsV1 raw.
#include <cstring>
#include <random>
#include <string>

#include <QtTest/QtTest>

#include "JsonIdentical.h"

#include "model/JsonParse.h"
#include "model/JsonWrite.h"

using nlohmann::json;
using rvscope::model::dumpJson;
using rvscope::model::parseJson;

namespace {

bool identical(const json &a, const json &b)
{
    return rvscope::testing::identicalJson(a, b);
}

// An empty string when both parsers agree, else what differs. The intended differences:
// nlohmann ends its input at a NUL byte and ignores what follows ("[1]\0x" is [1]), while
// parseJson, like Go's encoding/json in the apiserver, rejects anything after the value;
// nesting beyond 10,000 levels (testNestingStopsAtGosLimit; no generated case nests so deep).
std::string disagreement(const std::string &text)
{
    const json expected = json::parse(text, nullptr, /*allow_exceptions=*/false);
    const std::optional<json> actual = parseJson(text);
    if (!expected.is_discarded() && text.find('\0') != std::string::npos)
        return actual ? "accepted a NUL byte after the value" : std::string();
    if (expected.is_discarded() != !actual.has_value())
        return expected.is_discarded() ? "accepted what nlohmann rejects" : "rejected what nlohmann accepts";
    if (actual && !identical(*actual, expected))
        return "built " + actual->dump() + " where nlohmann built " + expected.dump();
    return {};
}

// A random JSON value whose strings draw on escapes, multi-byte UTF-8 and raw bytes.
class Generator {
public:
    explicit Generator(unsigned seed)
        : m_random(seed)
    {
    }

    std::string document() { return value(0); }

private:
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(m_random); }

    std::string whitespace()
    {
        static const char *const spaces[] = {"", "", "", " ", "\n", "\t", "\r\n  "};
        return spaces[pick(7)];
    }

    std::string value(int depth)
    {
        const int kind = depth > 4 ? pick(5) : pick(8);
        switch (kind) {
        case 0: return pick(2) ? "true" : "false";
        case 1: return "null";
        case 2: return number();
        case 3:
        case 4: return '"' + stringBody() + '"';
        case 5:
        case 6: {
            std::string out = "{" + whitespace();
            const int members = pick(5);
            for (int i = 0; i < members; ++i) {
                if (i)
                    out += "," + whitespace();
                out += '"' + (pick(3) ? std::string(1, char('a' + pick(4))) : stringBody()) + '"' + whitespace() + ":"
                    + whitespace() + value(depth + 1) + whitespace();
            }
            return out + "}";
        }
        default: {
            std::string out = "[" + whitespace();
            const int items = pick(5);
            for (int i = 0; i < items; ++i)
                out += (i ? "," : "") + whitespace() + value(depth + 1) + whitespace();
            return out + "]";
        }
        }
    }

    std::string number()
    {
        static const char *const numbers[] = {"0", "-0", "1", "-1", "42", "0.5", "-0.0", "1e3", "1E+3", "2.5e-3",
                                              "18446744073709551615", "18446744073709551616",
                                              "-9223372036854775808", "-9223372036854775809",
                                              "9223372036854775807", "1e308", "1e309", "-1e309", "4.9e-324",
                                              "1e-400", "123456789012345678901234567890", "0.1", "3.14159265358979323846"};
        if (pick(3) == 0)
            return numbers[pick(int(std::size(numbers)))];
        std::string out = pick(4) == 0 ? "-" : "";
        out += std::to_string(std::uniform_int_distribution<long long>(0, 1LL << 62)(m_random) >> pick(62));
        if (pick(3) == 0)
            out += "." + std::to_string(pick(100000));
        if (pick(4) == 0)
            out += std::string(pick(2) ? "e" : "E") + (pick(2) ? "-" : "+") + std::to_string(pick(330));
        return out;
    }

    std::string stringBody()
    {
        static const char *const pieces[] = {"a", "Z", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
                                             "\\u0000", "\\u00e9", "\\u20AC", "\\ud83d\\ude00", "\\uD834\\uDD1E",
                                             "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f", "\xef\xbb\xbf"};
        std::string out;
        const int length = pick(8);
        for (int i = 0; i < length; ++i)
            out += pieces[pick(int(std::size(pieces)))];
        return out;
    }

    std::mt19937 m_random;
};

} // namespace

class TestJsonParse final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testAgreesWithNlohmann_data();
    void testAgreesWithNlohmann();
    void testRandomDocumentsAgree();
    void testMutatedDocumentsAgree();
    void testEveryByteInAStringAgrees();
    void testNestingStopsAtGosLimit();
    void testDumpAgreesWithNlohmann();
    void testObjectsKeepManagedFieldsRaw();
};

void TestJsonParse::testAgreesWithNlohmann_data()
{
    QTest::addColumn<QByteArray>("text");
    const char *const cases[] = {
        // accepted
        "{}", "[]", "0", "-0", "-0.0", "0.0", "1", "-1", "true", "false", "null", "\"\"", " \t\r\n{ } \n",
        R"({"a":1,"a":2})", R"({"b":1,"a":[1,2,{"c":null}]})", R"([1,-1,1.5,-1.5e10,1E2,1e-2])",
        "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
        "9223372036854775808", "1e308", "1e-400", "4.9e-324", "2.2250738585072014e-308", "0.30000000000000004",
        "123456789012345678901234567890.5", "\"\\u0000\"", "\"\\uD83D\\uDE00\"", "\"\\ud83d\\ude00\"", "\"\\u00E9\"",
        "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"", "\"\x7f\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\xef\xbb\xbf{}", "\xef\xbb\xbf" " [1]", R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"},"data":{"k":"v"}})",
        // rejected
        "", " ", "{", "}", "[", "]", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "{\"a\"}", "{\"a\" 1}", "{a:1}", "{'a':1}",
        "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "1.e3", "0x10", "NaN", "Infinity", "-Infinity", "1e309",
        "-1e400", "tru", "truex", "nul", "nulll", "falsey", "[1 2]", "{} {}", "{}x", "1 1", "\"abc", "\"\\\"",
        "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\uD83D\"", "\"\\uD83Dx\"", "\"\\uD83D\\u0041\"", "\"\\uDE00\"",
        "\"\t\"", "\"\n\"", "\"\x01\"", "\"\x80\"", "\"\xc0\xaf\"", "\"\xc1\xbf\"",
        "\"\xe0\x80\xaf\"", "\"\xed\xa0\x80\"", "\"\xf0\x80\x80\xaf\"", "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"",
        "\"\xc3\"", "\"\xe2\x82\"", "\"\xff\"", "\xef\xbb{}", "\xef{}", "\xef\xbb\xbf", "/* c */ {}", "{} // c",
        "[1]\x00", "\xc3\xa9", "[\"a\"\"b\"]",
    };
    int row = 0;
    for (const char *text : cases)
        QTest::addRow("%d", row++) << QByteArray(text);
    QTest::addRow("embedded NUL after value") << QByteArray("[1]\0", 4);
    QTest::addRow("NUL in string") << QByteArray("\"a\0b\"", 5);
}

void TestJsonParse::testAgreesWithNlohmann()
{
    QFETCH(QByteArray, text);
    const std::string problem = disagreement(text.toStdString());
    QVERIFY2(problem.empty(), (text.toStdString() + ": " + problem).c_str());
}

void TestJsonParse::testRandomDocumentsAgree()
{
    Generator generator(20261122);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::string text = generator.document();
        const std::string problem = disagreement(text);
        QVERIFY2(problem.empty(), (text + ": " + problem).c_str());
        accepted += parseJson(text).has_value();
    }
    QVERIFY(accepted > 15000); // most generated documents are valid (a few numbers overflow)
}

void TestJsonParse::testMutatedDocumentsAgree()
{
    // Valid documents with a byte deleted, replaced or inserted: mostly invalid, in every
    // place a parser can go wrong.
    Generator generator(7);
    std::mt19937 random(11);
    static const char replacements[] = "{}[],:\"\\ -+.eE0123456789tfnu\x01\x7f\x80\xc3\xed\xef\xf4";
    int rejected = 0;
    for (int i = 0; i < 40000; ++i) {
        std::string text = generator.document();
        const int edits = 1 + int(random() % 3);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            const std::size_t at = random() % text.size();
            const char byte = replacements[random() % (sizeof replacements - 1)];
            switch (random() % 3) {
            case 0: text.erase(at, 1); break;
            case 1: text[at] = byte; break;
            default: text.insert(text.begin() + std::ptrdiff_t(at), byte);
            }
        }
        const std::string problem = disagreement(text);
        QVERIFY2(problem.empty(), (text + ": " + problem).c_str());
        rejected += !parseJson(text).has_value();
    }
    QVERIFY(rejected > 10000);
}

void TestJsonParse::testEveryByteInAStringAgrees()
{
    for (int first = 0; first < 256; ++first) {
        for (int second : {0x00, 0x22, 0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0}) {
            for (const char *tail : {"", "\x80", "\x80\x80", "\xbf\xbf"}) {
                std::string text = "\"";
                text += char(first);
                text += char(second);
                text += tail;
                text += "\"";
                const std::string problem = disagreement(text);
                QVERIFY2(problem.empty(), (QByteArray(text.data(), qsizetype(text.size())).toHex().toStdString() + ": " + problem).c_str());
            }
        }
    }
}

void TestJsonParse::testNestingStopsAtGosLimit()
{
    // 10,000 levels, Go's encoding/json limit, are fine; one more is refused, however it
    // nests (an empty container counts), and a megabyte of '[' neither crashes the parser
    // nor yields a tree that later code could not dump, copy or compare.
    const auto nested = [](std::size_t depth, const std::string &open, const std::string &inner,
                           const std::string &close) {
        std::string text;
        for (std::size_t i = 0; i < depth; ++i)
            text += open;
        text += inner;
        for (std::size_t i = 0; i < depth; ++i)
            text += close;
        return text;
    };
    const std::optional<json> deepest = parseJson(nested(10000, "[", "1", "]"));
    QVERIFY(deepest);
    const json copy = *deepest;
    QVERIFY(copy == *deepest);
    QCOMPARE(copy.dump().size(), std::size_t(20001));
    QVERIFY(!parseJson(nested(10001, "[", "1", "]")));
    QVERIFY(parseJson(nested(9999, "[", "[]", "]")));
    QVERIFY(!parseJson(nested(10000, "[", "{}", "]")));
    QVERIFY(parseJson(nested(10000, "{\"a\":", "null", "}")));
    QVERIFY(!parseJson(nested(10001, "{\"a\":", "null", "}")));
    QVERIFY(!parseJson(nested(100000, "{\"a\":", "null", "}")));
    QVERIFY(!parseJson(std::string(1'000'000, '[')));
    QVERIFY(!parseJson(std::string(1'000'000, '[') + "1" + std::string(1'000'000, ']')));
}

void TestJsonParse::testDumpAgreesWithNlohmann()
{
    auto nlohmannDump = [](const json &value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); };
    Generator generator(20261126);
    for (int i = 0; i < 20000; ++i) {
        const std::optional<json> tree = parseJson(generator.document());
        if (tree)
            QCOMPARE(dumpJson(*tree), nlohmannDump(*tree));
    }
    // Strings no parser would build: every control byte, invalid UTF-8, a lone surrogate's
    // encoding, truncated sequences, DEL.
    for (int byte = 0; byte < 256; ++byte) {
        for (const char *tail : {"", "x", "\x80", "\xbf\xbf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
            const json value = {{"k" + std::string(1, char(byte)), std::string(1, char(byte)) + tail + "\"end"}};
            QCOMPARE(dumpJson(value), nlohmannDump(value));
        }
    }
    const json numbers = {-0.0, 1e300, 0.1, 2.0, -5, 18446744073709551615u, INT64_MIN, nullptr, true, false};
    QCOMPARE(dumpJson(numbers), nlohmannDump(numbers));
}

void TestJsonParse::testObjectsKeepManagedFieldsRaw()
{
    using rvscope::model::isRawJson;
    using rvscope::model::rawJsonText;
    const std::string fields = R"({"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{}}})";
    const std::string list = R"([{"fieldsV1":)" + fields + R"(,"manager":"m"},{"fieldsV1":{},"manager":"n"}])";
    const std::string text = R"({"metadata":{"managedFields":)" + list + R"(,"name":"x"},"spec":{"fieldsV1":{"a":1}}})";
    const std::optional<json> object = rvscope::model::parseObjectJson(text);
    QVERIFY(object);
    // An object keeps its managedFields list as its text: validated, not built.
    const json &kept = (*object)["metadata"]["managedFields"];
    QVERIFY(isRawJson(kept));
    QCOMPARE(std::string(rawJsonText(kept)), list);
    QVERIFY(rvscope::model::isJsonArray(kept));
    QVERIFY((*object)["spec"]["fieldsV1"].is_object()); // only metadata.managedFields
    QCOMPARE(dumpJson(*object), text);                 // written back as it is held
    // The list read on its own keeps each entry's fieldsV1 as its text.
    const std::optional<json> entries = rvscope::model::parseManagedFieldsJson(rawJsonText(kept));
    QVERIFY(entries && entries->size() == 2);
    QVERIFY(isRawJson((*entries)[0]["fieldsV1"]));
    QCOMPARE(std::string(rawJsonText((*entries)[0]["fieldsV1"])), fields);
    QCOMPARE(std::string(rawJsonText((*entries)[1]["fieldsV1"])), "{}");
    QVERIFY((*entries)[0]["manager"].is_string());
    json expanded = *object;
    rvscope::model::expandRawJson(expanded);
    QCOMPARE(expanded, *parseJson(text));
    // Text that is not compact is built as a tree: written out compact (a newline would
    // split a watch stream's line). Whitespace inside strings does not count.
    const std::string spaced = R"({"metadata":{"managedFields":[ {"manager":"m",
      "fieldsV1":{"f:data": {}}} ]}})";
    const std::optional<json> tree = rvscope::model::parseObjectJson(spaced);
    QVERIFY(tree && (*tree)["metadata"]["managedFields"].is_array());
    QCOMPARE(dumpJson(*tree), R"({"metadata":{"managedFields":[{"fieldsV1":{"f:data":{}},"manager":"m"}]}})");
    const std::string spacedInString = R"({"metadata":{"managedFields":[{"manager":"a b\"\\ c"}]}})";
    QVERIFY(isRawJson((*rvscope::model::parseObjectJson(spacedInString))["metadata"]["managedFields"]));
    // What parseJson refuses inside fieldsV1, parseObjectJson refuses too (it validates what
    // it does not build): every mutation of a document with raw fieldsV1 gets one answer.
    std::mt19937 random(5);
    static const char replacements[] = "{}[],:\"\\ -+.eE0123456789tfnu\x01\x7f\x80\xc3\xed";
    for (int i = 0; i < 20000; ++i) {
        std::string mutated = text;
        const std::size_t at = 40 + random() % (fields.size() + 20);
        switch (random() % 3) {
        case 0: mutated.erase(at, 1); break;
        case 1: mutated[at] = replacements[random() % (sizeof replacements - 1)]; break;
        default: mutated.insert(mutated.begin() + std::ptrdiff_t(at), replacements[random() % (sizeof replacements - 1)]);
        }
        QVERIFY2(parseJson(mutated).has_value() == rvscope::model::parseObjectJson(mutated).has_value(), mutated.c_str());
    }
}

QTEST_GUILESS_MAIN(TestJsonParse)
#include "TestJsonParse.moc"
