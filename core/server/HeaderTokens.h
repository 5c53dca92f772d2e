// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string_view>

namespace rvscope::server {

// A tchar of RFC 9110's token (a method, a header name, a transfer coding's name).
inline bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// `text` is `lowerCaseWord`, ASCII letters compared without case (header names and the
// tokens of their values, as Go's textproto and net/http compare them).
inline bool equalsIgnoringCase(std::string_view text, std::string_view lowerCaseWord)
{
    if (text.size() != lowerCaseWord.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if ((c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c) != lowerCaseWord[i])
            return false;
    }
    return true;
}

// `value`, a comma-separated header field value (Connection: keep-alive, Upgrade), names
// `lowerCaseToken`, compared without case, as Go's httpguts.HeaderValuesContainsToken reads
// it: a whole token, not a substring ("upgradex" is not "upgrade").
inline bool hasHeaderToken(std::string_view value, std::string_view lowerCaseToken)
{
    while (!value.empty()) {
        const std::size_t comma = value.find(',');
        std::string_view token = value.substr(0, comma);
        value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
        while (!token.empty() && (token.front() == ' ' || token.front() == '\t'))
            token.remove_prefix(1);
        while (!token.empty() && (token.back() == ' ' || token.back() == '\t'))
            token.remove_suffix(1);
        if (equalsIgnoringCase(token, lowerCaseToken))
            return true;
    }
    return false;
}

} // namespace rvscope::server
