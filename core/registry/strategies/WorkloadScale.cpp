// SPDX-License-Identifier: MIT
#include "registry/strategies/WorkloadScale.h"

#include "model/JsonAccess.h"
#include "model/StatusErrors.h"
#include "registry/selection/LabelSelector.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {

model::Result<model::Object> scaleOf(const model::Object &workload)
{
    const nlohmann::json &json = workload.json();
    const nlohmann::json &selectorJson = model::memberAt(json, "spec", "selector");
    // A ReplicationController's selector is a plain label map.
    auto selector = workload.kind() == "ReplicationController"
        ? LabelSelector::fromJson(nlohmann::json{{"matchLabels", selectorJson}})
        : LabelSelector::fromJson(selectorJson);
    if (!selector)
        return model::errors::badRequest(selector.error().message);

    nlohmann::json metadata = nlohmann::json::object();
    metadata["name"] = workload.name();
    if (!workload.namespaceName().empty())
        metadata["namespace"] = workload.namespaceName();
    if (!workload.uid().empty())
        metadata["uid"] = workload.uid();
    if (!workload.resourceVersion().empty())
        metadata["resourceVersion"] = workload.resourceVersion();
    // A zero metav1.Time still encodes, as null.
    metadata["creationTimestamp"] = workload.creationTimestamp().empty()
        ? nlohmann::json()
        : nlohmann::json(workload.creationTimestamp());

    nlohmann::json spec = nlohmann::json::object();
    const std::int64_t replicas = jsonedit::integer(model::memberAt(json, "spec", "replicas")).value_or(0);
    if (replicas != 0)
        spec["replicas"] = replicas;
    nlohmann::json status = {
        {"replicas", jsonedit::integer(model::memberAt(json, "status", "replicas")).value_or(0)}};
    if (const std::string text = selector->toString(); !text.empty())
        status["selector"] = text;

    return model::Object(nlohmann::json{{"kind", "Scale"},
                                        {"apiVersion", "autoscaling/v1"},
                                        {"metadata", std::move(metadata)},
                                        {"spec", std::move(spec)},
                                        {"status", std::move(status)}});
}

model::Result<model::Object> applyScale(const model::Object &scale, model::Object workload)
{
    const nlohmann::json &replicasValue = model::memberAt(scale.json(), "spec", "replicas");
    std::vector<model::StatusCause> causes;
    const auto replicas = jsonedit::integer(replicasValue);
    if (!replicasValue.is_null() && !replicas)
        causes.push_back(typeInvalidField("spec.replicas", replicasValue, "an integer"));
    else if (replicas.value_or(0) < 0)
        causes.push_back(invalidFieldInt("spec.replicas", *replicas, "must be greater than or equal to 0"));
    if (!causes.empty())
        return model::errors::invalid("Scale.autoscaling", scale.name(), std::move(causes), "Scale", "autoscaling");

    nlohmann::json *spec = jsonedit::childObject(workload.mutableJson(), "spec");
    if (!spec)
        return model::errors::badRequest("the workload's spec is not an object");
    (*spec)["replicas"] = replicas.value_or(0);
    workload.setResourceVersion(scale.resourceVersion());
    return workload;
}

} // namespace rvscope::registry
