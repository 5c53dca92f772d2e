// SPDX-License-Identifier: MIT
#include "registry/strategies/NodeStatusStrategy.h"

#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {

void NodeStatusStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    NodeStrategy::applyDefaults(object);
    keepField(object, old, "spec");
}

std::vector<model::StatusCause> NodeStatusStrategy::validateUpdate(const model::Object &object,
                                                                   const model::Object &old) const
{
    std::vector<model::StatusCause> causes = Strategy::validateUpdate(object, old);
    appendUnique(causes, NodeStrategy::validateSpecUpdate(object, old));
    return causes;
}

} // namespace rvscope::registry
