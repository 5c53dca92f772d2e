// SPDX-License-Identifier: MIT
#pragma once

#include "CommandLine.h"

namespace rvscope::app {

// `rvscope check FILE [--json]`: imports an exported history (History::importJsonLines) and
// runs the checkers a whole history gets (engine::checkHistory), printing the verdicts as
// `scenario run --check` does. Needs no Q(Core)Application. Returns 0 when every verdict
// passed (or had nothing to check), 1 when one failed or was undecided or the file held no
// record, 2 when the file cannot be read or is not a history.
int runCheckCommand(const CheckOptions &options);

} // namespace rvscope::app
