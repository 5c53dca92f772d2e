// SPDX-License-Identifier: MIT
#include "ServeOptionTable.h"

#include <functional>

namespace rvscope::app {
namespace {
using engine::EngineOptions;

constexpr qulonglong MAX_COUNT = 100'000'000;

// A flag that sets a count of `what`, 0 meaning no bound.
Option<EngineOptions> countOption(const QString &flag, const QString &what, const QString &help,
                                  std::function<std::size_t &(EngineOptions &)> field)
{
    return {flag, QStringLiteral("N"), help,
            [flag, what, field](EngineOptions &o, const QString &value) {
                bool ok = false;
                const qulonglong n = value.toULongLong(&ok);
                if (!ok || n > MAX_COUNT)
                    return QStringLiteral("%1 expects a number of %2 from 0 (no bound) to %3, got '%4'")
                        .arg(flag, what, number(MAX_COUNT), value);
                field(o) = static_cast<std::size_t>(n);
                return QString();
            },
            [field](const EngineOptions &defaults) {
                EngineOptions copy = defaults;
                return number(field(copy));
            }};
}

// A flag that sets a period of 100ms to 1h, in milliseconds; `examples` name a few.
Option<EngineOptions> timeoutOption(const QString &flag, const QString &examples, const QString &help,
                                    std::function<int &(EngineOptions &)> field)
{
    return {flag, QStringLiteral("PERIOD"), help,
            [flag, examples, field](EngineOptions &o, const QString &value) {
                const int ms = periodMs(value, 100, 3'600'000);
                if (ms < 0)
                    return QStringLiteral("%1 expects a period such as %2 (100ms to 1h), got '%3'").arg(flag, examples, value);
                field(o) = ms;
                return QString();
            },
            [field](const EngineOptions &defaults) {
                EngineOptions copy = defaults;
                return periodText(field(copy));
            }};
}
} // namespace

// The bounds that keep one client from taking the server: past each, a 429 TooManyRequests
// Status with Retry-After, and everyone else goes on being served.
const OptionTable<EngineOptions> &limitOptions()
{
    static const OptionTable<EngineOptions> table = {
        countOption(QStringLiteral("--max-connections"), QStringLiteral("connections"),
                    QStringLiteral("Open connections (WebSockets included); one more gets 429 to its first request "
                                   "and is closed (0: no bound)."),
                    [](EngineOptions &o) -> std::size_t & { return o.serverLimits.maxConnections; }),
        countOption(QStringLiteral("--max-requests-inflight"), QStringLiteral("requests"),
                    QStringLiteral("Non-mutating requests being handled at once, watches left out, as the apiserver's "
                                   "flag; one more gets 429 (0: no bound)."),
                    [](EngineOptions &o) -> std::size_t & { return o.serverLimits.maxRequestsInFlight; }),
        countOption(QStringLiteral("--max-mutating-requests-inflight"), QStringLiteral("requests"),
                    QStringLiteral("POST, PUT, PATCH and DELETE requests being handled at once (0: no bound)."),
                    [](EngineOptions &o) -> std::size_t & { return o.serverLimits.maxMutatingRequestsInFlight; }),
        countOption(QStringLiteral("--max-watches-per-user"), QStringLiteral("watches"),
                    QStringLiteral("Open watches and bulk channels of one user; one more gets 429 (0: only the "
                                   "overall bound)."),
                    [](EngineOptions &o) -> std::size_t & { return o.maxWatchesPerUser; }),
        countOption(QStringLiteral("--max-bulk-channels"), QStringLiteral("channels"),
                    QStringLiteral("Open channels of one bulk watch session; one more gets 429 on that channel."),
                    [](EngineOptions &o) -> std::size_t & { return o.serverLimits.maxBulkChannels; }),
        countOption(QStringLiteral("--max-user-request-rate"), QStringLiteral("requests per second"),
                    QStringLiteral("Requests per second of one user, a second's worth in a burst; past it 429 with "
                                   "the seconds to wait in Retry-After (0: no bound)."),
                    [](EngineOptions &o) -> std::size_t & { return o.userRequestsPerSecond; }),
        timeoutOption(QStringLiteral("--request-head-timeout"), QStringLiteral("32s or 500ms"),
                      QStringLiteral("A connection whose request head is not complete this long after it opened (or "
                                     "after a later request's first byte) is closed, as the apiserver's "
                                     "ReadHeaderTimeout (100ms to 1h)."),
                      [](EngineOptions &o) -> int & { return o.serverLimits.requestHeadTimeoutMs; }),
        timeoutOption(QStringLiteral("--request-timeout"), QStringLiteral("1m, 60s or 500ms"),
                      QStringLiteral("A request body not complete this long after its head is answered 504 Timeout "
                                     "and its connection closed, as the apiserver's flag of that name times a "
                                     "request whose handler still reads its body (100ms to 1h)."),
                      [](EngineOptions &o) -> int & { return o.serverLimits.requestTimeoutMs; }),
    };
    return table;
}

} // namespace rvscope::app
