// SPDX-License-Identifier: MIT
#pragma once

#include "CommandLine.h"

namespace rvscope::app {

// `rvscope client`: a Workload of competing clients over HTTP, on the wall clock. Needs a
// QCoreApplication. Prints one line per client and a summary (or, with --json, only the
// summary as one JSON line, which the GUI's process launcher reads). Exit 1 when the server
// cannot be reached or the options are invalid.
int runClientCommand(const ClientOptions &options);

} // namespace rvscope::app
