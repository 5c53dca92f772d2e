// SPDX-License-Identifier: MIT
#include "registry/strategies/Quantity.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

namespace rvscope::registry {
namespace {
std::optional<long double> suffixFactor(std::string_view suffix)
{
    struct Suffix {
        std::string_view text;
        long double factor;
    };
    static const Suffix SUFFIXES[] = {
        {"", 1.0L},           {"n", 1e-9L},          {"u", 1e-6L},          {"m", 1e-3L},
        {"k", 1e3L},          {"M", 1e6L},           {"G", 1e9L},           {"T", 1e12L},
        {"P", 1e15L},         {"E", 1e18L},          {"Ki", 1024.0L},       {"Mi", 1048576.0L},
        {"Gi", 1073741824.0L}, {"Ti", 1099511627776.0L}, {"Pi", 1125899906842624.0L},
        {"Ei", 1152921504606846976.0L},
    };
    for (const Suffix &candidate : SUFFIXES) {
        if (candidate.text == suffix)
            return candidate.factor;
    }
    // A decimal exponent: e or E followed by an optionally signed integer.
    if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
        std::string_view digits = suffix.substr(1);
        bool negative = false;
        if (digits[0] == '+' || digits[0] == '-') {
            negative = digits[0] == '-';
            digits.remove_prefix(1);
        }
        if (digits.empty() || digits.size() > 4)
            return std::nullopt;
        int exponent = 0;
        for (char c : digits) {
            if (c < '0' || c > '9')
                return std::nullopt;
            exponent = exponent * 10 + (c - '0');
        }
        return std::pow(10.0L, negative ? -exponent : exponent);
    }
    return std::nullopt;
}
} // namespace

std::optional<long double> parseQuantity(std::string_view text)
{
    std::size_t pos = 0;
    bool negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        negative = text[pos++] == '-';
    const std::size_t numberStart = pos;
    bool seenDot = false;
    bool seenDigit = false;
    while (pos < text.size() && ((text[pos] >= '0' && text[pos] <= '9') || text[pos] == '.')) {
        if (text[pos] == '.') {
            if (seenDot)
                return std::nullopt;
            seenDot = true;
        } else {
            seenDigit = true;
        }
        ++pos;
    }
    if (!seenDigit)
        return std::nullopt;
    const std::string number(text.substr(numberStart, pos - numberStart));
    const auto factor = suffixFactor(text.substr(pos));
    if (!factor)
        return std::nullopt;
    const long double magnitude = std::strtold(number.c_str(), nullptr) * *factor;
    return negative ? -magnitude : magnitude;
}

std::optional<long double> quantityOf(const nlohmann::json &value)
{
    if (value.is_string())
        return parseQuantity(value.get_ref<const std::string &>());
    if (value.is_number())
        return value.get<long double>();
    return std::nullopt;
}

} // namespace rvscope::registry
