// SPDX-License-Identifier: MIT
#pragma once

#include "registry/strategies/PersistentVolumeClaimStrategy.h"

namespace rvscope::registry {

// persistentvolumeclaims/status: an update keeps the stored spec; validation is the metadata
// update rules. Scope and field selectors are the claim's.
class PersistentVolumeClaimStatusStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    void prepareForUpdate(model::Object &object, const model::Object &old) const override { keepField(object, old, "spec"); }
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override
    {
        return m_claim.selectableFields(object);
    }
    std::vector<std::string> extraFieldLabels() const override { return m_claim.extraFieldLabels(); }

private:
    PersistentVolumeClaimStrategy m_claim;
};

} // namespace rvscope::registry
