// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "sim/ClientSpec.h"
#include "sim/KubeClient.h"

namespace rvscope::sim {

class Clock;

// Live counters of one client (requests as it sent them; the journal has the details).
struct ClientCounters final {
    std::string clientId;
    std::string strategy;
    int operationsDone = 0;   // increments attempted to completion (succeeded or given up)
    int succeeded = 0;        // increments that landed
    int failed = 0;           // increments given up (409 without retry, retries exhausted, errors)
    int attempts = 0;         // write requests sent
    int conflicts = 0;        // 409 responses
    int retries = 0;          // client-side retries (re-read and write again)
    int errors = 0;           // other non-2xx responses
    std::vector<std::int64_t> latenciesNs; // per increment, start to end on the client's clock
    bool finished = false;
};

// One competing client: `operations` times, pick an object, read it, think, and write
// counter + 1 with its strategy, exactly as the real client library would:
//   raw-put         GET; think; PUT(rv)              409 → give up
//   retry-*         OnError(backoff, IsConflict, GET; think; PUT(rv))
//   blind-put       GET; think; PUT(no rv)           never 409; overwrites
//   merge-patch     GET; think; PATCH {"data":{counter}} never 409; overwrites
//   json-patch-test GET; think; PATCH [test old, replace new]; 422 → OnError(DefaultRetry)
//   merge-patch-rv  OnError(DefaultRetry, IsConflict, GET; think; PATCH {metadata.rv, data})
//   apply           GET; think; apply {data.counter} as field manager <client id>; 409 → give up
//   apply-force     GET; think; apply with force=true     never 409; overwrites
//   apply-rv        OnError(DefaultRetry, IsConflict, GET; think; forced apply {metadata.rv, data})
//   lease           acquire Lease "<object>-lock" (create, or CAS of an empty holder),
//                   polling every 1-2 ms while held; GET; think; PUT(rv); release (CAS holder "")
// Deterministic given the seed and a VirtualClock. Core thread only. stop() makes run()
// return at its next wait; the object must outlive run() (hold it by shared_ptr).
class CompetingClient final : public std::enable_shared_from_this<CompetingClient> {
public:
    CompetingClient(std::shared_ptr<Transport> transport, std::shared_ptr<Clock> clock, std::string clientId,
                    ClientSpec spec, std::uint64_t seed);

    QCoro::Task<> run();
    void stop() { m_stopped = true; }
    bool stopped() const { return m_stopped; }
    const ClientCounters &counters() const { return m_counters; }

private:
    QCoro::Task<bool> increment(ObjectRef ref);
    QCoro::Task<bool> readModifyWrite(ObjectRef ref, bool conditional);
    QCoro::Task<bool> patchOnce(ObjectRef ref, bool withResourceVersion);
    QCoro::Task<bool> jsonPatchOnce(ObjectRef ref);
    QCoro::Task<bool> withLease(ObjectRef ref);
    // Runs `attempt` until it returns true or a non-retriable failure, sleeping Backoff
    // steps between tries like client-go's retry.OnError. `retriableStatus` is 409 or 422.
    QCoro::Task<bool> retrying(Backoff backoff, int retriableStatus, ObjectRef ref, int kind);
    QCoro::Task<bool> attemptOnce(int kind, ObjectRef ref);
    QCoro::Task<> think();
    void countWrite(const KubeResponse &response);

    KubeClient m_client;
    std::shared_ptr<Clock> m_clock;
    ClientSpec m_spec;
    std::mt19937_64 m_random;
    ClientCounters m_counters;
    int m_lastStatus = 0;
    bool m_stopped = false;
};

} // namespace rvscope::sim
