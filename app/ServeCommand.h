// SPDX-License-Identifier: MIT
#pragma once

#include "CommandLine.h"

namespace rvscope::app {

// Runs the headless server until SIGINT/SIGTERM; needs a Q(Core)Application. Prints the
// ready line `listening on http://ADDR:PORT` (flushed) once connections are accepted.
// Returns the process exit code (1 when it cannot serve: a taken port, a bad data directory).
int runServe(const ServeOptions &options);

} // namespace rvscope::app
