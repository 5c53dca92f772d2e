// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "model/Object.h"
#include "model/Result.h"

namespace rvscope::storage {

// A storage revision: one int64 series per storage instance, +1 per committed change, the
// source of every metadata.resourceVersion (like etcd's revision).
using Revision = std::int64_t;
using model::ObjectPtr;

// Parameter structs passed by value to coroutines declare a constructor on purpose: g++ 12
// miscompiles an *aggregate* initialized from `{}` inside a co_await expression (the frame's
// copy is bitwise, so its strings free a foreign buffer). A user-declared constructor makes
// the type a non-aggregate and avoids the bug; keep it when adding fields.

// What a write requires of the stored object (metav1.Preconditions). Unset fields are not
// checked. A failed check is a 409 Status with StorageCode::InvalidObj and the apiserver's
// "Precondition failed: ..." text.
struct Preconditions final {
    Preconditions() = default;
    std::optional<std::string> uid;
    std::optional<std::string> resourceVersion;

    // `key` only shapes the error message.
    std::optional<model::Status> check(const std::string &key, const model::Object &object) const;
};

struct ListOptions final {
    ListOptions() = default;
    // 0: the latest state. N: the state exactly at revision N (410 when N is older than the
    // retained history, 504 when it is newer than the current revision).
    Revision revision = 0;
    // Keys >= startKey only (a continue token's position); empty: from the prefix start.
    std::string startKey;
    // At most this many matching items (0: no limit). ListResult::continueKey tells where
    // the next page starts.
    std::int64_t limit = 0;
    // Items for which this returns false are skipped (they do not count toward limit).
    std::function<bool(const model::Object &)> predicate;
    // Also return each item's key (ListResult::keys).
    bool withKeys = false;
};

struct ListResult final {
    std::vector<ObjectPtr> items; // in key order
    Revision revision = 0;        // the revision the items are consistent with
    std::string continueKey;      // empty when the list is complete
    // Keys left after this page; only computed when there is no predicate (as upstream).
    std::optional<std::int64_t> remainingItemCount;
    std::vector<std::string> keys; // with ListOptions::withKeys: items[i]'s key
};

enum class WatchEventType { Added, Modified, Deleted, Error };

// What the layers above derive from one event (its wire form for each event type the API
// may turn it into), computed by the first watcher that needs it and reused by the others
// the event is fanned out to (watch::WatchHub attaches one per event). Opaque to storage.
struct WatchEventEncodings final {
    std::array<std::shared_ptr<const std::string>, 4> lines;
};

struct WatchEvent final {
    WatchEventType type = WatchEventType::Added;
    std::string key;
    // Added/Modified: the new state. Deleted: the last state, with resourceVersion set to
    // the deletion's revision (what the apiserver sends). Error: null.
    ObjectPtr object;
    ObjectPtr previous; // the state before the change, when there was one
    Revision revision = 0;
    std::optional<model::Status> error; // only for Error events, after which the watch ends
    // Shared by every watcher this event is fanned out to; null when nobody shares it.
    std::shared_ptr<WatchEventEncodings> encodings;
};

// Receives watch events on the storage's thread, in increasing revision order. A sink may
// call back into the storage (even write); events that this causes are queued and
// delivered after the current one, so every watcher still sees revision order.
using WatchSink = std::function<void(const WatchEvent &)>;

struct UpdateResult final {
    ObjectPtr object;
    int retries = 0;     // compare-and-swap failures retried inside guaranteedUpdate
    bool noop = false;   // the update encoded to the stored bytes: nothing was written
    bool created = false; // the key did not exist (ignoreNotFound) and was created
};

struct RemoveResult final {
    ObjectPtr object;     // the last stored state (its own resourceVersion)
    Revision revision = 0; // the revision of the deletion
    int retries = 0;
};

// The user function of guaranteedUpdate. `existing` is null only when the key is missing
// and ignoreNotFound was set. It returns the desired object (its resourceVersion is ignored:
// storage sets it) or an error Status, which aborts the update unchanged unless `existing`
// came from a stale suggestion. It may suspend (co_await); guaranteedUpdate then detects a
// concurrent commit by compare-and-swap and calls it again with the fresh state.
using TryUpdate = std::function<QCoro::Task<model::Result<model::Object>>(ObjectPtr existing)>;

// Checked against the current object, inside the delete's compare-and-swap loop.
using ValidateDeletion = std::function<std::optional<model::Status>(const model::Object &existing)>;

} // namespace rvscope::storage
