// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
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
    std::string group;         // "" for the core group
    std::string namespaceName; // empty: cluster scope or every namespace
    std::string name;          // empty for a collection (a create: its body's name)
    std::string subresource;
    std::string user;
    std::string agent;  // the User-Agent up to its first '/'
    std::string client; // X-Rvscope-Client
};

// A rule that fired on a request: what to do, with its delay drawn.
struct FaultFiring final {
    FaultFiring() = default; // (not an aggregate: QCoro/g++ 12 coroutine arguments, README)
    std::uint64_t ruleId = 0;
    FaultAction action = FaultAction::Conflict;
    int retryAfterSeconds = 1;
    int delayMs = 0;
    std::int64_t events = 0;
    int afterMs = 0;
    // A watch resuming from `resumedFrom`, before an expiry this rule caused: ends at once
    // with this 410 (unless it resumes from the head: see FaultInjector).
    std::optional<model::Status> expireNow;
    std::int64_t resumedFrom = 0;
};

// The fault rules a server applies, in the order they were added, each with an id (from 1,
// never reused) and its counters. decide() is the one place a request meets them; the
// watch-path actions (end-after, expire-after) are carried out by the watcher the request
// opens. Core thread only.
class FaultSet final {
public:
    // Who added a rule: a person (--fault, the endpoint, the window) or a scenario's step.
    enum class Origin { User, Scenario };

    struct Entry {
        std::uint64_t id = 0;
        Origin origin = Origin::User;
        FaultRule rule;
        std::uint64_t matched = 0; // requests it named
        std::uint64_t fired = 0;   // of those, the ones it acted on
        std::mt19937_64 random;    // probability and delay ranges, from the rule's seed
        // expire-after: per resource ("deployments.apps"), the oldest resourceVersion left
        // once the rule expired a watch there (see recordExpiry).
        std::map<std::string, std::int64_t> expiredBelow;

        // Fired as many times as the rule's times=N allows.
        bool spent() const { return rule.times && fired >= std::uint64_t(*rule.times); }
    };

    // Resolves a parsed rule's target against what is served before it is added: may
    // rewrite it (a cluster-scoped "nodes/n1" names n1) or return why it names nothing
    // ("unknown resource ..."). Unset: taken as parsed.
    using TargetCheck = std::function<std::optional<std::string>(FaultRule &rule)>;
    void setTargetCheck(TargetCheck check) { m_targetCheck = std::move(check); }

    // Adds a parsed rule; returns its id.
    std::uint64_t add(FaultRule rule, Origin origin = Origin::User);
    // Parses, checks the target and adds; a 400 naming the rule and its problem otherwise.
    model::Result<std::uint64_t> add(std::string_view text, Origin origin = Origin::User);
    // A fresh core's set (a scenario's rebuild) takes `previous`'s rules over: those a
    // person added that are not spent, in order, with their ids (a test that holds one
    // still names its rule) and their counts from 0; ids go on from where `previous` was.
    // A scenario's own rules stay with its run.
    void takeOver(const FaultSet &previous);
    // False when no rule has that id.
    bool remove(std::uint64_t id);
    void clear() { m_entries.clear(); }
    // Removes the rules of one origin (a scenario's "clear" step leaves a person's alone).
    void clear(Origin origin)
    {
        std::erase_if(m_entries, [origin](const Entry &entry) { return entry.origin == origin; });
    }

    bool empty() const { return m_entries.empty(); }
    const std::vector<Entry> &entries() const { return m_entries; }

    // Counts the request against every rule that names it and returns the firing of the
    // first (oldest) such rule whose turn it is, if any. A rule that fires is counted as
    // fired only when it is the one that acts.
    std::optional<FaultFiring> decide(const FaultRequest &request);
    // A firing that did not act after all (a conflict for an object that does not exist:
    // the request runs and gets its own 404): no longer counted as fired.
    void withdraw(std::uint64_t ruleId);

    // Sticky expiry, as compaction is: once rule `ruleId` expired a watch of `resource`
    // whose oldest resourceVersion left is `oldest`, a watch the rule names (its verbs,
    // target and client) resuming from before that gets the same 410, for as long as the
    // rule is listed (whether its turn comes or not).
    void recordExpiry(std::uint64_t ruleId, const std::string &resource, std::int64_t oldest);
    struct Expiry {
        std::uint64_t ruleId = 0;
        std::int64_t oldest = 0;
    };
    std::optional<Expiry> expiredFor(const FaultRequest &watch, std::int64_t resourceVersion) const;
    // The key recordExpiry and expiredFor take: "configmaps", "deployments.apps".
    static std::string resourceKey(const FaultRequest &request);

private:
    static bool names(const FaultRule &rule, const FaultRequest &request);
    std::vector<Entry> m_entries;
    std::uint64_t m_nextId = 1;
    TargetCheck m_targetCheck;
};

} // namespace rvscope::faults
