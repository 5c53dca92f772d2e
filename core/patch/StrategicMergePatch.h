// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "model/Result.h"
#include "patch/PatchSchema.h"

// Strategic merge patch (application/strategic-merge-patch+json) on built-in objects.
namespace rvscope::patch {

// Applies a strategic merge patch to `original`, an object of `kind` ("Deployment", "Pod",
// "ConfigMap", ...), and returns the patched copy. It is a JSON merge patch (maps merge,
// null deletes a member) with the list strategies of PatchSchema and the `$` directives:
// - a list with patchStrategy merge and a merge key merges element by element on the key:
//   matches merge recursively, new elements are added, `{"<key>": v, "$patch": "delete"}`
//   removes the element(s) with that key, a `{"$patch": "replace"}` element makes the other
//   patch elements the whole list. A primitive list with strategy merge (finalizers) takes
//   the deduplicated union. Every other list is replaced whole.
// - `"$patch": "replace"` in a map replaces the map with the patch map; `"$patch": "delete"`
//   removes the map from its parent (the whole patch: an empty object).
// - `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>` behave as
//   in k8s.io/apimachinery strategicpatch, including its element ordering: patch items take
//   the patch's order, live-only items keep theirs, and an item new to a merged list without
//   `$setElementOrder` lands before the remaining live-only items, as upstream does.
// Members the original lacks are merged into an empty value, so directives and nulls in
// them are applied rather than stored. Kinds without schema entries merge like a merge patch
// plus directive handling. Callers must answer 415 for kinds where supportsStrategicMerge()
// is false (custom resources); this function does not check.
//
// Errors: 400 BadRequest when the patch is not a JSON object or is malformed (unknown
// `$patch` value, an element without its merge key, element types that differ, bad
// `$retainKeys` / `$setElementOrder` / `$deleteFromPrimitiveList` format, a
// `$setElementOrder` that contradicts the patch list); 422 Invalid (generic message) for a
// list of lists; 500 if `original` is not a JSON object. Upstream answers the malformed cases
// it does not classify with 500 and the raw error; rvscope answers 400 with the same text.
// Never throws.
model::Result<nlohmann::json> applyStrategicMergePatch(const nlohmann::json &original,
                                                       const nlohmann::json &patch,
                                                       std::string_view kind);

} // namespace rvscope::patch
