// SPDX-License-Identifier: MIT
#pragma once

#include "engine/ScenarioValues.h"

namespace rvscope::history {
class History;
}

namespace rvscope::engine {

// The checkers a whole history gets outside a scenario (the Verdicts panel, `rvscope check`):
// lost updates on every counter object (a ConfigMap whose successful writes carry
// data.counter), then linearizability and watch guarantees. Each is expected to pass; one
// with nothing to check says so in its outcome (no-history) and is not counted against that
// (VerdictReport::asExpected). A history that dropped its oldest records is checked as far
// as it goes, and each summary says so (history/HistoryWindow.h). Pure; any thread that
// may read `history`.
VerdictList checkHistory(const history::History &history);

} // namespace rvscope::engine
