// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fields/FieldSchema.h"
#include "fields/FieldSet.h"

namespace rvscope::model {
struct Status;
}

// metadata.managedFields: who owns which field, and the two operations that change it
// (reference §1, §5, §6). Pure functions of JSON trees; the registry decides when to call them.
namespace rvscope::fields {

struct ManagerEntry final {
    std::string manager;
    std::string operation; // "Apply" or "Update"
    std::string apiVersion;
    std::string time;      // RFC 3339 seconds; empty: none
    std::string subresource;
    FieldSet fields;
    // The raw fieldsV1 the entry was decoded from: encoding writes it again while `fields`
    // still equals it, instead of encoding the set anew.
    nlohmann::json decodedFrom;

    // Entries of one identity merge: Apply entries ignore apiVersion (reference §1.2).
    bool sameIdentity(const ManagerEntry &other) const;
};

// Decodes metadata.managedFields (a tree, or the raw list model::parseObjectJson keeps); nullopt when an entry is malformed (a missing or unknown
// fieldsType or operation, an empty apiVersion, fieldsV1 that does not parse), which callers
// treat as absent (reference §8).
std::optional<std::vector<ManagerEntry>> decodeManagedFields(const nlohmann::json &list);
// Encodes in the apiserver's order: Apply before Update, oldest first, then by manager,
// apiVersion and subresource (reference §1.4); each fieldsV1 as a raw node.
nlohmann::json encodeManagedFields(const std::vector<ManagerEntry> &entries);
// The same as objects store it: one raw node of the list's compact text (see
// model/JsonWrite.h), which a write copies, compares, serializes and frees in one piece.
nlohmann::json encodeManagedFieldsRaw(const std::vector<ManagerEntry> &entries);

// The managers the apiserver itself names: the bucket of old Update entries beyond the cap
// of 10, and the owner of what an untracked object held before its first apply.
inline constexpr const char *ANCIENT_CHANGES = "ancient-changes";
inline constexpr const char *BEFORE_FIRST_APPLY = "before-first-apply";

// Who writes: the manager, the endpoint's apiVersion ("v1", "apps/v1"), the subresource
// ("" for the main resource) and the time to stamp.
struct Writer {
    std::string manager;
    std::string apiVersion;
    std::string subresource;
    std::string now;
};

// An Update (POST, PUT, non-apply PATCH) from `before` to `after` (reference §5.1): what it
// added or changed becomes the writer's, and every other manager loses what it changed or
// removed. Never a conflict.
std::vector<ManagerEntry> recordUpdate(std::vector<ManagerEntry> entries, const nlohmann::json &before,
                                       const nlohmann::json &after, const Writer &writer, const FieldSchema &schema);
struct Changes;
// The same with the changes computed already (compareObjects). `create`: there was no object.
std::vector<ManagerEntry> recordUpdate(std::vector<ManagerEntry> entries, const Changes &changes, bool create,
                                       const Writer &writer);

// One field another manager owns and an apply would change.
struct FieldConflict {
    std::string manager; // as the message names it: "\"alice\"" or "\"bob\" using v1"
    Path path;
};

struct ApplyResult {
    nlohmann::json object;               // live with the configuration merged in and pruned
    std::vector<ManagerEntry> entries;   // the managed fields after the apply
    std::vector<FieldConflict> conflicts; // non-empty: refused (without force), nothing changes
    std::string error;                   // a configuration the schema cannot take (400)
};

// An Apply of `config` by `writer` to `live` (reference §5.2): merge, prune what the writer
// applied before and no one else owns, and refuse changes to fields others own unless
// `force` (then they lose them).
ApplyResult apply(const nlohmann::json &live, const nlohmann::json &config, std::vector<ManagerEntry> entries,
                  const Writer &writer, bool force, const FieldSchema &schema);

// The 409 an apply with conflicts answers (reference §6).
model::Status conflictStatus(const std::vector<FieldConflict> &conflicts);

// The managers and fields named in conflictStatus()'s message, read back (a journal keeps
// the message, not the causes): the manager as the message writes it ("\"alice\"" or
// "\"kubectl\" using v1") and its fields in the order given. Empty for any other message.
struct ManagerConflicts final {
    std::string manager;
    std::vector<std::string> paths;
};
std::vector<ManagerConflicts> parseConflictMessage(std::string_view message);

// Who manages which field of `object`, one line per metadata.managedFields entry, paths as
// conflict messages write them: "alice (Apply): .data.color, .data.owner" (", /status"
// after the operation for a subresource), then "  at <time>" when `withTime` and the entry
// has one. Empty when the object has no entries or they do not decode.
std::vector<std::string> ownershipLines(const nlohmann::json &object, bool withTime);

} // namespace rvscope::fields
