// SPDX-License-Identifier: MIT
#pragma once

#include "CommandLine.h"

namespace rvscope::app {

// Runs the headless server until SIGINT/SIGTERM; needs a Q(Core)Application. Prints the
// ready line `listening on http://ADDR:PORT` (flushed) once connections are accepted. With
// options.exportPath, a signal stops the server, writes the history journal there and prints
// `history written to FILE` before the process ends (further signals meanwhile are ignored).
// Returns the process exit code (1 when it cannot serve: a taken port, a bad data directory;
// or when the export cannot be written).
int runServe(const ServeOptions &options);

} // namespace rvscope::app
