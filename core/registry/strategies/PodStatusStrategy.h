// SPDX-License-Identifier: MIT
#pragma once

#include "registry/strategies/PodStrategy.h"

namespace rvscope::registry {

// pods/status (upstream podStatusStrategy): an update keeps the stored spec and
// metadata.ownerReferences (labels and annotations may change here, as upstream allows) and
// backfills an empty status.qosClass from the stored one. Validation: metadata, then
// status.nominatedNodeName (a DNS-1123 subdomain when it changes) and status.qosClass
// (immutable). Scope and field selectors are the pod's.
class PodStatusStrategy final : public Strategy {
public:
    bool namespaced() const override { return true; }
    bool returnDeletedObject() const override { return true; }
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override;
    std::vector<std::string> extraFieldLabels() const override { return m_pod.extraFieldLabels(); }

private:
    PodStrategy m_pod;
};

} // namespace rvscope::registry
