// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "api/ApiTypes.h"
#include "registry/ResourceType.h"

// Times and types for the Table output tests (TestTableOutput, TestTablePrinters).
namespace rvscope::testing {

constexpr std::int64_t NOW = 1'800'000'000;

// An RFC 3339 UTC time `t` seconds since the epoch.
inline std::string stamp(std::int64_t t)
{
    char text[32];
    const std::int64_t days = t / 86400;
    // civil from days (Howard Hinnant), for the test's own timestamps
    std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    std::int64_t y = yoe + era * 400;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    const std::int64_t s = t % 86400;
    std::snprintf(text, sizeof text, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", (long long)y, (long long)m,
                  (long long)d, (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60));
    return text;
}

inline std::string ago(std::int64_t seconds)
{
    return stamp(NOW - seconds);
}

// For Tables made now (tableJson reads the clock).
inline std::string realAgo(std::int64_t seconds)
{
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return stamp(std::chrono::duration_cast<std::chrono::seconds>(now).count() - seconds);
}

inline api::ApiRequest accepting(const std::string &accept, const std::string &includeObject = {})
{
    api::ApiRequest request;
    request.method = "GET";
    request.headers["accept"] = accept;
    if (!includeObject.empty())
        request.query["includeObject"] = includeObject;
    return request;
}

inline registry::ResourceType typeOf(const std::string &kind)
{
    registry::ResourceType type;
    type.kind = kind;
    return type;
}

inline const std::string KUBECTL = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
                            "g=meta.k8s.io,application/json";
} // namespace rvscope::testing
