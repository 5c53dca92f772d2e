// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "sim/ClientSpec.h"
#include "sim/CompetingClient.h"

namespace rvscope::sim {

class Clock;
class Transport;

// Totals of a finished (or stopped) workload, on the clients' clock.
struct WorkloadSummary final {
    std::string strategy;
    int clients = 0;
    int operationsDone = 0;
    int succeeded = 0;
    int failed = 0;
    int attempts = 0;
    int conflicts = 0;
    int retries = 0;
    int errors = 0;
    std::int64_t durationNs = 0;
    std::int64_t p50LatencyNs = 0;
    std::int64_t p99LatencyNs = 0;

    double throughputPerSecond() const
    {
        return durationNs > 0 ? static_cast<double>(succeeded) * 1e9 / static_cast<double>(durationNs) : 0.0;
    }
};

// A group of competing clients from one ClientSpec: creates the target ConfigMaps (counter
// "0") when missing, starts every client at once and finishes when all have. Client i gets
// the seed spec.seed * 1000003 + i, so a workload is reproducible on a VirtualClock.
// Core thread only; hold it by shared_ptr while run() is in flight.
class Workload final : public std::enable_shared_from_this<Workload> {
public:
    Workload(std::shared_ptr<Transport> transport, std::shared_ptr<Clock> clock, ClientSpec spec);

    QCoro::Task<> run();
    void stop();
    bool finished() const { return m_finished; }
    const ClientSpec &spec() const { return m_spec; }
    std::vector<ClientCounters> counters() const;
    WorkloadSummary summary() const;

private:
    QCoro::Task<> createObjects();

    std::shared_ptr<Transport> m_transport;
    std::shared_ptr<Clock> m_clock;
    ClientSpec m_spec;
    std::vector<std::shared_ptr<CompetingClient>> m_clients;
    std::int64_t m_startNs = 0;
    std::int64_t m_endNs = 0;
    bool m_finished = false;
    bool m_stopped = false;
};

} // namespace rvscope::sim
