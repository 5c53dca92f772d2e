// SPDX-License-Identifier: MIT
#pragma once

#include "CommandLine.h"

namespace rvscope::app {

// `rvscope scenario list|run`: runs through the same Engine as the GUI, headless, as fast as
// possible. Needs a QCoreApplication. Returns the exit code (see usageText()).
int runScenarioCommand(const ScenarioOptions &options);

} // namespace rvscope::app
