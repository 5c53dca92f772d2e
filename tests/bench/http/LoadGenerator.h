// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "HttpConnection.h"

// Drives N concurrent clients, one keep-alive connection each, from one thread with poll().
// Each client runs a ClientScript: a small state machine that issues the requests of one
// operation (e.g. read, then compare-and-swap, retried on conflict) and judges responses.
namespace rvscope::bench::http {

class ClientScript {
public:
    enum class Step {
        Continue,  // the operation goes on: send nextRequest()
        Succeeded, // the operation completed; the next one starts with nextRequest()
        Conflicted, // a write lost an optimistic-concurrency race; the script retries
        Failed,    // unexpected response: counted, the next operation starts
    };
    virtual ~ClientScript() = default;
    virtual std::string nextRequest() = 0;
    virtual Step handleResponse(const HttpResponse &response) = 0;
};

struct LoadResult {
    double seconds = 0;
    long succeeded = 0;
    long conflicts = 0;
    long failures = 0;
    long requests = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    std::string error; // set when the load could not run at all (e.g. connect failed)

    double opsPerSecond() const { return seconds > 0 ? static_cast<double>(succeeded) / seconds : 0; }
    // Fraction of write attempts that conflicted.
    double conflictRate() const
    {
        const long attempts = succeeded + conflicts;
        return attempts > 0 ? static_cast<double>(conflicts) / static_cast<double>(attempts) : 0;
    }
};

// Runs `clients` scripts made by `makeScript(index)` against 127.0.0.1:port for `seconds`.
// Latency is per successful operation, from its first request to its success, retries
// included. Operations still in flight at the deadline are not counted.
LoadResult runLoad(int port, int clients, double seconds,
                   const std::function<std::unique_ptr<ClientScript>(int)> &makeScript);

} // namespace rvscope::bench::http
