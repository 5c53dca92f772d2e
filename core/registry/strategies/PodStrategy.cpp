// SPDX-License-Identifier: MIT
#include "registry/strategies/PodStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/PodSpecDefaults.h"
#include "registry/strategies/PodSpecValidation.h"
#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {

void PodStrategy::applyDefaults(model::Object &object)
{
    if (nlohmann::json *spec = jsonedit::childObject(object.mutableJson(), "spec")) {
        podspec::applyPodSpecDefaults(*spec);
        podspec::applyPodDefaults(*spec);
    }
}

void PodStrategy::prepareForCreate(model::Object &object) const
{
    applyDefaults(object);
    nlohmann::json &json = object.mutableJson();
    json["status"] = {{"phase", "Pending"}, {"qosClass", podspec::qosClass(model::member(json, "spec"))}};
}

void PodStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    applyDefaults(object);
    keepField(object, old, "status");
}

std::vector<model::StatusCause> PodStrategy::validate(const model::Object &object) const
{
    std::vector<model::StatusCause> causes = Strategy::validate(object);
    appendUnique(causes, podspec::validatePodSpec(model::member(object.json(), "spec"), "spec"));
    return causes;
}

std::vector<model::StatusCause> PodStrategy::validateUpdate(const model::Object &object,
                                                            const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    appendUnique(causes, podspec::validatePodSpecUpdate(model::member(object.json(), "spec"),
                                                        model::member(old.json(), "spec")));
    return causes;
}

std::map<std::string, std::string> PodStrategy::selectableFields(const model::Object &object) const
{
    std::map<std::string, std::string> fields = Strategy::selectableFields(object);
    const nlohmann::json &spec = model::member(object.json(), "spec");
    const nlohmann::json &status = model::member(object.json(), "status");
    for (const char *field : {"nodeName", "restartPolicy", "schedulerName", "serviceAccountName"})
        fields[std::string("spec.") + field] = model::stringOr(model::member(spec, field));
    fields["spec.hostNetwork"] = model::member(spec, "hostNetwork") == true ? "true" : "false";
    fields["status.phase"] = model::stringOr(model::member(status, "phase"));
    // Upstream reads podIPs[0]; the v1 conversion keeps status.podIP equal to it.
    const nlohmann::json &podIPs = model::member(status, "podIPs");
    fields["status.podIP"] = podIPs.is_array() && !podIPs.empty()
        ? model::stringOr(model::member(podIPs[0], "ip"))
        : model::stringOr(model::member(status, "podIP"));
    fields["status.nominatedNodeName"] = model::stringOr(model::member(status, "nominatedNodeName"));
    return fields;
}

std::vector<std::string> PodStrategy::extraFieldLabels() const
{
    return {"spec.nodeName",   "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
            "spec.hostNetwork", "status.phase",      "status.podIP",       "status.nominatedNodeName"};
}

} // namespace rvscope::registry
