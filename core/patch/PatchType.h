// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"

// The PATCH content types and the 415 answer for the others (patch.go).
namespace rvscope::patch {

enum class PatchType {
    JsonPatch,           // application/json-patch+json (RFC 6902)
    MergePatch,          // application/merge-patch+json (RFC 7386)
    StrategicMergePatch, // application/strategic-merge-patch+json (built-in types only)
    ApplyPatch,          // application/apply-patch+yaml (server-side apply)
};

// The media type string of `type`, e.g. "application/merge-patch+json".
std::string_view mediaType(PatchType type);

// The patch type of a Content-Type header value, as patch.go reads it: surrounding
// whitespace is trimmed (as the HTTP layer does), everything from the first ';' on is cut
// when ';' is not the first character, and the rest must equal a media type exactly
// (case-sensitive, no further trimming: "application/merge-patch+json ; charset=utf-8" is
// unknown, as upstream). nullopt for an unknown or empty type.
std::optional<PatchType> parsePatchType(std::string_view contentType);

// The accepted media types in the apiserver's order; the strategic type is left out when
// `strategicMergeAllowed` is false (custom resources).
std::vector<std::string_view> acceptedPatchMediaTypes(bool strategicMergeAllowed);

// 415 UnsupportedMediaType: "the body of the request was in an unknown format - accepted
// media types include: <acceptedPatchMediaTypes joined with ", ">".
model::Status unsupportedPatchMediaType(bool strategicMergeAllowed);

// parsePatchType plus the per-resource rule: an unknown type, or the strategic type where
// `strategicMergeAllowed` is false, gives the 415 above.
model::Result<PatchType> patchTypeForRequest(std::string_view contentType, bool strategicMergeAllowed);

} // namespace rvscope::patch
