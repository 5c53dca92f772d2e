// SPDX-License-Identifier: MIT
#include "registry/strategies/CustomResourceDefinitionStrategy.h"

#include <algorithm>
#include <cctype>

#include "model/JsonAccess.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

using model::memberAt;
using model::stringOr;

void defaultNames(nlohmann::json &json)
{
    auto spec = json.find("spec");
    if (spec == json.end() || !spec->is_object())
        return;
    auto found = spec->find("names");
    if (found == spec->end() || !found->is_object())
        return;
    nlohmann::json &names = *found;
    const std::string kind = stringOr(model::member(names, "kind"));
    if (!names.contains("singular") && !kind.empty())
        names["singular"] = lower(kind);
    if (!names.contains("listKind") && !kind.empty())
        names["listKind"] = kind + "List";
}

nlohmann::json acceptedStatus(const nlohmann::json &json)
{
    nlohmann::json stored = nlohmann::json::array();
    const nlohmann::json &versions = memberAt(json, "spec", "versions");
    for (const auto &version : versions.is_array() ? versions : nlohmann::json::array()) {
        if (model::member(version, "storage") == true)
            stored.push_back(stringOr(model::member(version, "name")));
    }
    const nlohmann::json &names = memberAt(json, "spec", "names");
    const nlohmann::json accepted = {{"type", "NamesAccepted"}, {"status", "True"}, {"reason", "NoConflicts"},
                                     {"message", "no conflicts found"}};
    const nlohmann::json established = {{"type", "Established"}, {"status", "True"}, {"reason", "InitialNamesAccepted"},
                                        {"message", "the initial names have been accepted"}};
    return {{"acceptedNames", names.is_object() ? names : nlohmann::json::object()},
            {"conditions", {accepted, established}},
            {"storedVersions", stored}};
}
} // namespace

bool CustomResourceDefinitionStrategy::generationChanged(const model::Object &object, const model::Object &old) const
{
    return model::member(object.json(), "spec") != model::member(old.json(), "spec");
}

void CustomResourceDefinitionStrategy::prepareForCreate(model::Object &object) const
{
    nlohmann::json &json = object.mutableJson();
    defaultNames(json);
    json["status"] = acceptedStatus(json);
}

void CustomResourceDefinitionStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    nlohmann::json &json = object.mutableJson();
    defaultNames(json);
    json["status"] = acceptedStatus(json);
    (void)old;
}

std::vector<model::StatusCause> CustomResourceDefinitionStrategy::validate(const model::Object &object) const
{
    std::vector<model::StatusCause> causes = Strategy::validate(object);
    const nlohmann::json &json = object.json();
    const std::string group = stringOr(memberAt(json, "spec", "group"));
    const std::string plural = stringOr(memberAt(json, "spec", "names", "plural"));
    const std::string kind = stringOr(memberAt(json, "spec", "names", "kind"));
    if (group.empty())
        causes.push_back(requiredField("spec.group"));
    else if (group.find('.') == std::string::npos)
        causes.push_back(invalidField("spec.group", group, "should be a domain with at least one dot"));
    if (plural.empty())
        causes.push_back(requiredField("spec.names.plural"));
    if (kind.empty())
        causes.push_back(requiredField("spec.names.kind"));
    if (!group.empty() && !plural.empty() && object.name() != plural + '.' + group)
        causes.push_back(invalidField("metadata.name", object.name(), "must be spec.names.plural+\".\"+spec.group"));
    const std::string scope = stringOr(memberAt(json, "spec", "scope"));
    if (scope != "Namespaced" && scope != "Cluster")
        causes.push_back({"FieldValueNotSupported",
                          "Unsupported value: \"" + scope + "\": supported values: \"Cluster\", \"Namespaced\"",
                          "spec.scope"});
    const nlohmann::json &versions = memberAt(json, "spec", "versions");
    if (!versions.is_array() || versions.empty()) {
        causes.push_back(requiredField("spec.versions", "must have exactly one version marked as storage version"));
        return causes;
    }
    int storageVersions = 0;
    for (std::size_t i = 0; i < versions.size(); ++i) {
        const nlohmann::json &version = versions[i];
        if (stringOr(model::member(version, "name")).empty())
            causes.push_back(requiredField("spec.versions[" + std::to_string(i) + "].name"));
        else if (model::member(version, "storage") == true)
            ++storageVersions;
    }
    if (storageVersions != 1)
        causes.push_back(invalidFieldJson("spec.versions", versions, "must have exactly one version marked as storage version"));
    return causes;
}

std::vector<model::StatusCause> CustomResourceDefinitionStrategy::validateUpdate(const model::Object &object,
                                                                                const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    const std::string scope = stringOr(memberAt(object.json(), "spec", "scope"));
    if (scope != stringOr(memberAt(old.json(), "spec", "scope")))
        causes.push_back(invalidField("spec.scope", scope, "field is immutable"));
    return causes;
}

} // namespace rvscope::registry
