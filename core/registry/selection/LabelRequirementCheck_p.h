// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include "registry/selection/LabelSelector.h"

namespace rvscope::registry {

// labels.NewRequirement's checks, called without a field path as the apiserver calls it:
// the key must be a qualified name (`key: Invalid value: ...`), the operator must have the
// right number of values, Gt/Lt values must be int64s, and every value must be a label value
// (`values[0][app]: Invalid value: ...`). Returns the aggregated message, or nullopt.
std::optional<std::string> checkLabelRequirement(const LabelRequirement &requirement);

} // namespace rvscope::registry
