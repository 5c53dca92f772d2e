// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/ApiTypes.h"
#include "model/Result.h"
#include "registry/ListOptions.h"
#include "registry/StoreTypes.h"

// Query parameters (and DELETE bodies) into registry options, with the apiserver's parsing
// rules: booleans as Go's strconv.ParseBool, unknown parameters ignored (kubectl sends
// `timeout=32s`), malformed values a 400.
namespace rvscope::api {

// "1 t T TRUE true True" / "0 f F FALSE false False"; anything else is nullopt.
std::optional<bool> parseGoBool(const std::string &text);

// ListOptions of a list or watch; a malformed `watch` parameter is a 400 too.
model::Result<registry::ListOptions> listOptionsFrom(const ApiRequest &request);
// The `watch` parameter (false when absent).
model::Result<bool> isWatchRequest(const ApiRequest &request);
// A GET's resourceVersion (GetOptions): the revision its answer must be at least as new as;
// 0 when absent, "" or "0" (any). One that is no revision is a 400, as for a list.
model::Result<std::int64_t> getResourceVersionFrom(const ApiRequest &request);
model::Result<registry::WriteOptions> writeOptionsFrom(const ApiRequest &request);
// DeleteOptions from the JSON body (kubectl) or the query (Python sends no body).
model::Result<registry::DeleteOptions> deleteOptionsFrom(const ApiRequest &request);

} // namespace rvscope::api
