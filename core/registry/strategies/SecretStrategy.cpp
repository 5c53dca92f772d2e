// SPDX-License-Identifier: MIT
#include "registry/strategies/SecretStrategy.h"


#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "registry/strategies/Base64.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {
namespace {
using Causes = std::vector<model::StatusCause>;
using model::member;

constexpr std::size_t MAX_SECRET_SIZE = 1024 * 1024;
const char *const REDACTED = "<secret contents redacted>";
const char *const IMMUTABLE_DETAIL = "field is immutable when `immutable` is set";


// Decoded data values by key (those that decode), reporting the keys and values that do not.
std::map<std::string, std::string> validateData(const nlohmann::json &data, Causes &causes)
{
    std::map<std::string, std::string> decoded;
    if (data.is_null())
        return decoded;
    if (!data.is_object()) {
        causes.push_back(typeInvalidField("data", data, "an object"));
        return decoded;
    }
    std::size_t total = 0;
    for (const auto &[key, value] : data.items()) {
        const std::string path = "data[" + key + ']';
        for (const std::string &error : isConfigMapKey(key))
            causes.push_back(invalidField(path, key, error));
        if (value.is_null()) {
            decoded[key];
            continue;
        }
        if (!value.is_string()) {
            causes.push_back(typeInvalidField(path, value, "a base64 string"));
            continue;
        }
        Base64Decoded bytes = base64Decode(value.get_ref<const std::string &>());
        if (bytes.errorOffset) {
            causes.push_back(invalidField(path, REDACTED,
                                          "illegal base64 data at input byte " + std::to_string(*bytes.errorOffset)));
            continue;
        }
        total += bytes.bytes.size();
        decoded[key] = std::move(bytes.bytes);
    }
    if (total > MAX_SECRET_SIZE)
        causes.push_back(tooLongField("data", MAX_SECRET_SIZE));
    return decoded;
}

void validateDockerConfig(const std::map<std::string, std::string> &data, const std::string &key, Causes &causes)
{
    auto it = data.find(key);
    if (it == data.end()) {
        causes.push_back(requiredField("data[" + key + ']'));
        return;
    }
    if (!model::parseJson(it->second))
        causes.push_back(invalidField("data[" + key + ']', REDACTED, "invalid character in JSON"));
}

// The keys each well-known secret type must carry (ValidateSecret's switch on type).
void validateTypeRequirements(const model::Object &object, const std::string &type,
                              const std::map<std::string, std::string> &data, Causes &causes)
{
    const auto require = [&](const char *key) {
        if (!data.count(key))
            causes.push_back(requiredField(std::string("data[") + key + ']'));
    };
    if (type == "kubernetes.io/service-account-token") {
        const auto annotations = object.annotations();
        auto account = annotations.find("kubernetes.io/service-account.name");
        if (account == annotations.end() || account->second.empty())
            causes.push_back(requiredField("metadata.annotations[kubernetes.io/service-account.name]"));
    } else if (type == "kubernetes.io/dockercfg") {
        validateDockerConfig(data, ".dockercfg", causes);
    } else if (type == "kubernetes.io/dockerconfigjson") {
        validateDockerConfig(data, ".dockerconfigjson", causes);
    } else if (type == "kubernetes.io/basic-auth") {
        if (!data.count("username") && !data.count("password")) {
            require("username");
            require("password");
        }
    } else if (type == "kubernetes.io/ssh-auth") {
        auto it = data.find("ssh-privatekey");
        if (it == data.end() || it->second.empty())
            causes.push_back(requiredField("data[ssh-privatekey]"));
    } else if (type == "kubernetes.io/tls") {
        require("tls.crt");
        require("tls.key");
    }
}
} // namespace

void SecretStrategy::applyDefaults(model::Object &object)
{
    nlohmann::json &json = object.mutableJson();
    jsonedit::setDefaultString(json, "type", "Opaque");
    auto stringData = json.find("stringData");
    if (stringData == json.end())
        return;
    if (stringData->is_null()) {
        json.erase(stringData);
        return;
    }
    nlohmann::json *data = jsonedit::childObject(json, "data");
    stringData = json.find("stringData"); // childObject may have inserted a member
    if (!data || !stringData->is_object())
        return; // left for validation to report
    nlohmann::json rejected = nlohmann::json::object();
    for (const auto &[key, value] : stringData->items()) {
        if (value.is_string())
            (*data)[key] = base64Encode(value.get_ref<const std::string &>());
        else
            rejected[key] = value;
    }
    // Go drops an empty map when encoding (omitempty), whoever sent it.
    if (data->empty())
        json.erase("data");
    if (rejected.empty())
        json.erase("stringData");
    else
        json["stringData"] = std::move(rejected);
}

void SecretStrategy::prepareForCreate(model::Object &object) const
{
    applyDefaults(object);
}

void SecretStrategy::prepareForUpdate(model::Object &object, const model::Object &) const
{
    applyDefaults(object);
}

std::vector<model::StatusCause> SecretStrategy::validate(const model::Object &object) const
{
    Causes causes = Strategy::validate(object);
    const nlohmann::json &json = object.json();
    const std::map<std::string, std::string> data = validateData(member(json, "data"), causes);
    const nlohmann::json &stringData = member(json, "stringData");
    if (!stringData.is_null() && !stringData.is_object()) {
        causes.push_back(typeInvalidField("stringData", stringData, "an object"));
    } else if (stringData.is_object()) {
        for (const auto &[key, value] : stringData.items())
            causes.push_back(typeInvalidField("stringData[" + key + ']', value, "a string"));
    }
    const nlohmann::json &type = member(json, "type");
    if (!type.is_string())
        causes.push_back(typeInvalidField("type", type, "a string"));
    else
        validateTypeRequirements(object, type.get_ref<const std::string &>(), data, causes);
    const nlohmann::json &immutable = member(json, "immutable");
    if (!immutable.is_null() && !immutable.is_boolean())
        causes.push_back(typeInvalidField("immutable", immutable, "a boolean"));
    return causes;
}

std::vector<model::StatusCause> SecretStrategy::validateUpdate(const model::Object &object,
                                                               const model::Object &old) const
{
    Causes causes = Strategy::validateUpdate(object, old);
    const nlohmann::json &json = object.json();
    const nlohmann::json &before = old.json();
    const std::string type = model::stringOr(member(json, "type"));
    if (type != model::stringOr(member(before, "type")))
        causes.push_back(invalidField("type", type, "field is immutable"));
    if (member(before, "immutable") == true) {
        if (member(json, "immutable") != true)
            causes.push_back(forbiddenField("immutable", IMMUTABLE_DETAIL));
        if (!jsonedit::semanticEqual(member(json, "data"), member(before, "data")))
            causes.push_back(forbiddenField("data", IMMUTABLE_DETAIL));
    }
    return causes;
}

std::map<std::string, std::string> SecretStrategy::selectableFields(const model::Object &object) const
{
    std::map<std::string, std::string> fields = Strategy::selectableFields(object);
    fields["type"] = model::stringOr(member(object.json(), "type"));
    return fields;
}

} // namespace rvscope::registry
