// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace rvscope::api::table {

// A pod's row as the apiserver's printPod makes it (table-output.md §5.4): Name, Ready,
// Status, Restarts, Age, IP, Node, Nominated Node, Readiness Gates.
nlohmann::json podCells(const nlohmann::json &pod, std::int64_t now);

} // namespace rvscope::api::table
