// SPDX-License-Identifier: MIT
#include "model/GoJson.h"

#include <array>

#include "model/Utf8.h"

#include <cctype>

namespace rvscope::model {

void appendGoJsonString(std::string &out, std::string_view text)
{
    static constexpr char HEX[] = "0123456789abcdef";
    // ASCII that goes out as it is: runs of it are appended whole (a Status message is
    // almost all of it, and every 409 writes one).
    static constexpr auto PLAIN = [] {
        std::array<bool, 128> plain{};
        for (int c = 0x20; c < 0x80; ++c)
            plain[std::size_t(c)] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
        return plain;
    }();
    out.reserve(out.size() + text.size() + 2);
    out += '"';
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t runStart = i;
        while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80 && PLAIN[static_cast<unsigned char>(text[i])])
            ++i;
        out.append(text.substr(runStart, i - runStart));
        if (i == text.size())
            break;
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x80) {
            const std::size_t length = utf8SequenceLength(text, i);
            if (length == 0) {
                out += "\\ufffd";
                ++i;
                continue;
            }
            // U+2028 and U+2029 (E2 80 A8/A9) break JavaScript string literals.
            if (length == 3 && byte == 0xE2 && static_cast<unsigned char>(text[i + 1]) == 0x80
                && (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xA8) {
                out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
            } else {
                out.append(text.substr(i, length));
            }
            i += length;
            continue;
        }
        switch (byte) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default: // control characters, '<', '>', '&'
            out += "\\u00";
            out += HEX[byte >> 4];
            out += HEX[byte & 0xf];
        }
        ++i;
    }
    out += '"';
}

namespace {

// encoding/json's quoteChar: the byte as a rune in single quotes, escaped as strconv.Quote
// escapes it.
std::string quoteChar(unsigned char c)
{
    if (c == '\'')
        return "'\\''";
    if (c == '"')
        return "'\"'";
    static constexpr char HEX[] = "0123456789abcdef";
    std::string quoted = "'";
    switch (c) {
    case '\a': quoted += "\\a"; break;
    case '\b': quoted += "\\b"; break;
    case '\f': quoted += "\\f"; break;
    case '\n': quoted += "\\n"; break;
    case '\r': quoted += "\\r"; break;
    case '\t': quoted += "\\t"; break;
    case '\v': quoted += "\\v"; break;
    case '\\': quoted += "\\\\"; break;
    default:
        if (c < 0x20 || c == 0x7f) {
            quoted += "\\x";
            quoted += HEX[c >> 4];
            quoted += HEX[c & 0xf];
        } else if ((c >= 0x80 && c <= 0xa0) || c == 0xad) {
            quoted += "\\u00"; // U+0080..U+00A0 and the soft hyphen are not printable
            quoted += HEX[c >> 4];
            quoted += HEX[c & 0xf];
        } else if (c > 0xa0) {
            quoted += static_cast<char>(0xC0 | (c >> 6)); // the rune U+00xx in UTF-8
            quoted += static_cast<char>(0x80 | (c & 0x3f));
        } else {
            quoted += static_cast<char>(c);
        }
    }
    return quoted + "'";
}

// A validator that follows encoding/json's scanner closely enough to fail where it fails,
// with its message.
class GoScanner {
public:
    explicit GoScanner(std::string_view data) : m_data(data) {}

    std::string run()
    {
        if (!value("looking for beginning of value"))
            return m_error;
        skipSpace();
        if (m_at < m_data.size())
            return invalid("after top-level value");
        return {};
    }

private:
    static constexpr int MAX_DEPTH = 10000;

    bool atEnd() const { return m_at >= m_data.size(); }
    unsigned char peek() const { return static_cast<unsigned char>(m_data[m_at]); }
    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++m_at;
    }
    bool fail(std::string message)
    {
        m_error = std::move(message);
        return false;
    }
    std::string invalid(const char *context) const { return "invalid character " + quoteChar(peek()) + ' ' + context; }
    bool failInvalid(const char *context) { return fail(invalid(context)); }
    bool endOfInput() { return fail("unexpected end of JSON input"); }

    bool value(const char *context)
    {
        skipSpace();
        if (atEnd())
            return endOfInput();
        const unsigned char c = peek();
        if (c == '{' || c == '[') {
            if (++m_depth > MAX_DEPTH)
                return fail("exceeded max depth");
            ++m_at;
            const bool ok = c == '{' ? object() : array();
            --m_depth;
            return ok;
        }
        if (c == '"')
            return string();
        if (c == '-' || (c >= '0' && c <= '9'))
            return number();
        if (c == 't')
            return literal("true");
        if (c == 'f')
            return literal("false");
        if (c == 'n')
            return literal("null");
        return failInvalid(context);
    }

