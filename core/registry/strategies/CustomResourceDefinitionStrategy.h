// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// apiextensions.k8s.io/v1 CustomResourceDefinition: cluster-scoped, named
// <plural>.<group>, with exactly one storage version among served versions. Its status
// reports the names as accepted and the definition as Established straight away: the
// registry serves the new type as soon as the CRD is committed.
class CustomResourceDefinitionStrategy final : public Strategy {
public:
    bool kubeFinalizerNames() const override { return false; }
    bool namespaced() const override { return false; }
    bool hasGeneration() const override { return true; }
    bool generationChanged(const model::Object &object, const model::Object &old) const override;
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
};

} // namespace rvscope::registry
