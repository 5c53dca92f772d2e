// SPDX-License-Identifier: MIT
#include "api/QueryString.h"

#include <optional>

#include "model/Utf8.h"

namespace rvscope::api {
namespace {

// Go's url.QueryUnescape: nullopt for a '%' without two hex digits after it.
std::optional<std::string> queryUnescape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out += ' ';
        } else if (c == '%') {
            const int high = i + 1 < text.size() ? model::hexDigitValue(text[i + 1]) : -1;
            const int low = i + 2 < text.size() ? model::hexDigitValue(text[i + 2]) : -1;
            if (high < 0 || low < 0)
                return std::nullopt;
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

// Go's url.QueryEscape.
void appendQueryEscaped(std::string &out, std::string_view text)
{
    static constexpr char HEX[] = "0123456789ABCDEF";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || c == '-'
            || c == '_' || c == '.' || c == '~') {
            out += c;
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            out += HEX[byte >> 4];
            out += HEX[byte & 0xf];
        }
    }
}

} // namespace

std::string encodeQueryString(const std::map<std::string, std::string> &query)
{
    std::string out;
    for (const auto &[name, value] : query) {
        if (!out.empty())
            out += '&';
        appendQueryEscaped(out, name);
        out += '=';
        appendQueryEscaped(out, value);
    }
    return out;
}

std::map<std::string, std::string> parseQueryString(std::string_view rawQuery)
{
    std::map<std::string, std::string> query;
    while (!rawQuery.empty()) {
        const std::size_t amp = rawQuery.find('&');
        const std::string_view pair = rawQuery.substr(0, amp);
        rawQuery = amp == std::string_view::npos ? std::string_view() : rawQuery.substr(amp + 1);
        if (pair.empty() || pair.find(';') != std::string_view::npos)
            continue;
        const std::size_t equals = pair.find('=');
        const auto name = queryUnescape(pair.substr(0, equals));
        const auto value = queryUnescape(equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1));
        if (!name || !value)
            continue;
        query.try_emplace(*name, *value);
    }
    return query;
}

} // namespace rvscope::api
