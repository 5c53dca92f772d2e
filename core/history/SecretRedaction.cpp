// SPDX-License-Identifier: MIT
#include "history/SecretRedaction.h"

#include <string_view>

#include "model/JsonParse.h"
#include "model/JsonWrite.h"

namespace rvscope::history {
namespace {
constexpr std::string_view LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

bool isSecretResourceKey(std::string_view key)
{
    if (key.starts_with("/registry/"))
        key.remove_prefix(std::string_view("/registry/").size());
    return key == "secrets" || key.starts_with("secrets/");
}

void redactValues(nlohmann::json &object, const char *member)
{
    auto values = object.find(member);
    if (values == object.end() || !values->is_object())
        return;
    for (auto &value : *values)
        value = REDACTED;
}

void redactSecret(nlohmann::json &secret)
{
    if (!secret.is_object())
        return;
    redactValues(secret, "data");
    redactValues(secret, "stringData");
    auto metadata = secret.find("metadata");
    if (metadata == secret.end() || !metadata->is_object())
        return;
    auto annotations = metadata->find("annotations");
    if (annotations == metadata->end() || !annotations->is_object())
        return;
    if (auto applied = annotations->find(LAST_APPLIED); applied != annotations->end())
        *applied = REDACTED;
}

std::string kindOf(const nlohmann::json &object)
{
    if (!object.is_object())
        return {};
    auto kind = object.find("kind");
    return kind != object.end() && kind->is_string() ? kind->get<std::string>() : std::string();
}
} // namespace

bool touchesSecrets(const OperationRecord &operation)
{
    if (isSecretResourceKey(operation.key))
        return true;
    const std::string kind = kindOf(operation.objectJson());
    return kind == "Secret" || kind == "SecretList";
}

nlohmann::json redactSecretObject(const nlohmann::json &object)
{
    const std::string kind = kindOf(object);
    nlohmann::json out = object;
    if (kind == "Secret") {
        redactSecret(out);
    } else if (out.is_object() && out.contains("items") && out["items"].is_array()) {
        for (nlohmann::json &item : out["items"]) // a list read from the secrets resource
            redactSecret(item);
    } else {
        redactSecret(out); // a Secret recorded without its kind
    }
    return out;
}

std::string redactSecretRequest(const std::string &body)
{
    if (body.empty())
        return body;
    const std::optional<nlohmann::json> parsed = model::parseJson(body);
    if (!parsed || !parsed->is_object())
        return std::string(REDACTED) + " (a request body to a Secret)";
    return model::dumpJson(redactSecretObject(*parsed));
}

} // namespace rvscope::history
