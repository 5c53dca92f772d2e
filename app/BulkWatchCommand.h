// SPDX-License-Identifier: MIT
#pragma once

#include "CommandLine.h"

namespace rvscope::app {

// `rvscope client bulk-watch`: runs a BulkWatchClient until it finishes or SIGINT/SIGTERM
// (which close the websocket and exit 0). Needs a QCoreApplication. Returns the exit code
// BulkWatchClient documents (0 ended normally, 1 failed after connecting, 2 could not
// start), 2 also for an unreadable --certificate-authority file.
int runBulkWatchCommand(const BulkWatchOptions &options);

} // namespace rvscope::app
