// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// apps/v1 Deployment (pkg/registry/apps/deployment/strategy.go): namespaced, with a
// generation bumped when spec or metadata.annotations change. Create clears status to {}.
// Create and update apply the v1 defaults: replicas 1, strategy RollingUpdate with
// maxUnavailable/maxSurge "25%", revisionHistoryLimit 10, progressDeadlineSeconds 600, and the
// pod spec defaults on spec.template.spec; update keeps the stored status.
// Validation (ValidateDeploymentSpec): replicas >= 0; spec.selector required and not empty;
// the template labels must match it (`spec.template.metadata.labels: Invalid value:
// map[string]string{...}: `selector` does not match template `labels``); the template's pod
// spec as for pods under spec.template.spec, restartPolicy Always only; the rollout strategy;
// on update spec.selector is immutable (`spec.selector: Invalid value: v1.LabelSelector{...}:
// field is immutable`).
class DeploymentStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    bool hasGeneration() const override { return true; }
    bool generationChanged(const model::Object &object, const model::Object &old) const override;
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;

    // SetDefaults_Deployment and the pod template defaults, as decoding an apps/v1
    // Deployment applies them.
    static void applyDefaults(model::Object &object);
};

} // namespace rvscope::registry
