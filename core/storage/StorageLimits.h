// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace rvscope::storage {

// Change events a storage keeps for watch and resume (`serve --watch-history N`); a watch
// from an older revision gets 410 Expired.
inline constexpr std::size_t DEFAULT_WATCH_HISTORY = 10000;

} // namespace rvscope::storage
