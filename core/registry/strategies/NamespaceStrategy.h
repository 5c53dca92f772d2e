// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 Namespace: cluster-scoped, DNS-1123 label names, status.phase Active, the
// spec.finalizers ["kubernetes"] and the kubernetes.io/metadata.name label upstream adds.
// Updates cannot change status or spec.finalizers (their subresources do that).
class NamespaceStrategy final : public Strategy {
public:
    bool namespaced() const override { return false; }
    NameRule nameRule() const override { return NameRule::Dns1123Label; }
    bool allowDeleteCollection() const override { return false; }
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
};

} // namespace rvscope::registry
