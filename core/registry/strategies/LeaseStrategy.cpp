// SPDX-License-Identifier: MIT
#include "registry/strategies/LeaseStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {

std::vector<model::StatusCause> LeaseStrategy::validate(const model::Object &object) const
{
    std::vector<model::StatusCause> causes = Strategy::validate(object);
    const nlohmann::json &spec = model::member(object.json(), "spec");
    const nlohmann::json &duration = model::member(spec, "leaseDurationSeconds");
    if (!duration.is_null()) {
        const auto seconds = jsonedit::integer(duration);
        if (!seconds)
            causes.push_back(typeInvalidField("spec.leaseDurationSeconds", duration, "an integer"));
        else if (*seconds <= 0)
            causes.push_back(invalidFieldInt("spec.leaseDurationSeconds", *seconds, "must be greater than 0"));
    }
    const nlohmann::json &transitions = model::member(spec, "leaseTransitions");
    if (!transitions.is_null() && !jsonedit::integer(transitions))
        causes.push_back(typeInvalidField("spec.leaseTransitions", transitions, "an integer"));
    checkNonNegative(transitions, "spec.leaseTransitions", causes);
    return causes;
}

} // namespace rvscope::registry
