// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "history/OperationRecord.h"

// Private to LinearizabilityChecker: the per-key model operations and the WGL search.
namespace rvscope::history::detail {

enum class RegisterOpKind {
    Read,           // get 2xx: returns (rv, value)
    ReadAbsent,     // get/update/patch/delete 404: requires absent
    CreateConflict, // create 409: requires present
    WriteConflict,  // conditional update/patch/delete 409: requires present with rv != sent
    Create,         // create 2xx (chain link)
    Write,          // update/patch 2xx (chain link)
    Delete,         // delete 2xx (chain link)
    PendingCreate,  // unknown outcome: may or may not take effect
    PendingWrite,
    PendingDelete,
};

struct RegisterOp final {
    const OperationRecord *record = nullptr;
    RegisterOpKind kind = RegisterOpKind::Read;
    bool conditional = false;
    std::int64_t sent = -2; // -2: not a number (never matches)
    std::int64_t rv = 0;    // produced, or read
    std::uint64_t value = 0; // digest, 0 = unknown
    int chainIndex = -1;
    std::int64_t start = 0;
    std::int64_t end = 0;
    bool pending = false;
};

struct SearchResult final {
    enum class Outcome { Linearizable, NotLinearizable, OutOfTime };
    Outcome outcome = Outcome::Linearizable;
    std::string explanation;
};

// ops: one key's operations (any order); produced: rvProduced of its completed successful
// writes, sorted; initialExists: see LinearizabilityChecker.h. horizon > 0: the journal
// dropped its oldest records and kept every commit above this revision (HistoryWindow); the
// key starts in an unknown state, and ops must hold no chain write at or below it.
SearchResult searchLinearization(std::vector<RegisterOp> ops, const std::vector<std::int64_t> &produced,
                                 bool initialExists, std::int64_t horizon, std::chrono::steady_clock::time_point deadline);

} // namespace rvscope::history::detail
