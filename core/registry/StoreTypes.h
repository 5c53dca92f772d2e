// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "model/GroupVersion.h"
#include "model/Object.h"
#include "model/Status.h"
#include "registry/validation/KnownFields.h"
#include "storage/StorageTypes.h"

namespace rvscope::registry {

using model::ObjectPtr;

// Options of the write verbs. Coroutine parameter structs declare a constructor (see
// StorageTypes.h).
struct WriteOptions final {
    WriteOptions() = default;
    bool dryRun = false; // dryRun=All: run every check, store nothing
    std::string fieldManager; // ?fieldManager= as sent
    // Who writes, for managedFields: fieldManager, else the User-Agent's product.
    std::string manager = "unknown";
    bool force = false; // ?force=true: a server-side apply takes fields others own
    // ?fieldValidation=: what unknown and duplicate fields in the body get (KnownFields.h).
    FieldValidation fieldValidation = FieldValidation::Warn;
    // Update creates a missing object even if the type does not allow create-on-update
    // (server-side apply).
    bool forceAllowCreate = false;
};

struct DeleteOptions final {
    DeleteOptions() = default;
    bool dryRun = false;
    storage::Preconditions preconditions;
    std::optional<std::int64_t> gracePeriodSeconds;
    std::string propagationPolicy; // Background, Foreground, Orphan
};

struct ListResponse final {
    std::vector<ObjectPtr> items;
    storage::Revision revision = 0; // the list's metadata.resourceVersion
    std::string continueToken;
    std::optional<std::int64_t> remainingItemCount;
};

struct UpdateResponse final {
    ObjectPtr object;
    bool created = false; // create-on-update (201)
    bool noop = false;    // nothing changed: same resourceVersion, no event
    int retries = 0;      // compare-and-swap retries inside storage
};

struct DeleteResponse final {
    ObjectPtr object;     // the last state (deleted) or the object now being deleted
    bool deleted = true;  // false: finalizers keep it, deletionTimestamp is set
    storage::Revision revision = 0; // the deletion's revision (the DELETED event's), 0 if none
};

// A watch event as the API sends it: the object carries kind/apiVersion and, for DELETED,
// the resourceVersion of the deletion. ERROR carries a Status and ends the watch.
enum class WatchEventType { Added, Modified, Deleted, Bookmark, Error };

struct WatchEvent final {
    WatchEventType type = WatchEventType::Added;
    ObjectPtr object;
    std::optional<model::Status> error;
    // The wire form (watchEventJson), when it was computed once for every watcher the
    // event is fanned out to; null: each consumer serializes it.
    std::shared_ptr<const std::string> wire;
};

using WatchSink = std::function<void(const WatchEvent &)>;

const char *watchEventTypeName(WatchEventType type);
// The wire form `{"type":"ADDED","object":{...}}` (no newline): the object's cached bytes
// are spliced in, not re-encoded; ERROR carries its Status.
std::string watchEventJson(const WatchEvent &event);
// The shared wire form when the event carries one, else a fresh watchEventJson.
std::shared_ptr<const std::string> watchEventLine(const WatchEvent &event);
// A BOOKMARK: an object of the watched kind carrying only metadata.resourceVersion (and,
// ending a sendInitialEvents watch's initial events, the k8s.io/initial-events-end
// annotation), as the apiserver's watch cache sends it.
WatchEvent bookmarkEvent(const std::string &kind, const std::string &apiVersion, std::int64_t revision,
                         bool initialEventsEnd = false);

// What the Store needs from its surroundings: time, identity and namespace lifecycle.
struct StoreEnvironment final {
    // RFC 3339 UTC with seconds precision ("2024-01-02T03:04:05Z").
    std::function<std::string()> now;
    std::function<std::string()> newUid;
    std::mt19937 random{std::random_device{}()};
    // 404/403 Status when `name` of `resource` cannot be created in `ns` (missing or
    // terminating), as the apiserver's NamespaceLifecycle admission words it.
    std::function<QCoro::Task<std::optional<model::Status>>(std::string ns, model::GroupResource resource,
                                                            std::string name)>
        admitNamespace;
    // Called after a committed create/delete of any object (CRDs register types; a
    // terminating namespace is finalized when its last object goes).
    std::function<void(const std::string &resource, const model::Object &object)> afterCreate;
    std::function<void(const std::string &resource, const model::Object &object)> afterDelete;
};

} // namespace rvscope::registry
