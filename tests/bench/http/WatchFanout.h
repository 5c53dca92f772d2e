// SPDX-License-Identifier: MIT
#pragma once

#include <string>

// The watch fan-out workload: W long-lived watch streams on their own connections, and a
// few writers changing one object in a closed loop for a fixed time. Everything runs on one
// thread with epoll (the machine running the servers is small; a second client thread would
// take CPU from them).
namespace rvscope::bench::http {

enum class WatchServer {
    Rvscope, // GET .../configmaps?watch=true&resourceVersion=<list rv>, chunked JSON lines
    Etcd,    // POST /v3/watch {"create_request":{...}}, the gateway's streamed JSON messages
};

struct WatchOptions {
    int watchers = 1000;
    int writers = 4;
    // A writer sends its next write after the previous one's response, and only while fewer
    // than this many successful writes have not reached every open watcher yet.
    int maxUndelivered = 8;
    double seconds = 3.0;
    double drainSeconds = 3.0;   // after the window: waiting for the last writes' events
    double openTimeoutSeconds = 20.0;
};

struct WatchResult {
    int requested = 0;
    int opened = 0;          // watches confirmed by the server (200 + headers / created message)
    int closedEarly = 0;     // open watches the server closed before the end
    double seconds = 0;      // the write window
    long writes = 0;         // successful writes sent in the window
    long writeFailures = 0;
    long events = 0;         // events received by all watchers during the window
    long undelivered = 0;    // successful writes some open watcher never received
    double p50Ms = 0;        // write sent -> the last watcher received its event
    double p99Ms = 0;
    std::string error;

    double writesPerSecond() const { return seconds > 0 ? static_cast<double>(writes) / seconds : 0; }
    double eventsPerSecond() const { return seconds > 0 ? static_cast<double>(events) / seconds : 0; }
};

// Runs the workload against the server on 127.0.0.1:port. For rvscope `name` is the
// ConfigMap in namespace default (it must exist); for etcd it is the key.
WatchResult runWatchFanout(WatchServer server, int port, const std::string &name, const WatchOptions &options);

// Raises RLIMIT_NOFILE's soft limit towards the hard limit so that `descriptors` fit; returns
// a note on what was done (empty when nothing was needed).
std::string ensureDescriptorLimit(long descriptors);

} // namespace rvscope::bench::http
