// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"

namespace rvscope::faults {

// What a fault rule does to a request it fires on.
enum class FaultAction {
    Conflict,         // 409 with the optimistic-lock text for the target object
    Throttle,         // 429 with Retry-After
    Error,            // 500 InternalError
    Timeout,          // 504 with the apiserver's request timeout Status
    Drop,             // the connection closes without a reply; nothing ran
    Delay,            // waits, then the request runs
    DelayAfterCommit, // the request runs (a write lands), then the reply waits
    DropAfterCommit,  // the request runs (a write lands), then the connection closes
    EndAfter,         // a watch stream ends cleanly after N events
    ExpireAfter,      // a watch gets ERROR 410 Expired after N events, then ends
    Compact,          // the resource's storage is compacted to its current revision, then the request runs
    Stall,            // a watch sends nothing more: its backlog grows until the backlog limit ends it
};

// The rule syntax's word for `action` ("conflict", "delay-after-commit", ...).
std::string_view actionName(FaultAction action);
// The action `name` names (actionName's inverse), or nullopt.
std::optional<FaultAction> actionNamed(std::string_view name);
// True when the fault answers in the handler's place: the request never runs, so it has no
// effect (conflict, throttle, error, timeout, drop).
bool answersInstead(FaultAction action);
// Whether `action` can act on a request of `verb` ("update", "watch", ...), and those verbs
// in words ("update, patch and delete").
bool actsOn(FaultAction action, std::string_view verb);
std::string actedOnVerbs(FaultAction action);

// One fault rule, parsed from its text (one syntax for --fault, /rvscope/v1/faults and the
// window):
//
//   VERBS TARGET [WORD...]
//
//   VERBS   get, list, watch, create, update, patch, delete, deletecollection, or *; several
//           joined by commas ("update,patch")
//   TARGET  RESOURCE[/NAMESPACE[/NAME]], each a glob (* and ?); a part left out is *. The
//           resource is the plural ("deployments"), optionally with its group
//           ("deployments.apps"); a cluster-scoped one's target is RESOURCE[/NAME]
//           ("nodes/n1", resolved against the served types when the rule is added); a
//           create's name is its body's.
//   WORD    which requests:  subresource=GLOB (without it: the object itself, no
//                            subresource), user=GLOB, agent=GLOB (the User-Agent's product,
//                            up to the first '/'), client=GLOB (X-Rvscope-Client)
//           when it fires:   every=N (each N-th match; default 1), probability=P with
//                            seed=S (default seed 1: repeatable), once (= times=1), times=N
//                            (then it stays listed, spent; default: until removed)
//           what it does:    exactly one of conflict, throttle [retry-after=SECONDS],
//                            error, timeout, drop, delay=D, delay-after-commit=D,
//                            drop-after-commit, end-after=N, expire-after=N, compact.
//                            D is a duration (200ms, 2s) or a range (100ms..1s) drawn
//                            from the rule's seeded generator; end-after and expire-after
//                            take a number of events or a duration (expire-after=30s).
//
// e.g. "update deployments/x every=3 conflict", "watch deployments/x expire-after=5",
// "create,update configmaps/*/cfg-* client=ctrl-a probability=0.2 seed=7 throttle retry-after=2".
struct FaultRule final {
    FaultRule() = default;
    std::string text; // as given, with runs of blanks made one space
    std::vector<std::string> verbs; // {"*"} or the verbs named
    std::string resource = "*";
    std::string group = "*"; // "deployments.apps": "apps"; without a group: any
    std::string namespaceName = "*";
    std::string name = "*";
    int targetParts = 1; // how many of RESOURCE/NAMESPACE/NAME the text gave
    std::optional<std::string> subresource; // nullopt: requests without one
    std::string user = "*";
    std::string agent = "*";
    std::string client = "*";
    std::int64_t every = 1;
    std::optional<double> probability;
    std::uint64_t seed = 1;
    std::optional<std::int64_t> times;
    FaultAction action = FaultAction::Conflict;
    int retryAfterSeconds = 1;
    int delayMinMs = 0; // Delay, DelayAfterCommit: the delay, drawn from [min, max]
    int delayMaxMs = 0;
    std::int64_t events = 0; // EndAfter, ExpireAfter: after this many events, or
    int afterMs = 0;         // after this long (end-after=30s)

    bool matchesVerb(std::string_view verb) const;
};

// The rule `text` says, or a 400 BadRequest whose message names the rule and what is wrong
// with it (`fault rule "updte cm conflict": unknown verb "updte" (get, list, ...)`).
model::Result<FaultRule> parseFaultRule(std::string_view text);

} // namespace rvscope::faults
