// SPDX-License-Identifier: MIT
#include "registry/strategies/PersistentVolumeClaimStrategy.h"

#include <algorithm>

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/Quantity.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
using Causes = std::vector<model::StatusCause>;
using model::member;
using model::memberAt;

const std::vector<std::string> ACCESS_MODES = {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"};

Causes validateClaimSpec(const nlohmann::json &spec)
{
    Causes causes;
    const nlohmann::json &modes = member(spec, "accessModes");
    if (!modes.is_null() && !modes.is_array()) {
        causes.push_back(typeInvalidField("spec.accessModes", modes, "an array"));
    } else if (modes.empty()) {
        causes.push_back(requiredField("spec.accessModes", "at least 1 access mode is required"));
    } else {
        bool readWriteOncePod = false;
        for (const nlohmann::json &mode : modes) {
            const std::string text = model::stringOr(mode);
            readWriteOncePod = readWriteOncePod || text == "ReadWriteOncePod";
            if (std::find(ACCESS_MODES.begin(), ACCESS_MODES.end(), text) == ACCESS_MODES.end())
                causes.push_back(notSupportedField("spec.accessModes", goScalar(mode), ACCESS_MODES));
        }
        if (readWriteOncePod && modes.size() > 1)
            causes.push_back(forbiddenField("spec.accessModes", "may not use ReadWriteOncePod with other access modes"));
    }
    // Upstream names the path with Key() on resources, not on requests.
    const std::string storagePath = "spec.resources[storage]";
    const nlohmann::json &storage = memberAt(spec, "resources", "requests", "storage");
    if (storage.is_null()) {
        causes.push_back(requiredField(storagePath));
    } else if (const auto size = quantityOf(storage); !size) {
        causes.push_back(invalidFieldGo(storagePath, goScalar(storage), QUANTITY_FORMAT_DETAIL));
    } else if (*size <= 0) {
        causes.push_back(invalidFieldGo(storagePath, goQuote(model::stringOr(storage, goScalar(storage))),
                                        "must be greater than zero"));
    }
    const std::string volumeMode = model::stringOr(member(spec, "volumeMode"));
    if (!volumeMode.empty() && volumeMode != "Block" && volumeMode != "Filesystem")
        causes.push_back(notSupportedField("spec.volumeMode", goQuote(volumeMode), {"Block", "Filesystem"}));
    return causes;
}
} // namespace

void PersistentVolumeClaimStrategy::applyDefaults(model::Object &object)
{
    if (nlohmann::json *spec = jsonedit::childObject(object.mutableJson(), "spec"))
        jsonedit::setDefaultString(*spec, "volumeMode", "Filesystem");
}

void PersistentVolumeClaimStrategy::prepareForCreate(model::Object &object) const
{
    applyDefaults(object);
    object.mutableJson()["status"] = {{"phase", "Pending"}};
}

void PersistentVolumeClaimStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    applyDefaults(object);
    keepField(object, old, "status");
}

std::vector<model::StatusCause> PersistentVolumeClaimStrategy::validate(const model::Object &object) const
{
    Causes causes = Strategy::validate(object);
    appendUnique(causes, validateClaimSpec(member(object.json(), "spec")));
    return causes;
}

std::vector<model::StatusCause> PersistentVolumeClaimStrategy::validateUpdate(const model::Object &object,
                                                                              const model::Object &old) const
{
    Causes causes = Strategy::validateUpdate(object, old);
    const nlohmann::json &oldSpec = member(old.json(), "spec");
    nlohmann::json newClone = member(object.json(), "spec");
    nlohmann::json oldClone = oldSpec;
    if (!newClone.is_object() || !oldClone.is_object())
        return causes;
    // The binder sets volumeName once.
    if (model::stringOr(member(oldSpec, "volumeName")).empty()) {
        oldClone.erase("volumeName");
        if (const nlohmann::json &volumeName = member(newClone, "volumeName"); !volumeName.is_null())
            oldClone["volumeName"] = volumeName;
    }
    const bool bound = model::stringOr(memberAt(object.json(), "status", "phase")) == "Bound";
    const nlohmann::json &oldStorage = memberAt(oldSpec, "resources", "requests", "storage");
    if (bound && member(member(newClone, "resources"), "requests").is_object()) {
        nlohmann::json &requests = newClone["resources"]["requests"];
        requests.erase("storage");
        if (!oldStorage.is_null())
            requests["storage"] = oldStorage;
    }
    if (!jsonedit::semanticEqual(newClone, oldClone)) {
        causes.push_back(forbiddenField("spec", "spec is immutable after creation except resources.requests for bound "
                                                "claims\n" + goStructDiff("core.PersistentVolumeClaimSpec", oldClone, newClone)));
    }
    const auto oldSize = quantityOf(oldStorage);
    const auto newSize = quantityOf(memberAt(object.json(), "spec", "resources", "requests", "storage"));
    if (oldSize && newSize && *newSize < *oldSize)
        causes.push_back(forbiddenField("spec.resources.requests.storage", "field can not be less than previous value"));
    return causes;
}

std::map<std::string, std::string> PersistentVolumeClaimStrategy::selectableFields(const model::Object &object) const
{
    std::map<std::string, std::string> fields = Strategy::selectableFields(object);
    fields["name"] = object.name(); // "a bug, but we need to support it for backward compatibility"
    return fields;
}

} // namespace rvscope::registry
