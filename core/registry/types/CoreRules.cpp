// SPDX-License-Identifier: MIT
// core/v1 ServiceAccount, Endpoints, PersistentVolume, LimitRange and ResourceQuota, and
// discovery.k8s.io/v1 EndpointSlice (pkg/apis/core/v1/defaults.go, pkg/apis/core/validation,
// pkg/apis/discovery/validation).
#include "registry/types/BuiltinRules.h"

#include <algorithm>

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry::rules {
namespace {
using model::member;
using model::memberAt;

void persistentVolumeDefaults(nlohmann::json &object)
{
    if (nlohmann::json *spec = jsonedit::existingObject(object, "spec")) {
        jsonedit::setDefaultString(*spec, "persistentVolumeReclaimPolicy", "Retain");
        jsonedit::setDefaultString(*spec, "volumeMode", "Filesystem");
    }
}

// PersistentVolume's PrepareForCreate: a new volume is Pending until the controller binds it.
void persistentVolumePrepareCreate(nlohmann::json &object)
{
    persistentVolumeDefaults(object);
    object["status"] = {{"phase", "Pending"}};
}

void validatePersistentVolume(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    if (member(spec, "capacity").empty())
        causes.push_back(requiredField("spec.capacity"));
    else if (member(member(spec, "capacity"), "storage").is_null())
        causes.push_back(requiredField("spec.capacity.storage"));
    if (member(spec, "accessModes").empty())
        causes.push_back(requiredField("spec.accessModes"));
    const std::string policy = model::stringOr(member(spec, "persistentVolumeReclaimPolicy"));
    if (!policy.empty() && policy != "Retain" && policy != "Recycle" && policy != "Delete")
        causes.push_back(notSupportedField("spec.persistentVolumeReclaimPolicy", goQuote(policy),
                                           {"Delete", "Recycle", "Retain"}));
}

void validateLimitRange(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &limits = memberAt(object, "spec", "limits");
    if (!limits.is_array())
        return;
    for (std::size_t i = 0; i < limits.size(); ++i) {
        const std::string type = model::stringOr(member(limits[i], "type"));
        if (type.empty())
            causes.push_back(requiredField("spec.limits[" + std::to_string(i) + "].type"));
    }
}

void validateResourceQuota(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &scopes = memberAt(object, "spec", "scopes");
    static const std::vector<std::string> SCOPES = {"BestEffort", "CrossNamespacePodAffinity", "NotBestEffort",
                                                    "NotTerminating", "PriorityClass", "Terminating"};
    if (!scopes.is_array())
        return;
    for (std::size_t i = 0; i < scopes.size(); ++i) {
        const std::string scope = model::stringOr(scopes[i]);
        if (std::find(SCOPES.begin(), SCOPES.end(), scope) == SCOPES.end())
            causes.push_back(notSupportedField("spec.scopes[" + std::to_string(i) + ']', goQuote(scope), SCOPES));
    }
}

void validateEndpointSlice(const nlohmann::json &object, Causes &causes)
{
    const std::string type = model::stringOr(member(object, "addressType"));
    if (type.empty())
        causes.push_back(requiredField("addressType"));
    else if (type != "IPv4" && type != "IPv6" && type != "FQDN")
        causes.push_back(notSupportedField("addressType", goQuote(type), {"FQDN", "IPv4", "IPv6"}));
    const nlohmann::json &endpoints = member(object, "endpoints");
    if (!endpoints.is_array())
        return;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        if (member(endpoints[i], "addresses").empty())
            causes.push_back(requiredField("endpoints[" + std::to_string(i) + "].addresses", "must contain at least 1 address"));
    }
}

// addressType never changes.
void validateEndpointSliceUpdate(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    if (!jsonedit::semanticEqual(member(object, "addressType"), member(old, "addressType")))
        causes.push_back(invalidField("addressType", model::stringOr(member(object, "addressType")), "field is immutable"));
}
} // namespace

TypeRules serviceAccount()
{
    return {};
}

TypeRules endpoints()
{
    return {.createOnUpdate = true};
}

TypeRules persistentVolume()
{
    return {.namespaced = false, .statusSplit = true, .prepareCreate = persistentVolumePrepareCreate,
            .defaults = persistentVolumeDefaults, .validate = validatePersistentVolume};
}

TypeRules limitRange()
{
    return {.createOnUpdate = true, .validate = validateLimitRange};
}

TypeRules resourceQuota()
{
    return {.statusSplit = true, .validate = validateResourceQuota};
}

TypeRules endpointSlice()
{
    return {.generation = TypeRules::Generation::Spec, .validate = validateEndpointSlice,
            .validateUpdate = validateEndpointSliceUpdate};
}

} // namespace rvscope::registry::rules
