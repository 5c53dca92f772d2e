// SPDX-License-Identifier: MIT
#pragma once

namespace rvscope::app {

// `rvscope` serves, runs scenarios and clients without loading any GUI library; the window
// is rvscope-gui, the executable next to this one. This replaces the process with it,
// passing the same arguments. Returns only when it cannot: with a message and exit code 1, or with 0
// when this build has no window (RVSCOPE_GUI=OFF), so that the caller serves instead.
int execWindowProcess(int argc, char **argv);

} // namespace rvscope::app
