// SPDX-License-Identifier: MIT
#include "registry/strategies/StrategyErrors.h"

#include <set>

#include <nlohmann/json.hpp>

#include "registry/strategies/JsonEdit.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
std::string withDetail(std::string body, std::string_view detail)
{
    if (!detail.empty()) {
        body += ": ";
        body += detail;
    }
    return body;
}

std::string goRequirements(const nlohmann::json &expressions)
{
    if (!expressions.is_array())
        return "[]v1.LabelSelectorRequirement(nil)";
    std::string out = "[]v1.LabelSelectorRequirement{";
    bool first = true;
    for (const nlohmann::json &expression : expressions) {
        if (!first)
            out += ", ";
        first = false;
        const auto text = [&](const char *key) {
            auto it = expression.is_object() ? expression.find(key) : expression.end();
            return goQuote(it != expression.end() && it->is_string() ? it->get_ref<const std::string &>() : "");
        };
        auto values = expression.is_object() ? expression.find("values") : expression.end();
        out += "v1.LabelSelectorRequirement{Key:" + text("key") + ", Operator:" + text("operator")
            + ", Values:" + goStringSlice(values != expression.end() ? *values : nlohmann::json()) + '}';
    }
    return out + '}';
}
} // namespace

model::StatusCause invalidFieldGo(std::string field, std::string goValue, std::string_view detail)
{
    return {"FieldValueInvalid", withDetail("Invalid value: " + goValue, detail), std::move(field)};
}

model::StatusCause invalidFieldInt(std::string field, std::int64_t value, std::string_view detail)
{
    return invalidFieldGo(std::move(field), std::to_string(value), detail);
}

model::StatusCause duplicateField(std::string field, std::string goValue)
{
    return {"FieldValueDuplicate", "Duplicate value: " + goValue, std::move(field)};
}

model::StatusCause notSupportedField(std::string field, std::string goValue, const std::vector<std::string> &supported)
{
    std::string detail;
    for (const std::string &value : supported)
        detail += (detail.empty() ? "supported values: " : ", ") + goQuote(value);
    return {"FieldValueNotSupported", withDetail("Unsupported value: " + goValue, detail), std::move(field)};
}

model::StatusCause typeInvalidField(std::string field, const nlohmann::json &value, const char *expected)
{
    model::StatusCause cause = invalidFieldJson(std::move(field), value, std::string("must be ") + expected);
    cause.type = "FieldValueTypeInvalid";
    return cause;
}

void checkNonNegative(const nlohmann::json &value, std::string_view field, std::vector<model::StatusCause> &causes)
{
    if (value.is_number_integer() && value.get<std::int64_t>() < 0)
        causes.push_back(
            invalidFieldInt(std::string(field), value.get<std::int64_t>(), "must be greater than or equal to 0"));
}

std::string goStringMap(const nlohmann::json &map)
{
    if (!map.is_object())
        return "map[string]string(nil)";
    std::string out = "map[string]string{";
    bool first = true;
    for (const auto &[key, value] : map.items()) { // nlohmann objects iterate in key order, like %#v
        if (!first)
            out += ", ";
        first = false;
        out += goQuote(key) + ':' + (value.is_string() ? goQuote(value.get_ref<const std::string &>()) : goScalar(value));
    }
    return out + '}';
}

std::string goLabelSelector(const nlohmann::json &selector)
{
    static const nlohmann::json null;
    const auto member = [&](const char *key) -> const nlohmann::json & {
        if (!selector.is_object())
            return null;
        auto it = selector.find(key);
        return it == selector.end() ? null : *it;
    };
    return "v1.LabelSelector{MatchLabels:" + goStringMap(member("matchLabels"))
        + ", MatchExpressions:" + goRequirements(member("matchExpressions")) + '}';
}

std::string goIntOrString(const nlohmann::json &value)
{
    if (value.is_string())
        return "intstr.IntOrString{Type:1, IntVal:0, StrVal:" + goQuote(value.get_ref<const std::string &>()) + '}';
    const std::int64_t number = value.is_number_integer() ? value.get<std::int64_t>() : 0;
    return "intstr.IntOrString{Type:0, IntVal:" + std::to_string(number) + ", StrVal:\"\"}";
}

std::string goStringSlice(const nlohmann::json &values)
{
    if (!values.is_array())
        return "[]string(nil)";
    std::string out = "[]string{";
    bool first = true;
    for (const nlohmann::json &value : values) {
        if (!first)
            out += ", ";
        first = false;
        out += value.is_string() ? goQuote(value.get_ref<const std::string &>()) : goScalar(value);
    }
    return out + '}';
}

std::string goStructDiff(const char *typeName, const nlohmann::json &before, const nlohmann::json &after)
{
    static const nlohmann::json null;
    std::set<std::string> keys;
    for (const nlohmann::json *side : {&before, &after}) {
        if (side->is_object()) {
            for (const auto &[key, value] : side->items())
                keys.insert(key);
        }
    }
    const auto member = [&](const nlohmann::json &object, const std::string &key) -> const nlohmann::json & {
        auto it = object.is_object() ? object.find(key) : object.end();
        return it == object.end() ? null : *it;
    };
    std::string diff = std::string("  ") + typeName + "{\n";
    for (const std::string &key : keys) {
        const nlohmann::json &was = member(before, key);
        const nlohmann::json &is = member(after, key);
        if (jsonedit::semanticEqual(was, is))
            continue;
        std::string goName = key;
        if (!goName.empty() && goName[0] >= 'a' && goName[0] <= 'z')
            goName[0] = static_cast<char>(goName[0] - 'a' + 'A');
        diff += "- \t" + goName + ": " + goScalar(was) + ",\n";
        diff += "+ \t" + goName + ": " + goScalar(is) + ",\n";
    }
    return diff + "  }\n";
}

std::string goScalar(const nlohmann::json &value)
{
    if (value.is_string())
        return goQuote(value.get_ref<const std::string &>());
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void appendUnique(std::vector<model::StatusCause> &causes, std::vector<model::StatusCause> more)
{
    for (model::StatusCause &cause : more) {
        bool seen = false;
        for (const model::StatusCause &existing : causes) {
            if (existing.type == cause.type && existing.field == cause.field && existing.message == cause.message) {
                seen = true;
                break;
            }
        }
        if (!seen)
            causes.push_back(std::move(cause));
    }
}

} // namespace rvscope::registry
