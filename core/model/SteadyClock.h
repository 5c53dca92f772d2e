// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>

namespace rvscope::model {

// Monotonic nanoseconds, the time base of every journaled operation and watch delivery.
inline std::int64_t steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace rvscope::model
