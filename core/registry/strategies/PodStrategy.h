// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 Pod (pkg/registry/core/pod/strategy.go): namespaced, no generation (1.32), DELETE
// answers with the deleted object. Create applies the decoding defaults (PodSpecDefaults.h)
// and replaces any client status with {"phase":"Pending","qosClass":<computed>}; update
// applies the defaults again and keeps the stored status. Validation: metadata, then the pod
// spec (containers required and named, unique names, images, policies), and on update the
// pod spec immutability rules (PodSpecValidation.h). Field selectors: spec.nodeName,
// spec.restartPolicy, spec.schedulerName, spec.serviceAccountName, spec.hostNetwork
// ("true"/"false"), status.phase, status.podIP, status.nominatedNodeName ("" when absent).
class PodStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    bool returnDeletedObject() const override { return true; }
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override;

    // SetDefaults_Pod with everything under it, as decoding a v1 Pod applies them.
    static void applyDefaults(model::Object &object);
};

} // namespace rvscope::registry
