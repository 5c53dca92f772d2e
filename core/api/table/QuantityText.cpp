// SPDX-License-Identifier: MIT
// Quantity canonicalisation as k8s.io/apimachinery/pkg/api/resource does it: parse the number
// and its suffix, round up to nano units, then print a binary-SI value as a whole multiple of a
// power of 1024 and anything else as mantissa × 10^(multiple of 3).
#include "api/table/QuantityText.h"

#include <optional>
#include <string_view>

#include "model/JsonWrite.h"

namespace rvscope::api::table {
namespace {

__extension__ typedef unsigned __int128 Wide; // __extension__: -Wpedantic accepts the GCC type

enum class Format { DecimalSI, BinarySI, DecimalExponent };

// Values are kept in nano units below this bound, so that every step below stays exact.
constexpr Wide LIMIT = Wide(1) << 120;
constexpr Wide NANO = 1'000'000'000;

struct Parsed final {
    bool negative = false;
    Wide nanos = 0;
    Format format = Format::DecimalSI;
};

bool multiply(Wide &value, Wide by)
{
    if (by != 0 && value > LIMIT / by)
        return false;
    value *= by;
    return true;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The suffix's base-10 exponent, base-2 exponent and format (suffixHandler.interpret).
std::optional<std::tuple<int, int, Format>> interpret(std::string_view suffix)
{
    static const std::pair<std::string_view, int> DECIMAL[] = {
        {"n", -9}, {"u", -6}, {"m", -3}, {"", 0}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}};
    static const std::pair<std::string_view, int> BINARY[] = {
        {"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
    for (const auto &[text, exponent] : DECIMAL)
        if (suffix == text)
            return std::tuple{exponent, 0, Format::DecimalSI};
    for (const auto &[text, exponent] : BINARY)
        if (suffix == text)
            return std::tuple{0, exponent, Format::BinarySI};
    if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
        std::size_t at = 1;
        const bool minus = suffix[at] == '-';
        if (suffix[at] == '-' || suffix[at] == '+')
            ++at;
        if (at == suffix.size() || suffix.size() - at > 4)
            return std::nullopt;
        int exponent = 0;
        for (; at < suffix.size(); ++at) {
            if (!isDigit(suffix[at]))
                return std::nullopt;
            exponent = exponent * 10 + (suffix[at] - '0');
        }
        return std::tuple{minus ? -exponent : exponent, 0, Format::DecimalExponent};
    }
    return std::nullopt;
}

std::optional<Parsed> parse(std::string_view text)
{
    Parsed out;
    std::size_t at = 0;
    if (at < text.size() && (text[at] == '+' || text[at] == '-'))
        out.negative = text[at++] == '-';
    Wide digits = 0;
    int scale = 0; // digits × 10^scale
    bool any = false;
    bool fraction = false;
    for (; at < text.size() && (isDigit(text[at]) || (text[at] == '.' && !fraction)); ++at) {
        if (text[at] == '.') {
            fraction = true;
            continue;
        }
        any = true;
        if (!multiply(digits, 10))
            return std::nullopt;
        digits += Wide(text[at] - '0');
        if (fraction)
            --scale;
    }
    if (!any)
        return std::nullopt;
    const auto suffix = interpret(text.substr(at));
    if (!suffix)
        return std::nullopt;
    const auto [exponent10, exponent2, format] = *suffix;
    out.format = format;
    if (!multiply(digits, Wide(1) << exponent2))
        return std::nullopt;
    // nanos = ceil(digits × 10^(scale + exponent10 + 9)): rounding away from zero, as inf.RoundUp
    int shift = scale + exponent10 + 9;
    for (; shift > 0; --shift)
        if (!multiply(digits, 10))
            return std::nullopt;
    for (; shift < 0; ++shift)
        digits = digits / 10 + (digits % 10 != 0 ? 1 : 0);
    out.nanos = digits;
    return out;
}

std::string decimal(Wide value)
{
    if (value == 0)
        return "0";
    std::string out;
    for (; value != 0; value /= 10)
        out.insert(out.begin(), char('0' + int(value % 10)));
    return out;
}

std::string canonical(const Parsed &quantity)
{
    if (quantity.nanos == 0)
        return "0";
    const std::string sign = quantity.negative ? "-" : "";
    Format format = quantity.format;
    if (format == Format::BinarySI && (quantity.nanos < 1024 * NANO || quantity.nanos % NANO != 0))
        format = Format::DecimalSI; // small or fractional: no rounding, shown in decimal
    if (format == Format::BinarySI) {
        Wide amount = quantity.nanos / NANO;
        int exponent = 0;
        while (amount % 1024 == 0) {
            amount /= 1024;
            exponent += 10;
        }
        static const char *const SUFFIX[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        return sign + decimal(amount) + (exponent <= 60 ? SUFFIX[exponent / 10] : "");
    }
    Wide mantissa = quantity.nanos;
    int exponent = -9;
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        ++exponent;
    }
    while (exponent % 3 != 0) {
        mantissa *= 10; // below LIMIT × 100, so it stays in range
        --exponent;
    }
    if (format == Format::DecimalExponent)
        return sign + decimal(mantissa) + (exponent == 0 ? "" : "e" + std::to_string(exponent));
    static const char *const SUFFIX[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    const int index = (exponent + 9) / 3;
    return sign + decimal(mantissa) + (index >= 0 && index < 10 ? SUFFIX[index] : "");
}

} // namespace

std::string canonicalQuantity(const nlohmann::json &value)
{
    if (value.is_null())
        return "0";
    const std::string text = value.is_string() ? value.get<std::string>() : model::dumpJson(value);
    const auto parsed = parse(text);
    return parsed ? canonical(*parsed) : text;
}

} // namespace rvscope::api::table
