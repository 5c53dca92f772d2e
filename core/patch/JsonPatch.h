// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "model/Result.h"

// RFC 6902 JSON Patch (application/json-patch+json), with the apiserver's error answers.
namespace rvscope::patch {

// patch.go refuses longer JSON patches with 413 before applying anything.
inline constexpr std::size_t MAX_JSON_PATCH_OPERATIONS = 10000;

// Applies `patch` (an array of operations: add, remove, replace, move, copy, test) to
// `document` and returns the patched copy; `document` itself is never modified. The
// operations apply in order and atomically: if one fails, nothing is returned but the error.
//
// Errors:
// - 400 BadRequest: the patch document is malformed. It is not an array, an element is not an
//   object, `op` is missing or unknown, `path` (or `from` for move/copy) is missing, not a
//   string or not a valid JSON pointer, or `value` is missing for add/replace/test. The whole
//   patch is checked before any operation runs. (Upstream, evanphx/json-patch only checks the
//   JSON shape up front, so some of these cases come back as 422 there.)
// - 413 RequestEntityTooLarge: more than MAX_JSON_PATCH_OPERATIONS operations.
// - 422 Invalid "the server rejected our request due to an error in our request": an
//   operation cannot be applied. A `test` does not match, a path or `from` does not exist, an
//   array index is out of bounds, not a decimal or "-" where no element is meant, the root is
//   removed, or a value is moved into one of its own children.
//
// Member names and array indices are RFC 6901 tokens ("~0", "~1"); "-" appends in `add`.
// `test` compares numbers by value (1 equals 1.0). Never throws.
model::Result<nlohmann::json> applyJsonPatch(const nlohmann::json &document,
                                             const nlohmann::json &patch);

} // namespace rvscope::patch