    bool object()
    {
        skipSpace();
        if (atEnd())
            return endOfInput();
        if (peek() == '}') {
            ++m_at;
            return true;
        }
        for (;;) {
            skipSpace();
            if (atEnd())
                return endOfInput();
            if (peek() != '"')
                return failInvalid("looking for beginning of object key string");
            if (!string())
                return false;
            skipSpace();
            if (atEnd())
                return endOfInput();
            if (peek() != ':')
                return failInvalid("after object key");
            ++m_at;
            if (!value("looking for beginning of value"))
                return false;
            skipSpace();
            if (atEnd())
                return endOfInput();
            if (peek() == '}') {
                ++m_at;
                return true;
            }
            if (peek() != ',')
                return failInvalid("after object key:value pair");
            ++m_at;
        }
    }

    bool array()
    {
        skipSpace();
        if (atEnd())
            return endOfInput();
        if (peek() == ']') {
            ++m_at;
            return true;
        }
        for (;;) {
            if (!value("looking for beginning of value"))
                return false;
            skipSpace();
            if (atEnd())
                return endOfInput();
            if (peek() == ']') {
                ++m_at;
                return true;
            }
            if (peek() != ',')
                return failInvalid("after array element");
            ++m_at;
        }
    }

    bool string()
    {
        ++m_at; // the opening quote
        for (;;) {
            if (atEnd())
                return endOfInput();
            const unsigned char c = peek();
            if (c == '"') {
                ++m_at;
                return true;
            }
            if (c < 0x20)
                return failInvalid("in string literal");
            if (c == '\\') {
                ++m_at;
                if (atEnd())
                    return endOfInput();
                const unsigned char e = peek();
                if (e == 'u') {
                    for (int i = 0; i < 4; ++i) {
                        ++m_at;
                        if (atEnd())
                            return endOfInput();
                        if (!std::isxdigit(peek()))
                            return failInvalid("in \\u hexadecimal character escape");
                    }
                } else if (std::string_view("\"\\/bfnrt").find(static_cast<char>(e)) == std::string_view::npos) {
                    return failInvalid("in string escape code");
                }
            }
            ++m_at;
        }
    }

    bool digits()
    {
        while (!atEnd() && peek() >= '0' && peek() <= '9')
            ++m_at;
        return true;
    }

    bool number()
    {
        if (peek() == '-') {
            ++m_at;
            if (atEnd())
                return endOfInput();
            if (peek() < '0' || peek() > '9')
                return failInvalid("in numeric literal");
        }
        if (peek() == '0')
            ++m_at; // a leading zero ends the integer part
        else
            digits();
        if (!atEnd() && peek() == '.') {
            ++m_at;
            if (atEnd())
                return endOfInput();
            if (peek() < '0' || peek() > '9')
                return failInvalid("after decimal point in numeric literal");
            digits();
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            ++m_at;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_at;
            if (atEnd())
                return endOfInput();
            if (peek() < '0' || peek() > '9')
                return failInvalid("in exponent of numeric literal");
            digits();
        }
        return true;
    }

    bool literal(std::string_view word)
    {
        for (std::size_t i = 0; i < word.size(); ++i, ++m_at) {
            if (atEnd())
                return endOfInput();
            if (peek() != static_cast<unsigned char>(word[i]))
                return fail(invalid("in literal ") + std::string(word) + " (expecting '" + word[i] + "')");
        }
        return true;
    }

    std::string_view m_data;
    std::size_t m_at = 0;
    int m_depth = 0;
    std::string m_error;
};

} // namespace

std::string goJsonSyntaxError(std::string_view data)
{
    return GoScanner(data).run();
}

std::string goSummarizeData(std::string_view data, std::size_t maxLength)
{
    if (data.empty())
        return "<empty>";
    const std::string_view shown = data.substr(0, maxLength);
    std::string out;
    if (data.front() == '{') {
        out = shown;
    } else {
        static constexpr char HEX[] = "0123456789abcdef";
        for (const char c : shown) {
            out += HEX[static_cast<unsigned char>(c) >> 4];
            out += HEX[static_cast<unsigned char>(c) & 0xf];
        }
    }
    if (data.size() > maxLength)
        out += " ...";
    return out;
}

} // namespace rvscope::model
