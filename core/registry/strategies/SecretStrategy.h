// SPDX-License-Identifier: MIT
#pragma once

#include "registry/Strategy.h"

namespace rvscope::registry {

// core/v1 Secret (pkg/registry/core/secret/strategy.go): namespaced, no status, no generation.
// Decoding (create and update alike) defaults `type` to Opaque and folds the write-only
// `stringData` into `data` as base64, a stringData key winning over the same data key.
// Validation: metadata; data keys are config keys and values base64
// (`data[k]: Invalid value: "<secret contents redacted>": illegal base64 data at input byte N`);
// at most 1 MiB decoded; the keys each well-known type requires (tls.crt/tls.key, ...). On
// update `type` is immutable, and a secret stored with `immutable: true` keeps its data
// (`data: Forbidden: field is immutable when `immutable` is set`). Field selector: type.
class SecretStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    void prepareForCreate(model::Object &object) const override;
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validate(const model::Object &object) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override { return {"type"}; }

    // What decoding a v1 Secret does: the type default and the stringData merge.
    static void applyDefaults(model::Object &object);
};

} // namespace rvscope::registry
