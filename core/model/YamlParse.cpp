// SPDX-License-Identifier: MIT
#include "model/YamlParse.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <regex>

#include <yaml-cpp/yaml.h>

namespace rvscope::model {
namespace {
// What go-yaml's reader says of text that is not UTF-8 (reader.go), or "" when it is.
std::string utf8Problem(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto octet = static_cast<unsigned char>(text[i]);
        const std::size_t width = (octet & 0x80) == 0 ? 1
            : (octet & 0xE0) == 0xC0                  ? 2
            : (octet & 0xF0) == 0xE0                  ? 3
            : (octet & 0xF8) == 0xF0                  ? 4
                                                      : 0;
        if (width == 0)
            return "invalid leading UTF-8 octet";
        if (i + width > text.size())
            return "incomplete UTF-8 octet sequence";
        std::uint32_t value = width == 1 ? octet : octet & (0xFF >> (width + 1));
        for (std::size_t k = 1; k < width; ++k) {
            const auto trailing = static_cast<unsigned char>(text[i + k]);
            if ((trailing & 0xC0) != 0x80)
                return "invalid trailing UTF-8 octet";
            value = (value << 6) | (trailing & 0x3F);
        }
        const bool shortest = width == 1 || (width == 2 && value >= 0x80) || (width == 3 && value >= 0x800)
            || (width == 4 && value >= 0x10000);
        if (!shortest)
            return "invalid length of a UTF-8 sequence";
        if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF)
            return "invalid Unicode character";
        i += width;
    }
    return {};
}

// A number as Go's strconv.ParseFloat reads it, or nullopt where go-yaml keeps the scalar
// a string: not all of it a number ("1.2.3", "-."), or beyond a double's range ("1e999").
// An underflow ("1e-999") is 0, as ParseFloat gives it.
std::optional<double> goFloat(const std::string &text)
{
    if (text.empty())
        return std::nullopt;
    errno = 0;
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
        return std::nullopt;
    if (errno == ERANGE && std::isinf(value))
        return std::nullopt;
    return errno == ERANGE ? 0.0 * value : value;
}

nlohmann::json plainScalar(const std::string &text)
{
    static const std::regex null("~|null|Null|NULL|");
    static const std::regex yes("true|True|TRUE|yes|Yes|YES|on|On|ON|y|Y");
    static const std::regex no("false|False|FALSE|no|No|NO|off|Off|OFF|n|N");
    static const std::regex integer("[-+]?(0|[1-9][0-9_]*)");
    static const std::regex floating(R"([-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+)");
    if (std::regex_match(text, null))
        return nullptr;
    if (std::regex_match(text, yes))
        return true;
    if (std::regex_match(text, no))
        return false;
    if (std::regex_match(text, integer)) {
        std::string digits;
        for (char c : text) {
            if (c != '_' && c != '+')
                digits += c;
        }
        std::int64_t value = 0;
        auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec == std::errc() && ptr == digits.data() + digits.size())
            return value;
        std::uint64_t unsignedValue = 0; // go-yaml tries ParseUint next, then ParseFloat
        auto [uptr, uec] = std::from_chars(digits.data(), digits.data() + digits.size(), unsignedValue);
        if (uec == std::errc() && uptr == digits.data() + digits.size())
            return unsignedValue;
        if (auto number = goFloat(digits))
            return *number;
        return text;
    }
    if (std::regex_match(text, floating)) {
        std::string digits; // go-yaml drops underscores before ParseFloat
        for (char c : text) {
            if (c != '_')
                digits += c;
        }
        if (auto number = goFloat(digits))
            return *number;
        return text;
    }
    if (text == ".inf" || text == "+.inf")
        return HUGE_VAL;
    if (text == "-.inf")
        return -HUGE_VAL;
    return text;
}

// Aliases make a document a graph that the tree below copies out: nine aliases nested ten
// deep are a billion nodes from 600 bytes (CVE-2019-11253 against the apiserver). Without
// aliases a document cannot have more nodes than bytes, so a tree larger than that is
// refused, as go-yaml refuses "excessive aliasing".
struct ExcessiveAliasing final {};

nlohmann::json toJson(const YAML::Node &node, std::size_t &budget)
{
    if (budget == 0)
        throw ExcessiveAliasing();
    --budget;
    switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        return nullptr;
    case YAML::NodeType::Scalar:
        // "!" marks a quoted (non-plain) scalar: always a string.
        return node.Tag() == "!" ? nlohmann::json(node.Scalar()) : plainScalar(node.Scalar());
    case YAML::NodeType::Sequence: {
        nlohmann::json out = nlohmann::json::array();
        for (const YAML::Node &item : node)
            out.push_back(toJson(item, budget));
        return out;
    }
    case YAML::NodeType::Map: {
        nlohmann::json out = nlohmann::json::object();
        for (const auto &pair : node)
            out[pair.first.Scalar()] = toJson(pair.second, budget);
        return out;
    }
    }
    return nullptr;
}
} // namespace

std::variant<nlohmann::json, std::string> parseYaml(std::string_view text)
{
    // yaml-cpp takes bytes that are not UTF-8; go-yaml (the apiserver's) refuses them.
    if (std::string problem = utf8Problem(text); !problem.empty())
        return "yaml: " + problem;
    try {
        std::size_t budget = text.size() + 16;
        return toJson(YAML::Load(std::string(text)), budget);
    } catch (const YAML::Exception &error) {
        return std::string(error.what());
    } catch (const ExcessiveAliasing &) {
        return std::string("yaml: document contains excessive aliasing");
    }
}

} // namespace rvscope::model
