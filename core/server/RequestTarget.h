// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include "api/ApiTypes.h"

namespace rvscope::server {

// The target of a request line, as Go's url.ParseRequestURI and the apiserver read it: "*",
// an absolute path, or an absolute URL (whose scheme and authority are no part of the
// path); no control byte, and no broken '%' escape in the path. The path is percent-decoded
// ('+' kept), and the query goes through api::parseQueryString with a broken escape in it
// kept as sent (`limit=%zz` is a bad limit, not a pair Go would drop). Returns the error
// for a target Go refuses (answered 400), or "" with `request`'s path and query set.
std::string readRequestTarget(std::string_view target, api::ApiRequest &request);

} // namespace rvscope::server
