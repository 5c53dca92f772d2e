// SPDX-License-Identifier: MIT
#include "model/YamlParse.h"

#include <charconv>
#include <cmath>
#include <regex>

#include <yaml-cpp/yaml.h>

namespace rvscope::model {
namespace {
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
        return std::stod(digits); // out of range: a float, as Go's YAML does
    }
    if (std::regex_match(text, floating))
        return std::stod(text);
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
