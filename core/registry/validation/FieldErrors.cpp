// SPDX-License-Identifier: MIT
#include "registry/validation/FieldErrors.h"

#include <set>

#include <nlohmann/json.hpp>

namespace rvscope::registry {
namespace {
model::StatusCause cause(const char *type, std::string field, std::string message)
{
    return {type, std::move(message), std::move(field)};
}

std::string withDetail(std::string body, std::string_view detail)
{
    if (!detail.empty()) {
        body += ": ";
        body += detail;
    }
    return body;
}

// One UTF-8 sequence at the start of `text`, with Go's strictness (no overlong forms, no
// surrogates, nothing past U+10FFFF). Returns its length and code point, or length 0 when the
// first byte does not start a valid sequence.
std::pair<std::size_t, char32_t> decodeRune(std::string_view text)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char first = byte(0);
    if (first < 0x80)
        return {1, first};
    std::size_t length = 0;
    char32_t rune = 0;
    char32_t minimum = 0;
    if ((first & 0xE0) == 0xC0) {
        length = 2, rune = first & 0x1F, minimum = 0x80;
    } else if ((first & 0xF0) == 0xE0) {
        length = 3, rune = first & 0x0F, minimum = 0x800;
    } else if ((first & 0xF8) == 0xF0) {
        length = 4, rune = first & 0x07, minimum = 0x10000;
    } else {
        return {0, 0};
    }
    if (text.size() < length)
        return {0, 0};
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80)
            return {0, 0};
        rune = (rune << 6) | (byte(i) & 0x3F);
    }
    if (rune < minimum || rune > 0x10FFFF || (rune >= 0xD800 && rune <= 0xDFFF))
        return {0, 0};
    return {length, rune};
}

// Go's unicode.IsPrint for the code points that occur in practice: C1 controls and the
// invisible spaces/format characters are escaped; everything else outside ASCII is shown.
bool isPrintableNonAscii(char32_t rune)
{
    if (rune < 0xA0)
        return false;
    if (rune == 0xA0 || rune == 0xAD || rune == 0x3000 || rune == 0xFEFF)
        return false;
    if ((rune >= 0x2000 && rune <= 0x200F) || (rune >= 0x2028 && rune <= 0x202F)
        || (rune >= 0x205F && rune <= 0x206F) || (rune >= 0xFFF9 && rune <= 0xFFFB))
        return false;
    return true;
}

void appendHex(std::string &out, char32_t value, int digits)
{
    static const char *const HEX = "0123456789abcdef";
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += HEX[(value >> shift) & 0xF];
}
} // namespace

model::StatusCause invalidField(std::string field, std::string_view value, std::string_view detail)
{
    return cause("FieldValueInvalid", std::move(field), withDetail("Invalid value: " + goQuote(value), detail));
}

model::StatusCause invalidFieldJson(std::string field, const nlohmann::json &value, std::string_view detail)
{
    // encoding/json escapes <, > and & even inside strings; nlohmann does not.
    std::string rendered;
    for (char c : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) {
        if (c == '<')
            rendered += "\\u003c";
        else if (c == '>')
            rendered += "\\u003e";
        else if (c == '&')
            rendered += "\\u0026";
        else
            rendered += c;
    }
    return cause("FieldValueInvalid", std::move(field), withDetail("Invalid value: " + rendered, detail));
}

model::StatusCause requiredField(std::string field, std::string_view detail)
{
    return cause("FieldValueRequired", std::move(field), withDetail("Required value", detail));
}

model::StatusCause forbiddenField(std::string field, std::string_view detail)
{
    return cause("FieldValueForbidden", std::move(field), withDetail("Forbidden", detail));
}

model::StatusCause tooLongField(std::string field, std::size_t maxBytes)
{
    return cause("FieldValueTooLong", std::move(field),
                 "Too long: must have at most " + std::to_string(maxBytes) + " bytes");
}

std::string fieldErrorText(const model::StatusCause &cause)
{
    return cause.field + ": " + cause.message;
}

std::string aggregateErrorText(const std::vector<model::StatusCause> &causes)
{
    if (causes.size() == 1)
        return fieldErrorText(causes.front());
    std::set<std::string> seen;
    std::string joined;
    for (const model::StatusCause &cause : causes) {
        std::string text = fieldErrorText(cause);
        if (!seen.insert(text).second)
            continue;
        if (seen.size() > 1)
            joined += ", ";
        joined += text;
    }
    return seen.size() <= 1 ? joined : '[' + joined + ']';
}

std::string goQuote(std::string_view text)
{
    std::string out = "\"";
    while (!text.empty()) {
        const auto [length, rune] = decodeRune(text);
        if (length == 0) {
            out += "\\x";
            appendHex(out, static_cast<unsigned char>(text.front()), 2);
            text.remove_prefix(1);
            continue;
        }
        if (rune == '"' || rune == '\\') {
            out += '\\';
            out += static_cast<char>(rune);
        } else if (rune >= 0x20 && rune < 0x7F) {
            out += static_cast<char>(rune);
        } else if (rune >= 0x80 && isPrintableNonAscii(rune)) {
            out.append(text.substr(0, length));
        } else {
            switch (rune) {
            case '\a': out += "\\a"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\v': out += "\\v"; break;
            default:
                if (rune < 0x20 || rune == 0x7F) {
                    out += "\\x";
                    appendHex(out, rune, 2);
                } else if (rune < 0x10000) {
                    out += "\\u";
                    appendHex(out, rune, 4);
                } else {
                    out += "\\U";
                    appendHex(out, rune, 8);
                }
            }
        }
        text.remove_prefix(length);
    }
    out += '"';
    return out;
}

} // namespace rvscope::registry
