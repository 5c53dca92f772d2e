// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "history/History.h"
#include "history/HistoryWindow.h"
#include "history/Verdict.h"

namespace rvscope::history {

// Lost-update detection for counter workloads: every client reads an object, adds one to an
// integer at `counterPath` (dot-separated, e.g. "data.counter"; the value may be a JSON
// integer or a decimal string, as in a ConfigMap) and writes it back.
//
// For one key, the successful writes ordered by resourceVersionProduced form the commit
// chain; the first one (usually the create) is the baseline. Each later successful write must
// have been based on its immediate predecessor and written predecessor + 1. The revision a
// write was based on is its resourceVersionSent, or, for an unconditional write, the
// revision of the same client's last successful read or write of the key that ended before
// the write started. A write based on an older revision, a write whose value is not
// basis + 1, or two successful writes based on the same revision, are lost updates; the
// finding names the write and the updates it overwrote. Finally the last value must equal
// baseline + number of increments. A jump of k > 1 is accepted (with a note) when at least
// k - 1 writes to the key are pending or ended with an unknown (5xx) outcome.
//
// Deletes restart the chain (the next create is a new baseline). On a history that dropped
// its oldest records (HistoryWindow), the chain starts at the first commit above the key's
// horizon (earlier commits may be among the dropped ones), and the summary says so.
// Pure function; any thread.
class LostUpdateChecker final {
public:
    explicit LostUpdateChecker(std::string counterPath = "data.counter");

    Verdict check(const History &history, const std::string &key) const;
    Verdict check(const std::vector<OperationRecord> &operations, const std::string &key,
                  const HistoryWindow &window = {}) const;

private:
    // The check of the commits above `horizon` (0: all of them).
    Verdict checkKept(const std::vector<OperationRecord> &operations, const std::string &key, std::int64_t horizon) const;

    std::vector<std::string> m_path;
};

} // namespace rvscope::history
