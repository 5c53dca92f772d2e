// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 ConfigMap: namespaced, no status, no generation; data/binaryData keys must be
// valid config keys and may not repeat across the two maps; `immutable: true` freezes data.
class ConfigMapStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
};

} // namespace rvscope::registry
