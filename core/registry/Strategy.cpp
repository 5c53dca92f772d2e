// SPDX-License-Identifier: MIT
#include "registry/Strategy.h"

#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"
#include "registry/validation/ObjectMetaValidation.h"

namespace rvscope::registry {
namespace {
ValidateNameFunc nameFunction(Strategy::NameRule rule)
{
    switch (rule) {
    case Strategy::NameRule::Dns1123Label: return nameIsDnsLabel;
    case Strategy::NameRule::Dns1035Label: return nameIsDns1035Label;
    case Strategy::NameRule::PathSegment: return nameIsPathSegment;
    case Strategy::NameRule::Dns1123Subdomain: break;
    }
    return nameIsDnsSubdomain;
}

nlohmann::json withoutMetadataAndStatus(const nlohmann::json &json)
{
    nlohmann::json copy = json;
    if (copy.is_object()) {
        copy.erase("metadata");
        copy.erase("status");
    }
    return copy;
}
} // namespace

void Strategy::prepareForCreate(model::Object &) const
{
}

void Strategy::prepareForUpdate(model::Object &, const model::Object &) const
{
}

bool Strategy::generationChanged(const model::Object &object, const model::Object &old) const
{
    return withoutMetadataAndStatus(object.json()) != withoutMetadataAndStatus(old.json());
}

std::vector<model::StatusCause> Strategy::validate(const model::Object &object) const
{
    return validateObjectMeta(object, namespaced(), nameFunction(nameRule()), kubeFinalizerNames());
}

std::vector<model::StatusCause> Strategy::validateUpdate(const model::Object &object, const model::Object &old) const
{
    std::vector<model::StatusCause> causes = validate(object);
    // ValidateObjectMetaUpdate: identity never changes.
    if (metadataText(object, "uid") != metadataText(old, "uid"))
        causes.push_back(invalidField("metadata.uid", object.uid(), "field is immutable"));
    if (metadataText(object, "namespace") != metadataText(old, "namespace"))
        causes.push_back(invalidField("metadata.namespace", object.namespaceName(), "field is immutable"));
    return causes;
}

std::map<std::string, std::string> Strategy::selectableFields(const model::Object &object) const
{
    return {{"metadata.name", object.name()}, {"metadata.namespace", object.namespaceName()}};
}

void Strategy::keepField(model::Object &object, const model::Object &old, const char *field)
{
    const nlohmann::json &before = old.json();
    nlohmann::json &after = object.mutableJson();
    if (auto it = before.find(field); it != before.end())
        after[field] = *it;
    else
        after.erase(field);
}

} // namespace rvscope::registry
