// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/Status.h"

// The error Statuses shared by the patch appliers. Each one says which HTTP answer the
// apiserver gives for the same failure, so that clients see the same code and text.
namespace rvscope::patch {

// 422 Invalid, message exactly "the server rejected our request due to an error in our
// request", no details. This is errors.NewGenericServerResponse(422, ...) as patch.go builds
// it for a JSON patch op that cannot be applied (failed `test`, missing path) and for a
// strategic merge patch holding a list of lists. Upstream drops the underlying error text, so
// this does too.
model::Status unprocessablePatch();

// Renders a JSON value for an error message without throwing, even on invalid UTF-8.
std::string describeJson(const nlohmann::json &value);

// The name Go's encoding/json gives a JSON value's type in "cannot unmarshal <type> into ..."
// messages: "object", "array", "string", "number", "bool" or "null".
const char *goJsonTypeName(const nlohmann::json &value);

} // namespace rvscope::patch
