// SPDX-License-Identifier: MIT
#include "registry/strategies/ConfigMapStrategy.h"


#include "model/JsonAccess.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {
namespace {
void validateMap(const nlohmann::json &json, const char *field, bool stringValues,
                 std::vector<model::StatusCause> &causes)
{
    auto it = json.find(field);
    if (it == json.end() || it->is_null())
        return;
    if (!it->is_object()) {
        causes.push_back(invalidFieldJson(field, *it, "must be a map of strings"));
        return;
    }
    for (const auto &[key, value] : it->items()) {
        const std::string path = std::string(field) + '[' + key + ']';
        for (const std::string &error : isConfigMapKey(key))
            causes.push_back(invalidField(path, key, error));
        if (!value.is_string())
            causes.push_back(invalidFieldJson(path, value, stringValues ? "must be a string" : "must be base64"));
    }
}
} // namespace

std::vector<model::StatusCause> ConfigMapStrategy::validate(const model::Object &object) const
{
    std::vector<model::StatusCause> causes = Strategy::validate(object);
    const nlohmann::json &json = object.json();
    validateMap(json, "data", true, causes);
    validateMap(json, "binaryData", false, causes);
    auto data = json.find("data");
    auto binary = json.find("binaryData");
    if (data != json.end() && binary != json.end() && data->is_object() && binary->is_object()) {
        for (const auto &[key, value] : binary->items()) {
            if (data->contains(key))
                causes.push_back(invalidField("data[" + key + "]", key, "duplicate of key present in binaryData"));
        }
    }
    return causes;
}

std::vector<model::StatusCause> ConfigMapStrategy::validateUpdate(const model::Object &object,
                                                                  const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    const nlohmann::json &before = old.json();
    if (model::member(before, "immutable") == true) {
        const nlohmann::json &after = object.json();
        for (const char *field : {"data", "binaryData"}) {
            if (model::member(after, field) != model::member(before, field))
                causes.push_back(forbiddenField(field, "field is immutable when `immutable` is set"));
        }
        if (model::member(after, "immutable") != true)
            causes.push_back(forbiddenField("immutable", "field is immutable when `immutable` is set"));
    }
    return causes;
}

} // namespace rvscope::registry
