// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rvscope::api::table {

// resource.Quantity's String(), the canonical form the printers show: "1.5Gi" → "1536Mi",
// "0.5" → "500m", "1000" → "1k", "1e7" → "10e6". A quantity given as a JSON string or number;
// "0" for null (a missing map entry is the zero Quantity); the text as it is when it is not a
// quantity or lies beyond what this form can hold (about 1e20).
std::string canonicalQuantity(const nlohmann::json &value);

} // namespace rvscope::api::table
