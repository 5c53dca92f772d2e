// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 Node (pkg/registry/core/node/strategy.go): cluster-scoped, no generation. Nodes may
// set their whole status on create (a kubelet registers that way); an update keeps the
// stored status. Decoding mirrors spec.podCIDR into spec.podCIDRs and defaults
// status.allocatable to status.capacity. Validation: metadata and spec.taints (key a
// qualified name, effect NoSchedule/PreferNoSchedule/NoExecute); on update podCIDRs and
// providerID may only go from unset to set
// (`spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid`).
// Field selector: spec.unschedulable ("true"/"false").
class NodeStrategy final : public Strategy {
public:
    bool namespaced() const override { return false; }
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override { return {"spec.unschedulable"}; }

    static void applyDefaults(model::Object &object);
    // ValidateNodeUpdate's spec rules, shared with nodes/status.
    static std::vector<model::StatusCause> validateSpecUpdate(const model::Object &object, const model::Object &old);
};

} // namespace rvscope::registry
