// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "model/Status.h"

namespace rvscope::api {

// Requests per second each user may send (`serve --max-user-request-rate`): a token bucket
// per user that holds one second's worth, so a burst up to the rate passes and a sustained
// flood is answered 429 with the seconds until the next request would pass as Retry-After.
// One user's flood leaves every other user's requests alone. Off (rate 0) by default, as
// the apiserver has no such bound of its own. Core thread only.
class UserRateLimit final {
public:
    void setRate(double requestsPerSecond) { m_rate = requestsPerSecond; }
    bool enabled() const { return m_rate > 0; }
    // The 429 for one more request of `user` at `nowNs` (steady clock), or nullopt.
    std::optional<model::Status> admit(const std::string &user, std::int64_t nowNs);

private:
    struct Bucket {
        double tokens = 0;
        std::int64_t lastNs = 0;
    };
    void forgetIdleUsers(std::int64_t nowNs);

    double m_rate = 0;
    std::unordered_map<std::string, Bucket> m_buckets;
};

} // namespace rvscope::api
