// SPDX-License-Identifier: MIT
#include "registry/selection/LabelSelector.h"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "model/StatusErrors.h"
#include "registry/selection/LabelRequirementCheck_p.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {
namespace {
// strconv.ParseInt(s, 10, 64): an optional sign, then at least one decimal digit, in range.
std::optional<std::int64_t> parseInt64(std::string_view text)
{
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty())
        return std::nullopt;
    constexpr std::uint64_t LIMIT = std::uint64_t(1) << 63; // |INT64_MIN|
    std::uint64_t magnitude = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (magnitude > (LIMIT - digit) / 10)
            return std::nullopt;
        magnitude = magnitude * 10 + digit;
    }
    if (magnitude == LIMIT)
        return negative ? std::optional<std::int64_t>(INT64_MIN) : std::nullopt;
    const auto value = static_cast<std::int64_t>(magnitude);
    return negative ? -value : value;
}

std::string joinMessages(const std::vector<std::string> &messages)
{
    std::string joined;
    for (const std::string &message : messages) {
        if (!joined.empty())
            joined += "; ";
        joined += message;
    }
    return joined;
}

nlohmann::json valuesJson(const std::vector<std::string> &values)
{
    // Upstream hands NewRequirement a nil slice for no values, which marshals as null.
    return values.empty() ? nlohmann::json() : nlohmann::json(values);
}

std::optional<SelectorOperator> operatorFromJson(const std::string &op)
{
    if (op == "In")
        return SelectorOperator::In;
    if (op == "NotIn")
        return SelectorOperator::NotIn;
    if (op == "Exists")
        return SelectorOperator::Exists;
    if (op == "DoesNotExist")
        return SelectorOperator::DoesNotExist;
    return std::nullopt;
}

model::Status malformed(const std::string &what)
{
    return model::errors::badRequest("invalid label selector: " + what);
}
} // namespace

std::optional<std::string> checkLabelRequirement(const LabelRequirement &requirement)
{
    std::vector<model::StatusCause> errors;
    if (const auto keyErrors = isQualifiedName(requirement.key); !keyErrors.empty())
        errors.push_back(invalidField("key", requirement.key, joinMessages(keyErrors)));
    const std::vector<std::string> &values = requirement.values;
    switch (requirement.op) {
    case SelectorOperator::In:
    case SelectorOperator::NotIn:
        if (values.empty())
            errors.push_back(invalidFieldJson("values", valuesJson(values),
                                              "for 'in', 'notin' operators, values set can't be empty"));
        break;
    case SelectorOperator::Equals:
    case SelectorOperator::DoubleEquals:
    case SelectorOperator::NotEquals:
        if (values.size() != 1)
            errors.push_back(invalidFieldJson("values", valuesJson(values),
                                              "exact-match compatibility requires one single value"));
        break;
    case SelectorOperator::Exists:
    case SelectorOperator::DoesNotExist:
        if (!values.empty())
            errors.push_back(invalidFieldJson("values", valuesJson(values),
                                              "values set must be empty for exists and does not exist"));
        break;
    case SelectorOperator::GreaterThan:
    case SelectorOperator::LessThan:
        if (values.size() != 1)
            errors.push_back(invalidFieldJson("values", valuesJson(values),
                                              "for 'Gt', 'Lt' operators, exactly one value is required"));
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!parseInt64(values[i]))
                errors.push_back(invalidField("values[" + std::to_string(i) + ']', values[i],
                                              "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
        break;
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (const auto valueErrors = isValidLabelValue(values[i]); !valueErrors.empty())
            errors.push_back(invalidField("values[" + std::to_string(i) + "][" + requirement.key + ']', values[i],
                                          joinMessages(valueErrors)));
    }
    if (errors.empty())
        return std::nullopt;
    return aggregateErrorText(errors);
}

bool LabelRequirement::matches(const std::map<std::string, std::string> &labels) const
{
    const auto label = labels.find(key);
    const bool present = label != labels.end();
    const auto hasValue = [&] { return std::find(values.begin(), values.end(), label->second) != values.end(); };
    switch (op) {
    case SelectorOperator::In:
    case SelectorOperator::Equals:
    case SelectorOperator::DoubleEquals:
        return present && hasValue();
    case SelectorOperator::NotIn:
    case SelectorOperator::NotEquals:
        return !present || !hasValue();
    case SelectorOperator::Exists:
        return present;
    case SelectorOperator::DoesNotExist:
        return !present;
    case SelectorOperator::GreaterThan:
    case SelectorOperator::LessThan: {
        if (!present || values.size() != 1)
            return false;
        const auto actual = parseInt64(label->second);
        const auto bound = parseInt64(values.front());
        if (!actual || !bound)
            return false;
        return op == SelectorOperator::GreaterThan ? *actual > *bound : *actual < *bound;
    }
    }
    return false;
}

std::string LabelRequirement::toString() const
{
    std::string text = op == SelectorOperator::DoesNotExist ? "!" + key : key;
    switch (op) {
    case SelectorOperator::Exists:
    case SelectorOperator::DoesNotExist:
        return text;
    case SelectorOperator::Equals: text += '='; break;
    case SelectorOperator::DoubleEquals: text += "=="; break;
    case SelectorOperator::NotEquals: text += "!="; break;
    case SelectorOperator::In: text += " in ("; break;
    case SelectorOperator::NotIn: text += " notin ("; break;
    case SelectorOperator::GreaterThan: text += '>'; break;
    case SelectorOperator::LessThan: text += '<'; break;
    }
    std::vector<std::string> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        if (i > 0)
            text += ',';
        text += sorted[i];
    }
    if (op == SelectorOperator::In || op == SelectorOperator::NotIn)
        text += ')';
    return text;
}

