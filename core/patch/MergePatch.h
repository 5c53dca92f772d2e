// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include "model/Result.h"

// RFC 7386 JSON Merge Patch (application/merge-patch+json).
namespace rvscope::patch {

// MergePatch(target, patch) exactly as RFC 7386 section 2 defines it: an object patch merges
// recursively into the target (a non-object target counts as {}), a null member deletes that
// member, and anything else (arrays included) replaces the target value whole. Null members
// of a patch value that lands where the target had nothing are dropped, as the RFC's
// recursion does. A non-object patch replaces the whole target. Total: never fails, never
// throws (short of memory exhaustion).
nlohmann::json applyMergePatch(const nlohmann::json &target, const nlohmann::json &patch);

// A merge patch on a Kubernetes object, as patch.go applies it: like applyMergePatch, but the
// patch must be a JSON object. Anything else gives 400 BadRequest "Invalid JSON Patch"
// (evanphx/json-patch's ErrBadJSONPatch, which the apiserver turns into a 400). A `object`
// that is not an object is treated as {}. Never throws.
model::Result<nlohmann::json> applyMergePatchToObject(const nlohmann::json &object,
                                                      const nlohmann::json &patch);

// A merge patch that turns `original` into `modified`, so that
// applyMergePatch(original, createMergePatch(original, modified)) == modified. Members that
// are equal are left out, removed members become null, and changed objects are diffed
// recursively. Arrays are atomic, so a changed array is sent whole. If either side is not an
// object, the patch is `modified` itself. Limit, inherent to RFC 7386: a null *value* in
// `modified` cannot be expressed (null means delete), so such members come out deleted.
// Never throws.
nlohmann::json createMergePatch(const nlohmann::json &original, const nlohmann::json &modified);

} // namespace rvscope::patch
