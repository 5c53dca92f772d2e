// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "faults/FaultRule.h"
#include "model/Result.h"

namespace rvscope::faults {

// What a fault rule is matched against: one resource request, as resolved once.
struct FaultRequest final {
    FaultRequest() = default;
    std::string verb;          // get list watch create update patch delete deletecollection
    std::string resource;      // plural
    std::string namespaceName; // empty: cluster scope or every namespace
    std::string name;          // empty for a collection (a create: its body's name)
    std::string subresource;
    std::string user;
    std::string agent;  // the User-Agent up to its first '/'
    std::string client; // X-Rvscope-Client
};

// A rule that fired on a request: what to do, with its delay drawn.
struct FaultFiring final {
    std::uint64_t ruleId = 0;
    FaultAction action = FaultAction::Conflict;
    int retryAfterSeconds = 1;
    int delayMs = 0;
    std::int64_t events = 0;
    int afterMs = 0;
};

// The fault rules a server applies, in the order they were added, each with an id (from 1,
// never reused) and its counters. decide() is the one place a request meets them; the
// watch-path actions (end-after, expire-after) are carried out by the watcher the request
// opens. Core thread only.
class FaultSet final {
public:
    struct Entry {
        std::uint64_t id = 0;
        FaultRule rule;
        std::uint64_t matched = 0; // requests it named
        std::uint64_t fired = 0;   // of those, the ones it acted on
        std::mt19937_64 random;    // probability and delay ranges, from the rule's seed

        // Fired as many times as the rule's times=N allows.
        bool spent() const { return rule.times && fired >= std::uint64_t(*rule.times); }
    };

    // Adds a parsed rule; returns its id.
    std::uint64_t add(FaultRule rule);
    // Parses and adds; the 400 of parseFaultRule for a bad rule.
    model::Result<std::uint64_t> add(std::string_view text);
    // False when no rule has that id.
    bool remove(std::uint64_t id);
    void clear() { m_entries.clear(); }
    bool empty() const { return m_entries.empty(); }
    const std::vector<Entry> &entries() const { return m_entries; }

    // Counts the request against every rule that names it and returns the firing of the
    // first (oldest) such rule whose turn it is, if any. A rule that fires is counted as
    // fired only when it is the one that acts.
    std::optional<FaultFiring> decide(const FaultRequest &request);

private:
    static bool names(const FaultRule &rule, const FaultRequest &request);
    std::vector<Entry> m_entries;
    std::uint64_t m_nextId = 1;
};

} // namespace rvscope::faults
