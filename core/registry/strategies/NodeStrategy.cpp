// SPDX-License-Identifier: MIT
#include "registry/strategies/NodeStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/NameValidation.h"

namespace rvscope::registry {
namespace {
using model::member;
using model::memberAt;

const char *const POD_CIDR_DETAIL = "node updates may not change podCIDR except from \"\" to valid";
const char *const PROVIDER_ID_DETAIL = "node updates may not change providerID except from \"\" to valid";
} // namespace

void NodeStrategy::applyDefaults(model::Object &object)
{
    nlohmann::json &json = object.mutableJson();
    if (nlohmann::json *spec = jsonedit::childObject(json, "spec")) {
        const std::string podCIDR = model::stringOr(member(*spec, "podCIDR"));
        if (!podCIDR.empty() && member(*spec, "podCIDRs").empty())
            (*spec)["podCIDRs"] = nlohmann::json::array({podCIDR});
    }
    auto status = json.find("status");
    if (status != json.end() && status->is_object()) {
        const nlohmann::json &capacity = member(*status, "capacity");
        if (capacity.is_object())
            jsonedit::setDefault(*status, "allocatable", capacity);
    }
}

void NodeStrategy::prepareForCreate(model::Object &object) const
{
    applyDefaults(object);
}

void NodeStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    applyDefaults(object);
    keepField(object, old, "status");
}

std::vector<model::StatusCause> NodeStrategy::validate(const model::Object &object) const
{
    std::vector<model::StatusCause> causes = Strategy::validate(object);
    const nlohmann::json &taints = memberAt(object.json(), "spec", "taints");
    if (!taints.is_null() && !taints.is_array()) {
        causes.push_back(typeInvalidField("spec.taints", taints, "an array"));
        return causes;
    }
    for (std::size_t i = 0; i < taints.size(); ++i) {
        const std::string path = "spec.taints[" + std::to_string(i) + ']';
        const std::string key = model::stringOr(member(taints[i], "key"));
        for (const std::string &error : isQualifiedName(key))
            causes.push_back(invalidField(path + ".key", key, error));
        const std::string effect = model::stringOr(member(taints[i], "effect"));
        if (effect.empty())
            causes.push_back(requiredField(path + ".effect"));
        else if (effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute")
            causes.push_back(notSupportedField(path + ".effect", goQuote(effect),
                                               {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
    }
    return causes;
}

std::vector<model::StatusCause> NodeStrategy::validateSpecUpdate(const model::Object &object, const model::Object &old)
{
    std::vector<model::StatusCause> causes;
    const nlohmann::json &oldCIDRs = memberAt(old.json(), "spec", "podCIDRs");
    const nlohmann::json &cidrs = memberAt(object.json(), "spec", "podCIDRs");
    if (oldCIDRs.is_array() && !oldCIDRs.empty()) {
        if (!cidrs.is_array() || cidrs.size() != oldCIDRs.size()) {
            causes.push_back(forbiddenField("spec.podCIDRs", POD_CIDR_DETAIL));
        } else {
            for (std::size_t i = 0; i < cidrs.size(); ++i) {
                if (cidrs[i] != oldCIDRs[i])
                    causes.push_back(forbiddenField("spec.podCIDRs", POD_CIDR_DETAIL));
            }
        }
    }
    const std::string oldProvider = model::stringOr(memberAt(old.json(), "spec", "providerID"));
    if (!oldProvider.empty() && oldProvider != model::stringOr(memberAt(object.json(), "spec", "providerID")))
        causes.push_back(forbiddenField("spec.providerID", PROVIDER_ID_DETAIL));
    return causes;
}

std::vector<model::StatusCause> NodeStrategy::validateUpdate(const model::Object &object, const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    appendUnique(causes, validateSpecUpdate(object, old));
    return causes;
}

std::map<std::string, std::string> NodeStrategy::selectableFields(const model::Object &object) const
{
    std::map<std::string, std::string> fields = Strategy::selectableFields(object);
    fields["spec.unschedulable"] = memberAt(object.json(), "spec", "unschedulable") == true ? "true" : "false";
    return fields;
}

} // namespace rvscope::registry
