// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "faults/FaultRule.h"
#include "model/Object.h"
#include "registry/StoreTypes.h"

namespace rvscope::history {

// One journaled operation as the core saw it. Plain value type, safe to copy between threads.
//
// resourceVersionSent is the precondition the client sent (empty: unconditional).
// resourceVersionProduced is the revision a successful write committed (for delete: the
// revision of the deletion, i.e. the DELETED event's resourceVersion) and, for reads, the
// resourceVersion that was read. `object` is the object written or read (null if unknown;
// for a list it may hold the list); it is shared and immutable, and the journal keeps it as
// bytes only, so its tree is parsed on first use: read it on the thread that owns the
// history (objectJson() from two threads at once would race on that parse). `endNs` is empty while the operation is still pending
// (no response yet): checkers treat it as "may or may not have taken effect".
struct OperationRecord final {
    std::uint64_t id = 0;
    std::string clientId;
    std::string verb; // get, list, create, update, patch, delete, watch
    std::string key;  // "/registry/configmaps/default/foo" or "configmaps/default/foo"
    std::string resourceVersionSent;
    std::int64_t startNs = 0;
    std::optional<std::int64_t> endNs;
    int statusCode = 0;
    std::string reason;
    std::string message; // an error's Status message, which names the fields of an ownership 409
    std::string resourceVersionProduced;
    int casRetries = 0;
    model::ObjectPtr object;
    std::string requestBody; // what a write sent (PUT object, PATCH body, create object), if known
    std::string strategy;
    bool noop = false; // a successful write that changed nothing (same resourceVersion)
    bool apply = false; // a patch that is a server-side apply: it merges by field ownership
    // A write made by another rvscope instance on the same etcd: it arrived here by watch,
    // so only its key, revision, object and arrival time are known (startNs == endNs).
    bool remote = false;
    // An injected fault acted on it (core/faults): the action ("conflict", "drop",
    // "delay-after-commit", ...) and the rule's id; empty and 0 otherwise.
    std::string injected;
    std::uint64_t faultRuleId = 0;

    bool pending() const { return !endNs.has_value(); }
    bool succeeded() const { return !pending() && statusCode >= 200 && statusCode < 300; }
    bool isWrite() const { return verb == "create" || verb == "update" || verb == "patch" || verb == "delete"; }
    bool isConditional() const { return !resourceVersionSent.empty(); }
    // An injected fault answered in the handler's place (conflict, throttle, error, timeout,
    // drop): the operation never ran, so whatever its status it had no effect and saw
    // nothing. (An injected late reply or drop after the commit is a write that landed.)
    bool refusedByFault() const
    {
        if (injected.empty())
            return false; // (most operations: no lookup)
        const auto action = faults::actionNamed(injected);
        return action && faults::answersInstead(*action);
    }
    // The object's JSON, or a null JSON when none was recorded.
    const nlohmann::json &objectJson() const
    {
        static const nlohmann::json none;
        return object ? object->json() : none;
    }
};

// One event delivered on a watch stream. `watcherId` names the watcher or bulk-watch channel;
// `operationId`, when non-zero, is the id of the "watch" OperationRecord that opened it (its
// key is the watched prefix, its resourceVersionSent the start resourceVersion).
struct WatchDelivery final {
    std::string watcherId;
    std::uint64_t operationId = 0;
    std::string eventType; // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
    std::string resourceVersion;
    std::string key;
    std::int64_t timeNs = 0;
    std::string message; // ERROR events: the Status that closed the stream

    // `event` as watch `operationId` (watcher "watch-<operationId>") on `resource` handed it
    // to its transport at `timeNs`: the event's type and resourceVersion, the key
    // resource[/namespace]/name of its object, and for an ERROR its Status as
    // "<code> <Reason>: <message>".
    static WatchDelivery of(std::uint64_t operationId, const std::string &resource, const registry::WatchEvent &event,
                            std::int64_t timeNs);
};

// "configmaps/default/foo" for both "/registry/configmaps/default/foo" and
// "configmaps/default/foo", so records from storage and from HTTP clients compare equal.
inline std::string normalizedKey(std::string_view key)
{
    constexpr std::string_view registryPrefix = "/registry/";
    if (key.substr(0, registryPrefix.size()) == registryPrefix)
        key.remove_prefix(registryPrefix.size());
    while (!key.empty() && key.front() == '/')
        key.remove_prefix(1);
    return std::string(key);
}

} // namespace rvscope::history
