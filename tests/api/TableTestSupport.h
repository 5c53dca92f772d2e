// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include <QtCore/QDateTime>

#include "api/ApiTypes.h"
#include "registry/ResourceType.h"

// Times and types for the Table output tests (TestTableOutput, TestTablePrinters).
namespace rvscope::testing {

constexpr std::int64_t NOW = 1'800'000'000;

// An RFC 3339 UTC time `t` seconds since the epoch ("2027-01-15T08:00:00Z").
inline std::string stamp(std::int64_t t)
{
    return QDateTime::fromSecsSinceEpoch(t, Qt::UTC).toString(Qt::ISODate).toStdString();
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
