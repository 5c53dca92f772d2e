// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "fields/FieldSchema.h"
#include "fields/FieldSet.h"

// The field sets of objects: what an applied configuration claims, and what a write changed
// (reference §2.3, §5). Walks JSON trees with a FieldSchema; no ownership here.
namespace rvscope::fields {

// The set an applied configuration claims (structured-merge-diff's ToFieldSet): every
// scalar, every atomic value, every empty or null struct, every associative-list item and
// set member; a non-empty struct only through its fields. An associative-list item that omits
// a key field without a default is an error (its message, as upstream words it).
struct AppliedFields {
    FieldSet fields;
    std::string error;
};
AppliedFields appliedFields(const nlohmann::json &config, const FieldSchema &schema);

// What changed from `before` to `after` (a create compares with an empty object). `added`:
// paths that did not exist, each new node a member with every member below it; `modified`:
// paths whose value changed; `removed`: the roots of subtrees that went away.
struct Changes {
    FieldSet added;
    FieldSet modified;
    FieldSet removed;
};
Changes compareObjects(const nlohmann::json &before, const nlohmann::json &after, const FieldSchema &schema);

// Merges an applied configuration into the live object: scalars and atomic values replace,
// structs and maps recurse, sets take the union, associative lists merge item by item.
nlohmann::json mergeApplied(const nlohmann::json &live, const nlohmann::json &config, const FieldSchema &schema);

// Removes the value at `path` from `object` (nothing when it is not there).
void removeAt(nlohmann::json &object, const Path &path);

} // namespace rvscope::fields
