// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rvscope::history {

// What a checker concluded. Unknown means the checker could not decide (time budget spent,
// not enough information); `summary` then says why. `findings` lists each violation (or,
// for Unknown, each undecided part) in a sentence naming the operations involved.
struct Verdict final {
    enum class Outcome { Pass, Fail, Unknown };
    Outcome outcome = Outcome::Pass;
    std::string summary;
    std::vector<std::string> findings;

    bool passed() const { return outcome == Outcome::Pass; }
    bool failed() const { return outcome == Outcome::Fail; }
};

} // namespace rvscope::history
