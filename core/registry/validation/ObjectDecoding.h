// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

#include "model/Object.h"
#include "model/Status.h"

namespace rvscope::registry {

// What the apiserver's typed decoding rejects before any validation runs: JSON values of the
// wrong type in the fields every object shares (metadata.*, and spec/status, which are
// objects on every type rvscope serves). 400 BadRequest in upstream's words:
// `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array
// into Go struct field ObjectMeta.metadata.labels of type map[string]string`.
std::optional<model::Status> checkDecodable(const model::Object &object, const std::string &kind,
                                            const std::string &apiVersion);

} // namespace rvscope::registry
