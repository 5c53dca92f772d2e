// SPDX-License-Identifier: MIT
#pragma once

#include "registry/strategies/NodeStrategy.h"

namespace rvscope::registry {

// nodes/status (upstream nodeStatusStrategy): an update keeps the stored spec; validation is
// the metadata update rules. Scope and field selectors are the node's.
class NodeStatusStrategy final : public Strategy {
public:
    bool namespaced() const override { return false; }
    void prepareForUpdate(model::Object &object, const model::Object &old) const override;
    std::vector<model::StatusCause> validateUpdate(const model::Object &object,
                                                   const model::Object &old) const override;
    std::map<std::string, std::string> selectableFields(const model::Object &object) const override
    {
        return m_node.selectableFields(object);
    }
    std::vector<std::string> extraFieldLabels() const override { return m_node.extraFieldLabels(); }

private:
    NodeStrategy m_node;
};

} // namespace rvscope::registry
