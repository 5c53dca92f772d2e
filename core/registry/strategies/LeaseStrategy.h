// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// coordination.k8s.io/v1 Lease (pkg/registry/coordination/lease/strategy.go): namespaced, no
// status. As upstream, PUT may create a lease, and a PUT without metadata.resourceVersion is
// refused (422 "must be specified for an update"): leader election depends on the lock.
// Validation: spec.leaseDurationSeconds > 0 and spec.leaseTransitions >= 0 when set
// (`spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0`).
class LeaseStrategy final : public Strategy {
public:
    bool kubeFinalizerNames() const override { return false; } // apimachinery's ValidateObjectMeta
    bool namespaced() const override { return true; }
    bool allowCreateOnUpdate() const override { return true; }
    bool allowUnconditionalUpdate() const override { return false; }
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
};

} // namespace rvscope::registry
