// SPDX-License-Identifier: MIT
#include "registry/validation/LabelSelectorValidation.h"

#include <nlohmann/json.hpp>

#include "registry/validation/FieldErrors.h"
#include "registry/validation/FieldPath.h"
#include "registry/validation/NameValidation.h"
#include "registry/validation/ObjectMetaValidation.h"

namespace rvscope::registry {
namespace {
model::StatusCause typeInvalid(std::string field, const nlohmann::json &value, const char *expected)
{
    model::StatusCause cause = invalidFieldJson(std::move(field), value, std::string("must be ") + expected);
    cause.type = "FieldValueTypeInvalid";
    return cause;
}

void validateRequirement(const nlohmann::json &requirement, const std::string &path,
                         std::vector<model::StatusCause> &causes)
{
    if (!requirement.is_object()) {
        causes.push_back(typeInvalid(path, requirement, "an object"));
        return;
    }
    const auto member = [&](const char *name) {
        const auto it = requirement.find(name);
        return it == requirement.end() ? nlohmann::json() : *it;
    };
    const nlohmann::json key = member("key");
    const nlohmann::json op = member("operator");
    const nlohmann::json values = member("values");
    const std::size_t before = causes.size();
    if (!key.is_null() && !key.is_string())
        causes.push_back(typeInvalid(path + ".key", key, "a string"));
    if (!op.is_null() && !op.is_string())
        causes.push_back(typeInvalid(path + ".operator", op, "a string"));
    if (!values.is_null() && !values.is_array())
        causes.push_back(typeInvalid(path + ".values", values, "an array of strings"));
    if (causes.size() != before)
        return;

    const std::string opText = op.is_string() ? op.get<std::string>() : std::string();
    const std::size_t valueCount = values.is_array() ? values.size() : 0;
    if (opText == "In" || opText == "NotIn") {
        if (valueCount == 0)
            causes.push_back(requiredField(path + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (opText == "Exists" || opText == "DoesNotExist") {
        if (valueCount > 0)
            causes.push_back(forbiddenField(path + ".values",
                                            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
        causes.push_back(invalidField(path + ".operator", opText, "not a valid selector operator"));
    }
    const std::vector<model::StatusCause> keyErrors =
        validateLabelName(key.is_string() ? key.get<std::string>() : std::string(), path + ".key");
    causes.insert(causes.end(), keyErrors.begin(), keyErrors.end());
    for (std::size_t i = 0; i < valueCount; ++i) {
        const std::string valuePath = path + ".values[" + std::to_string(i) + ']';
        if (!values[i].is_string()) {
            causes.push_back(typeInvalid(valuePath, values[i], "a string"));
            continue;
        }
        const std::string value = values[i].get<std::string>();
        for (const std::string &message : isValidLabelValue(value))
            causes.push_back(invalidField(valuePath, value, message));
    }
}
} // namespace

std::vector<model::StatusCause> validateLabelSelector(const nlohmann::json &selector, const std::string &fieldPath)
{
    std::vector<model::StatusCause> causes;
    if (selector.is_null())
        return causes;
    if (!selector.is_object()) {
        causes.push_back(typeInvalid(fieldPath, selector, "an object"));
        return causes;
    }
    // Runs on every write of a workload: paths are rendered only for errors.
    const FieldPath root(fieldPath);
    if (const auto labels = selector.find("matchLabels"); labels != selector.end() && !labels->is_null()) {
        const FieldPath path = root.child("matchLabels");
        if (!labels->is_object()) {
            causes.push_back(typeInvalid(path.toString(), *labels, "an object"));
        } else {
            for (const auto &[key, value] : labels->items()) {
                if (!value.is_string())
                    causes.push_back(typeInvalid(path.toString() + '[' + key + ']', value, "a string"));
            }
            std::vector<model::StatusCause> labelErrors = validateLabels(*labels, path);
            causes.insert(causes.end(), std::make_move_iterator(labelErrors.begin()),
                          std::make_move_iterator(labelErrors.end()));
        }
    }
    if (const auto exprs = selector.find("matchExpressions"); exprs != selector.end() && !exprs->is_null()) {
        const FieldPath path = root.child("matchExpressions");
        if (!exprs->is_array()) {
            causes.push_back(typeInvalid(path.toString(), *exprs, "an array"));
        } else {
            for (std::size_t i = 0; i < exprs->size(); ++i)
                validateRequirement((*exprs)[i], path.index(i).toString(), causes);
        }
    }
    return causes;
}

} // namespace rvscope::registry
