// SPDX-License-Identifier: MIT
#include "registry/strategies/DeploymentStatusStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {

void DeploymentStatusStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    keepField(object, old, "spec");
    if (nlohmann::json *meta = jsonedit::childObject(object.mutableJson(), "metadata")) {
        meta->erase("labels");
        if (const nlohmann::json &labels = model::memberAt(old.json(), "metadata", "labels"); !labels.is_null())
            (*meta)["labels"] = labels;
    }
}

std::vector<model::StatusCause> DeploymentStatusStrategy::validateUpdate(const model::Object &object,
                                                                         const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    const nlohmann::json &status = model::member(object.json(), "status");
    const auto count = [&](const char *field) {
        return jsonedit::integer(model::member(status, field)).value_or(0);
    };
    for (const char *field : {"observedGeneration", "replicas", "updatedReplicas", "readyReplicas",
                              "availableReplicas", "unavailableReplicas", "collisionCount"})
        checkNonNegative(model::member(status, field), std::string("status.") + field, causes);
    const char *const aboveReplicas = "cannot be greater than status.replicas";
    for (const char *field : {"updatedReplicas", "readyReplicas", "availableReplicas"}) {
        if (count(field) > count("replicas"))
            causes.push_back(invalidFieldInt(std::string("status.") + field, count(field), aboveReplicas));
    }
    if (count("availableReplicas") > count("readyReplicas"))
        causes.push_back(invalidFieldInt("status.availableReplicas", count("availableReplicas"),
                                         "cannot be greater than readyReplicas"));
    const auto oldCollisions = jsonedit::integer(model::memberAt(old.json(), "status", "collisionCount"));
    if (oldCollisions && count("collisionCount") < *oldCollisions)
        causes.push_back(invalidFieldInt("status.collisionCount", count("collisionCount"), "cannot be decremented"));
    return causes;
}

} // namespace rvscope::registry