LabelSelector::LabelSelector(std::vector<LabelRequirement> requirements)
    : m_requirements(std::move(requirements))
{
    std::stable_sort(m_requirements.begin(), m_requirements.end(),
                     [](const LabelRequirement &a, const LabelRequirement &b) { return a.key < b.key; });
}

LabelSelector LabelSelector::nothing()
{
    LabelSelector selector;
    selector.m_nothing = true;
    return selector;
}

LabelSelector LabelSelector::fromSet(const std::map<std::string, std::string> &labels)
{
    std::vector<LabelRequirement> requirements;
    for (const auto &[key, value] : labels)
        requirements.push_back({key, SelectorOperator::Equals, {value}});
    return LabelSelector(std::move(requirements));
}

model::Result<LabelSelector> LabelSelector::fromJson(const nlohmann::json &labelSelector)
{
    if (labelSelector.is_null())
        return nothing();
    if (!labelSelector.is_object())
        return malformed("a label selector must be a JSON object");
    std::vector<LabelRequirement> requirements;
    if (const auto labels = labelSelector.find("matchLabels"); labels != labelSelector.end() && !labels->is_null()) {
        if (!labels->is_object())
            return malformed("matchLabels must be an object of strings");
        for (const auto &[key, value] : labels->items()) {
            if (!value.is_string())
                return malformed("matchLabels must be an object of strings");
            LabelRequirement requirement{key, SelectorOperator::Equals, {value.get<std::string>()}};
            if (auto error = checkLabelRequirement(requirement))
                return model::errors::badRequest(std::move(*error));
            requirements.push_back(std::move(requirement));
        }
    }
    if (const auto exprs = labelSelector.find("matchExpressions"); exprs != labelSelector.end() && !exprs->is_null()) {
        if (!exprs->is_array())
            return malformed("matchExpressions must be an array");
        for (const nlohmann::json &expr : *exprs) {
            if (!expr.is_object())
                return malformed("each of matchExpressions must be an object");
            const nlohmann::json key = expr.value("key", nlohmann::json());
            const nlohmann::json op = expr.value("operator", nlohmann::json());
            const nlohmann::json values = expr.value("values", nlohmann::json());
            if ((!key.is_null() && !key.is_string()) || (!op.is_null() && !op.is_string())
                || (!values.is_null() && !values.is_array()))
                return malformed("matchExpressions need a string key and operator and an array of string values");
            LabelRequirement requirement;
            requirement.key = key.is_string() ? key.get<std::string>() : std::string();
            const std::string opText = op.is_string() ? op.get<std::string>() : std::string();
            const auto parsedOp = operatorFromJson(opText);
            if (!parsedOp)
                return model::errors::badRequest(goQuote(opText) + " is not a valid label selector operator");
            requirement.op = *parsedOp;
            for (const nlohmann::json &value : values.is_array() ? values : nlohmann::json::array()) {
                if (!value.is_string())
                    return malformed("matchExpressions values must be strings");
                requirement.values.push_back(value.get<std::string>());
            }
            if (auto error = checkLabelRequirement(requirement))
                return model::errors::badRequest(std::move(*error));
            requirements.push_back(std::move(requirement));
        }
    }
    return LabelSelector(std::move(requirements));
}

bool LabelSelector::matches(const std::map<std::string, std::string> &labels) const
{
    if (m_nothing)
        return false;
    return std::all_of(m_requirements.begin(), m_requirements.end(),
                       [&](const LabelRequirement &requirement) { return requirement.matches(labels); });
}

std::optional<std::string> LabelSelector::requiresExactMatch(std::string_view key) const
{
    for (const LabelRequirement &requirement : m_requirements) {
        if (requirement.key != key)
            continue;
        const bool exact = requirement.op == SelectorOperator::Equals || requirement.op == SelectorOperator::DoubleEquals
            || requirement.op == SelectorOperator::In;
        if (exact && requirement.values.size() == 1)
            return requirement.values.front();
        return std::nullopt;
    }
    return std::nullopt;
}

std::string LabelSelector::toString() const
{
    std::string text;
    for (std::size_t i = 0; i < m_requirements.size(); ++i) {
        if (i > 0)
            text += ',';
        text += m_requirements[i].toString();
    }
    return text;
}

} // namespace rvscope::registry
