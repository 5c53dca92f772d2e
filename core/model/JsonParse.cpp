// SPDX-License-Identifier: MIT
#include "model/JsonParse.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <locale.h>

#include "model/Utf8.h"

namespace rvscope::model {
namespace {

using json = nlohmann::json;

// Bytes a string's fast loop stops at: the closing quote, an escape, a control character
// (not allowed unescaped) and the first byte of a multi-byte UTF-8 sequence (validated).
constexpr std::array<bool, 256> STRING_STOPS = [] {
    std::array<bool, 256> stops{};
    for (int c = 0; c < 0x20; ++c)
        stops[std::size_t(c)] = true;
    for (int c = 0x80; c < 0x100; ++c)
        stops[std::size_t(c)] = true;
    stops['"'] = true;
    stops['\\'] = true;
    return stops;
}();

void appendUtf8(std::string &out, std::uint32_t codePoint)
{
    if (codePoint < 0x80) {
        out.push_back(char(codePoint));
    } else if (codePoint < 0x800) {
        out.push_back(char(0xC0 | (codePoint >> 6)));
        out.push_back(char(0x80 | (codePoint & 0x3F)));
    } else if (codePoint < 0x10000) {
        out.push_back(char(0xE0 | (codePoint >> 12)));
        out.push_back(char(0x80 | ((codePoint >> 6) & 0x3F)));
        out.push_back(char(0x80 | (codePoint & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (codePoint >> 18)));
        out.push_back(char(0x80 | ((codePoint >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((codePoint >> 6) & 0x3F)));
        out.push_back(char(0x80 | (codePoint & 0x3F)));
    }
}

// A double from a JSON number token, as strtod reads it in the C locale (what nlohmann
// does, whatever the process locale: Qt sets it from the environment).
std::optional<double> parseDouble(std::string_view token)
{
    static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", locale_t(nullptr));
    char small[64];
    std::string large;
    const char *text = small;
    if (token.size() < sizeof small) {
        token.copy(small, token.size());
        small[token.size()] = '\0';
    } else {
        large.assign(token);
        text = large.c_str();
    }
    const double value = strtod_l(text, nullptr, cLocale);
    if (!std::isfinite(value))
        return std::nullopt; // nlohmann: "number overflow"
    return value;
}

// Whether valid JSON `text` is UTF-8 throughout with no whitespace between its tokens.
bool isCompactUtf8(std::string_view text)
{
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80) { // inside a string: valid JSON has none elsewhere
            const std::size_t length = utf8SequenceLength(text, i);
            if (length == 0)
                return false;
            i += length - 1;
        } else if (inString) {
            if (c == '\\')
                ++i; // an escape's second character cannot end the string
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            return false;
        }
    }
    return true;
}

// Go's encoding/json (and so the apiserver) refuses documents nested deeper than this. The
// tree of a deeper one would take nlohmann's recursive dump(), copy and == past the
// thread's stack: a request body of 500 KB of `{"a":` could crash the server.
constexpr std::size_t MAX_NESTING_DEPTH = 10000;

class Parser {
public:
    // What is kept raw: nothing, an object's metadata.managedFields, or (a managedFields
    // list itself at the root) each entry's fieldsV1.
    enum class Raw { None, ManagedFields, FieldsV1 };

    Parser(std::string_view text, Raw raw)
        : m_p(text.data())
        , m_end(text.data() + text.size())
        , m_raw(raw)
    {
    }

    std::optional<json> parse()
    {
        if (!skipByteOrderMark())
            return std::nullopt;
        json value;
        // Each turn reads one value; a container opens a frame, and a finished value goes
        // into the innermost open container (closing as many as end there).
        while (true) {
            skipWhitespace();
            if (m_p == m_end)
                return std::nullopt;
            bool opened = false;
            switch (*m_p) {
            case '{':
            case '[': {
                if (m_frames.size() >= MAX_NESTING_DEPTH)
                    return std::nullopt;
                if (atRawValue()) {
                    // Kept as its text: validated as a tree would be read, nothing built.
                    // Text that is not compact (or not UTF-8, which the parser refuses
                    // anyway) is built as a tree after all: written out compact, as a
                    // newline inside would split a watch stream's line.
                    const char *start = m_p;
                    if (!validateValue())
                        return std::nullopt;
                    if (isCompactUtf8(std::string_view(start, std::size_t(m_p - start)))) {
                        value = json::binary(json::binary_t::container_type(start, m_p));
                        break;
                    }
                    m_p = start;
                }
                const bool isObject = *m_p++ == '{';
                skipWhitespace();
                if (m_p != m_end && *m_p == (isObject ? '}' : ']')) {
                    ++m_p;
                    value = isObject ? json::object() : json::array(); // empty: a finished value
                    break;
                }
                if (!openContainer(isObject))
                    return std::nullopt;
                opened = true;
                break;
            }
            case '"': {
                ++m_p;
                std::string text;
                if (!readString(text))
                    return std::nullopt;
                value = json(std::move(text));
                break;
            }
            case 't':
                if (!readLiteral("true"))
                    return std::nullopt;
                value = json(true);
                break;
            case 'f':
                if (!readLiteral("false"))
                    return std::nullopt;
                value = json(false);
                break;
            case 'n':
                if (!readLiteral("null"))
                    return std::nullopt;
                value = json(nullptr);
                break;
            default:
                if (!readNumber(value))
                    return std::nullopt;
            }
            if (opened)
                continue; // its first member's value comes next
            // `value` is complete: store it, then close what ends after it.
            while (true) {
                if (m_frames.empty()) {
                    skipWhitespace();
                    if (m_p != m_end)
                        return std::nullopt; // trailing content
                    return value;
                }
                Frame &frame = m_frames.back();
                if (frame.isObject) {
                    if (!frame.value.get_ref<json::object_t &>()
                             .insert_or_assign(std::move(frame.key), std::move(value))
                             .second)
                        m_duplicateKeys = true;
                }
                else
                    frame.value.get_ref<json::array_t &>().push_back(std::move(value));
                skipWhitespace();
                if (m_p == m_end)
                    return std::nullopt;
                const char next = *m_p++;
                if (next == ',') {
                    if (frame.isObject && !readKey(frame.key))
                        return std::nullopt;
                    break; // the next member's value
                }
                if (next != (frame.isObject ? '}' : ']'))
                    return std::nullopt;
                value = std::move(frame.value);
                m_frames.pop_back();
            }
        }
    }

    bool duplicateKeys() const { return m_duplicateKeys; }

private:
    struct Frame {
        json value;
        std::string key; // an object's member whose value is being read
        bool isObject = false;
    };

    // The value about to be read is one to keep raw: an object's metadata.managedFields list,
    // or a list's [i].fieldsV1 map.
    bool atRawValue() const
    {
        switch (m_raw) {
        case Raw::None:
            return false;
        case Raw::ManagedFields:
            return *m_p == '[' && m_frames.size() == 2 && m_frames[0].isObject && m_frames[0].key == "metadata"
                && m_frames[1].isObject && m_frames[1].key == "managedFields";
        case Raw::FieldsV1:
            return *m_p == '{' && m_frames.size() == 2 && !m_frames[0].isObject && m_frames[1].isObject
                && m_frames[1].key == "fieldsV1";
        }
        return false;
    }

    bool skipByteOrderMark()
    {
        if (m_p == m_end || static_cast<unsigned char>(*m_p) != 0xEF)
            return true;
        if (m_end - m_p < 3 || static_cast<unsigned char>(m_p[1]) != 0xBB || static_cast<unsigned char>(m_p[2]) != 0xBF)
            return false;
        m_p += 3;
        return true;
    }

    void skipWhitespace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    // One value from m_p, checked exactly as parse() reads values (the same lexing, the same
    // depth limit) but built into nothing; leaves m_p after it.
    bool validateValue()
    {
        std::vector<bool> open; // the containers around, true for an object
        std::string scratch;
        json number;
        while (true) {
            skipWhitespace();
            if (m_p == m_end)
                return false;
            switch (*m_p) {
            case '{':
            case '[': {
                if (m_frames.size() + open.size() >= MAX_NESTING_DEPTH)
                    return false;
                const bool isObject = *m_p++ == '{';
                skipWhitespace();
                if (m_p != m_end && *m_p == (isObject ? '}' : ']')) {
                    ++m_p;
                    break; // empty: a finished value
                }
                if (isObject && !readKey(scratch))
                    return false;
                open.push_back(isObject);
                continue; // its first value comes next
            }
            case '"':
                ++m_p;
                scratch.clear();
                if (!readString(scratch))
                    return false;
                break;
            case 't':
                if (!readLiteral("true"))
                    return false;
                break;
            case 'f':
                if (!readLiteral("false"))
                    return false;
                break;
            case 'n':
                if (!readLiteral("null"))
                    return false;
                break;
            default:
                if (!readNumber(number))
                    return false;
            }
            // A value is finished: close what ends after it.
            while (true) {
                if (open.empty())
                    return true;
                skipWhitespace();
                if (m_p == m_end)
                    return false;
                const char next = *m_p++;
                if (next == ',') {
                    if (open.back() && !readKey(scratch))
                        return false;
                    break;
                }
                if (next != (open.back() ? '}' : ']'))
                    return false;
                open.pop_back();
            }
        }
    }

    // After the '{' or '[' of a container that is not empty.
    bool openContainer(bool isObject)
    {
        Frame frame;
        frame.value = isObject ? json::object() : json::array();
        frame.isObject = isObject;
        if (isObject && !readKey(frame.key))
            return false;
        m_frames.push_back(std::move(frame));
        return true;
    }

    // A member name and its ':'.
    bool readKey(std::string &key)
    {
        skipWhitespace();
        if (m_p == m_end || *m_p != '"')
            return false;
        ++m_p;
        key.clear();
        if (!readString(key))
            return false;
        skipWhitespace();
        if (m_p == m_end || *m_p != ':')
            return false;
        ++m_p;
        return true;
    }

    bool readLiteral(std::string_view word)
    {
        if (std::size_t(m_end - m_p) < word.size() || std::string_view(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }

    // After the opening quote; leaves m_p after the closing one.
    bool readString(std::string &out)
    {
        while (true) {
            const char *run = m_p;
            while (m_p != m_end && !STRING_STOPS[static_cast<unsigned char>(*m_p)])
                ++m_p;
            out.append(run, std::size_t(m_p - run));
            if (m_p == m_end)
                return false;
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                ++m_p;
                return true;
            }
            if (c == '\\') {
                ++m_p;
                if (!readEscape(out))
                    return false;
                continue;
            }
            if (c < 0x20)
                return false; // control characters must be escaped
            if (!readUtf8Sequence(out))
                return false;
        }
    }

    bool readEscape(std::string &out)
    {
        if (m_p == m_end)
            return false;
        switch (*m_p++) {
        case '"': out.push_back('"'); return true;
        case '\\': out.push_back('\\'); return true;
        case '/': out.push_back('/'); return true;
        case 'b': out.push_back('\b'); return true;
        case 'f': out.push_back('\f'); return true;
        case 'n': out.push_back('\n'); return true;
        case 'r': out.push_back('\r'); return true;
        case 't': out.push_back('\t'); return true;
        case 'u': break;
        default: return false;
        }
        int unit = readHex4();
        if (unit < 0)
            return false;
        std::uint32_t codePoint = std::uint32_t(unit);
        if (unit >= 0xDC00 && unit <= 0xDFFF)
            return false; // a low surrogate without its high one
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u')
                return false;
            m_p += 2;
            const int low = readHex4();
            if (low < 0xDC00 || low > 0xDFFF)
                return false;
            codePoint = 0x10000 + ((std::uint32_t(unit) - 0xD800) << 10) + (std::uint32_t(low) - 0xDC00);
        }
        appendUtf8(out, codePoint);
        return true;
    }

    int readHex4()
    {
        if (m_end - m_p < 4)
            return -1;
        int value = 0;
        for (int i = 0; i < 4; ++i) {
            const int digit = hexDigitValue(m_p[i]);
            if (digit < 0)
                return -1;
            value = value * 16 + digit;
        }
        m_p += 4;
        return value;
    }

    // One well-formed multi-byte UTF-8 sequence, copied as is.
    bool readUtf8Sequence(std::string &out)
    {
        const std::size_t length = utf8SequenceLength(std::string_view(m_p, std::size_t(m_end - m_p)), 0);
        if (length < 2)
            return false;
        out.append(m_p, length);
        m_p += length;
        return true;
    }

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    bool readNumber(json &value)
    {
        const char *start = m_p;
        const bool negative = *m_p == '-';
        if (negative)
            ++m_p;
        if (m_p == m_end || *m_p < '0' || *m_p > '9')
            return false;
        std::uint64_t magnitude = 0;
        bool overflow = false;
        if (*m_p == '0') {
            ++m_p;
        } else {
            while (m_p != m_end && *m_p >= '0' && *m_p <= '9') {
                const auto digit = std::uint64_t(*m_p - '0');
                if (magnitude > (UINT64_MAX - digit) / 10)
                    overflow = true;
                else
                    magnitude = magnitude * 10 + digit;
                ++m_p;
            }
        }
        bool integral = true;
        if (m_p != m_end && *m_p == '.') {
            integral = false;
            ++m_p;
            if (!skipDigits())
                return false;
        }
        if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
            integral = false;
            ++m_p;
            if (m_p != m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (!skipDigits())
                return false;
        }
        if (integral && !overflow) {
            if (!negative) {
                value = json(json::number_unsigned_t(magnitude));
                return true;
            }
            constexpr std::uint64_t MIN_MAGNITUDE = std::uint64_t(INT64_MAX) + 1;
            if (magnitude < MIN_MAGNITUDE) {
                value = json(-json::number_integer_t(magnitude));
                return true;
            }
            if (magnitude == MIN_MAGNITUDE) {
                value = json(json::number_integer_t(INT64_MIN));
                return true;
            }
        }
        // A fraction, an exponent, or an integer beyond 64 bits: a double, as nlohmann does.
        const auto number = parseDouble(std::string_view(start, std::size_t(m_p - start)));
        if (!number)
            return false;
        value = json(*number);
        return true;
    }

    bool skipDigits()
    {
        const char *first = m_p;
        while (m_p != m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
        return m_p != first;
    }

    const char *m_p;
    const char *m_end;
    Raw m_raw = Raw::None;
    std::vector<Frame> m_frames;
    bool m_duplicateKeys = false; // an object repeated a key
};

} // namespace

std::optional<json> parseJson(std::string_view text, bool *duplicateKeys)
{
    Parser parser(text, Parser::Raw::None);
    std::optional<json> parsed = parser.parse();
    if (duplicateKeys)
        *duplicateKeys = parser.duplicateKeys();
    return parsed;
}

std::optional<json> parseObjectJson(std::string_view text, bool *duplicateKeys)
{
    Parser parser(text, Parser::Raw::ManagedFields);
    std::optional<json> parsed = parser.parse();
    if (duplicateKeys)
        *duplicateKeys = parser.duplicateKeys();
    return parsed;
}

std::optional<json> parseManagedFieldsJson(std::string_view text)
{
    return Parser(text, Parser::Raw::FieldsV1).parse();
}

} // namespace rvscope::model
