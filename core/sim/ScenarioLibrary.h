// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "model/Result.h"
#include "sim/Scenario.h"

namespace rvscope::sim {

// The built-in scenarios (resources/scenarios/*.json, compiled in) and scenario files.
class ScenarioLibrary final {
public:
    // Built-ins in teaching order (lost-update first).
    static std::vector<Scenario> builtIns();
    // A built-in by name, or else a file path; a 404 Status names the known scenarios, a
    // 400 Status says what is wrong with a file.
    static model::Result<Scenario> load(const std::string &nameOrPath);
};

} // namespace rvscope::sim
