// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace rvscope::faults {

// Shell-style matching of a whole text: '*' is any run of characters (none included), '?'
// exactly one; everything else stands for itself. "*" matches the empty text.
bool globMatches(std::string_view pattern, std::string_view text);

} // namespace rvscope::faults
