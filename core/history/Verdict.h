// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rvscope::history {

// What a checker concluded. Unknown means the checker could not decide (time budget spent,
// not enough information); `summary` then says why. NoHistory means there was nothing to
// check (no operations of that kind were recorded, for instance because the history journal
// is off): a checker never calls an empty history a pass. `findings` lists each violation
// (or, for Unknown, each undecided part) in a sentence naming the operations involved.
struct Verdict final {
    enum class Outcome { Pass, Fail, Unknown, NoHistory };
    Outcome outcome = Outcome::Pass;
    std::string summary;
    std::vector<std::string> findings;

    bool passed() const { return outcome == Outcome::Pass; }
    bool failed() const { return outcome == Outcome::Fail; }

    // NoHistory, summarised as "no history: <what was missing>".
    static Verdict noHistory(const std::string &what)
    {
        Verdict verdict;
        verdict.outcome = Outcome::NoHistory;
        verdict.summary = "no history: " + what;
        return verdict;
    }
    // "pass", "fail", "unknown" or "no-history", as the engine and the CLI name outcomes.
    static const char *outcomeName(Outcome outcome)
    {
        switch (outcome) {
        case Outcome::Pass:
            return "pass";
        case Outcome::Fail:
            return "fail";
        case Outcome::NoHistory:
            return "no-history";
        case Outcome::Unknown:
            break;
        }
        return "unknown";
    }
};

} // namespace rvscope::history
