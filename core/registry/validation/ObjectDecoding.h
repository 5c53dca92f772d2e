// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include "model/Object.h"
#include "model/Status.h"
#include "patch/PatchType.h"

namespace rvscope::registry {

// What the apiserver's typed decoding rejects before any validation runs: JSON values of the
// wrong type in the fields every object shares (metadata.*, and spec/status, which are
// objects on every type rvscope serves). 400 BadRequest in upstream's words:
// `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array
// into Go struct field ObjectMeta.metadata.labels of type map[string]string`.
std::optional<model::Status> checkDecodable(const model::Object &object, const std::string &kind,
                                            const std::string &apiVersion);

// The same check on the result of a PATCH of `type`, answered as patch.go answers it: 422
// Invalid ` "" is invalid: patch: Invalid value: "...": <why>`. A strategic merge (or apply)
// result fails in the unstructured converter (`cannot restore map from string`, the value
// being the patch printed as Go prints a map); a JSON or merge patch result fails in
// encoding/json (the value being the patched JSON).
std::optional<model::Status> checkPatchedDecodable(const nlohmann::json &patched, const std::string &kind,
                                                   patch::PatchType type, const nlohmann::json &patch);

} // namespace rvscope::registry
