// SPDX-License-Identifier: MIT
#include "registry/CustomResources.h"

#include "model/JsonAccess.h"
#include "registry/strategies/CustomResourceStrategy.h"

namespace rvscope::registry {
namespace {
std::vector<std::string> strings(const nlohmann::json &list)
{
    std::vector<std::string> result;
    if (list.is_array()) {
        for (const auto &value : list) {
            if (value.is_string())
                result.push_back(value.get<std::string>());
        }
    }
    return result;
}

// The "None" conversion strategy: only apiVersion differs between versions.
void sameShape(nlohmann::json &)
{
}
} // namespace

std::vector<std::shared_ptr<ResourceType>> customResourceTypes(const model::Object &crd)
{
    using model::member;
    using model::memberAt;
    using model::stringOr;
    std::vector<std::shared_ptr<ResourceType>> types;
    const nlohmann::json &spec = member(crd.json(), "spec");
    const nlohmann::json &names = member(spec, "names");
    const std::string group = stringOr(member(spec, "group"));
    const std::string plural = stringOr(member(names, "plural"));
    const std::string kind = stringOr(member(names, "kind"));
    if (group.empty() || plural.empty() || kind.empty())
        return types;
    const bool namespaced = stringOr(member(spec, "scope")) != "Cluster";
    const nlohmann::json &versions = member(spec, "versions");
    if (!versions.is_array())
        return types;
    // Objects are stored in the storage version and served in the version asked for, as the
    // apiextensions-apiserver does with conversion strategy None.
    std::shared_ptr<const VersionConversion> toStorageVersion;
    std::string storageVersion;
    for (const nlohmann::json &version : versions) {
        if (member(version, "storage") == true)
            storageVersion = stringOr(member(version, "name"));
    }
    if (!storageVersion.empty())
        toStorageVersion = std::make_shared<const VersionConversion>(
            VersionConversion{group + '/' + storageVersion, sameShape, sameShape});
    for (const nlohmann::json &version : versions) {
        const std::string name = stringOr(member(version, "name"));
        if (name.empty() || member(version, "served") == false)
            continue;
        auto type = std::make_shared<ResourceType>();
        type->gvr = {group, name, plural};
        type->kind = kind;
        type->listKind = stringOr(member(names, "listKind"), kind + "List");
        type->singularName = stringOr(member(names, "singular"));
        type->shortNames = strings(member(names, "shortNames"));
        type->categories = strings(member(names, "categories"));
        type->storagePrefix = "/registry/" + group + '/' + plural;
        type->custom = true;
        if (name != storageVersion)
            type->conversion = toStorageVersion;
        type->openApiSchema = memberAt(version, "schema", "openAPIV3Schema");
        // spec.preserveUnknownFields (a legacy CRD) prunes nothing; neither does a schema
        // rvscope cannot read (it does not validate CRD schemas as upstream does).
        if (member(spec, "preserveUnknownFields") != true) {
            try {
                type->customFields = KnownFields::fromOpenApi(type->openApiSchema);
            } catch (const nlohmann::json::exception &) {
                type->customFields = nullptr;
            }
        }
        type->printerColumns = member(version, "additionalPrinterColumns");
        type->hasStatus = memberAt(version, "subresources", "status").is_object();
        type->strategy = std::make_shared<CustomResourceStrategy>(namespaced, type->hasStatus);
        if (type->hasStatus)
            type->statusStrategy = std::make_shared<CustomResourceStrategy>(
                namespaced, true, CustomResourceStrategy::Endpoint::Status);
        types.push_back(std::move(type));
    }
    return types;
}

} // namespace rvscope::registry
