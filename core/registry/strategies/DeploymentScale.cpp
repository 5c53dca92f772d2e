// SPDX-License-Identifier: MIT
#include "registry/strategies/DeploymentScale.h"

#include "model/JsonAccess.h"
#include "model/StatusErrors.h"
#include "registry/selection/LabelSelector.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {

model::Result<model::Object> scaleFromDeployment(const model::Object &deployment)
{
    const nlohmann::json &json = deployment.json();
    const nlohmann::json &selectorJson = model::memberAt(json, "spec", "selector");
    // A ReplicationController's selector is a plain label map.
    auto selector = deployment.kind() == "ReplicationController"
        ? LabelSelector::fromJson(nlohmann::json{{"matchLabels", selectorJson}})
        : LabelSelector::fromJson(selectorJson);
    if (!selector)
        return model::errors::badRequest(selector.error().message);

    nlohmann::json metadata = nlohmann::json::object();
    metadata["name"] = deployment.name();
    if (!deployment.namespaceName().empty())
        metadata["namespace"] = deployment.namespaceName();
    if (!deployment.uid().empty())
        metadata["uid"] = deployment.uid();
    if (!deployment.resourceVersion().empty())
        metadata["resourceVersion"] = deployment.resourceVersion();
    // A zero metav1.Time still encodes, as null.
    metadata["creationTimestamp"] = deployment.creationTimestamp().empty()
        ? nlohmann::json()
        : nlohmann::json(deployment.creationTimestamp());

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

model::Result<model::Object> applyScaleToDeployment(const model::Object &scale, model::Object deployment)
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

    nlohmann::json *spec = jsonedit::childObject(deployment.mutableJson(), "spec");
    if (!spec)
        return model::errors::badRequest("the deployment's spec is not an object");
    (*spec)["replicas"] = replicas.value_or(0);
    deployment.setResourceVersion(scale.resourceVersion());
    return deployment;
}

} // namespace rvscope::registry
