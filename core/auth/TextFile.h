// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include "model/Result.h"

namespace rvscope::auth {

// The whole content of the configuration file at `path` (a token file, a policy file). A
// missing, unreadable or non-regular file (a directory) is a 400 BadRequest:
// `unable to read <what> "<path>": <reason>`. Any thread.
model::Result<std::string> readTextFile(const std::string &path, std::string_view what);

} // namespace rvscope::auth
