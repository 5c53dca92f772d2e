// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 PersistentVolumeClaim (pkg/registry/core/persistentvolumeclaim/strategy.go):
// namespaced, no generation. Create replaces any client status with {"phase":"Pending"};
// decoding defaults spec.volumeMode to Filesystem; update keeps the stored status.
// Validation: spec.accessModes (`Required value: at least 1 access mode is required`,
// supported modes, ReadWriteOncePod alone) and `spec.resources[storage]` (required, a
// positive quantity). On update the spec is immutable except that spec.volumeName may be set
// once and, for a Bound claim, resources.requests.storage may grow
// (`spec: Forbidden: spec is immutable after creation except resources.requests for bound
// claims`, `spec.resources.requests.storage: Forbidden: field can not be less than previous
// value`). Field selector: the legacy `name` besides metadata.*.
class PersistentVolumeClaimStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override { return {"name"}; }

    static void applyDefaults(model::Object &object);
};

} // namespace rvscope::registry
