// SPDX-License-Identifier: MIT
#pragma once

#include "engine/ScenarioValues.h"

namespace rvscope::app {

// Prints one line of a command's report to stdout, in UTF-8, and flushes it (a watch
// command's lines reach a pipe as they come).
void printLine(const QString &text);

// Prints `verdicts:` and one line per verdict to stdout, as `scenario run --check` and
// `check` show them: "  CHECKER[ KEY]: OUTCOME (expected pass|fail)[ [UNEXPECTED]] - summary",
// then its first ten findings. Returns whether every verdict was the one expected.
bool printVerdicts(const engine::VerdictList &verdicts);

} // namespace rvscope::app
