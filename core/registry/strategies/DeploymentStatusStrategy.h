// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// deployments/status (upstream deploymentStatusStrategy): an update keeps the stored spec and
// metadata.labels (annotations may change here, as upstream allows) and never bumps the
// generation. Validation: metadata, then ValidateDeploymentStatus: every count
// non-negative, updated/ready/available replicas not above status.replicas, available not
// above ready, collisionCount never decremented.
class DeploymentStatusStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    bool hasGeneration() const override { return true; }
    bool generationChanged(const model::Object &, const model::Object &) const override { return false; }
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
};

} // namespace rvscope::registry
