// SPDX-License-Identifier: MIT
#include "api/UserRateLimit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/StatusErrors.h"

namespace rvscope::api {
namespace {
constexpr double NS_PER_SECOND = 1e9;
// Past this many users, those whose bucket has filled up again are forgotten (they are as
// a new user would be), so that many one-off users cannot grow the table without end.
constexpr std::size_t MAX_TRACKED_USERS = 10'000;
} // namespace

std::optional<model::Status> UserRateLimit::admit(const std::string &user, std::int64_t nowNs)
{
    if (m_rate <= 0)
        return std::nullopt;
    if (m_buckets.size() >= MAX_TRACKED_USERS && !m_buckets.contains(user))
        forgetIdleUsers(nowNs);
    auto [it, added] = m_buckets.try_emplace(user);
    Bucket &bucket = it->second;
    if (added) {
        bucket.tokens = m_rate;
    } else {
        const double elapsed = double(std::max<std::int64_t>(0, nowNs - bucket.lastNs)) / NS_PER_SECOND;
        bucket.tokens = std::min(m_rate, bucket.tokens + elapsed * m_rate);
    }
    bucket.lastNs = nowNs;
    if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return std::nullopt;
    }
    const int retryAfter = std::max(1, int(std::ceil((1 - bucket.tokens) / m_rate)));
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", m_rate);
    return model::errors::tooManyRequests("too many requests from user \"" + user + "\" (more than " + rate
                                              + " per second), please try again later",
                                          retryAfter);
}

void UserRateLimit::forgetIdleUsers(std::int64_t nowNs)
{
    std::erase_if(m_buckets, [&](const auto &entry) {
        const double elapsed = double(nowNs - entry.second.lastNs) / NS_PER_SECOND;
        return entry.second.tokens + elapsed * m_rate >= m_rate;
    });
}

} // namespace rvscope::api
