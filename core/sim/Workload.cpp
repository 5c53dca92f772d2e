// SPDX-License-Identifier: MIT
#include "sim/Workload.h"

#include <algorithm>

#include "sim/Clock.h"
#include "sim/KubeClient.h"

namespace rvscope::sim {
namespace {

std::int64_t percentile(std::vector<std::int64_t> &values, double fraction)
{
    if (values.empty())
        return 0;
    const auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
    return values[index];
}

} // namespace

Workload::Workload(std::shared_ptr<Transport> transport, std::shared_ptr<Clock> clock, ClientSpec spec)
    : m_transport(std::move(transport))
    , m_clock(std::move(clock))
    , m_spec(std::move(spec))
{
}

QCoro::Task<> Workload::run()
{
    auto self = shared_from_this();
    m_startNs = m_clock->nowNs();
    co_await createObjects();
    std::vector<QCoro::Task<>> running;
    for (int i = 0; i < m_spec.clients && !m_stopped; ++i) {
        auto client = std::make_shared<CompetingClient>(m_transport, m_clock, m_spec.namePrefix + std::to_string(i + 1),
                                                        m_spec, m_spec.seed * 1000003ULL + static_cast<std::uint64_t>(i));
        m_clients.push_back(client);
        running.push_back(client->run());
    }
    for (auto &task : running)
        co_await std::move(task);
    m_endNs = m_clock->nowNs();
    m_finished = true;
}

QCoro::Task<> Workload::createObjects()
{
    KubeClient setup(m_transport, "setup", "");
    for (const std::string &key : m_spec.objectKeys()) {
        const ObjectRef ref = *ObjectRef::parse(key);
        KubeResponse existing = co_await setup.get(ref);
        if (existing.ok())
            continue;
        nlohmann::json object = {{"apiVersion", "v1"},
                                 {"kind", "ConfigMap"},
                                 {"metadata", {{"name", ref.name}, {"namespace", ref.namespaceName}}},
                                 {"data", {{"counter", "0"}}}};
        co_await setup.create(ref, std::move(object));
    }
}

void Workload::stop()
{
    m_stopped = true;
    for (const auto &client : m_clients)
        client->stop();
}

std::vector<ClientCounters> Workload::counters() const
{
    std::vector<ClientCounters> all;
    all.reserve(m_clients.size());
    for (const auto &client : m_clients)
        all.push_back(client->counters());
    return all;
}

WorkloadSummary Workload::summary() const
{
    WorkloadSummary summary;
    summary.strategy = strategyName(m_spec.strategy);
    summary.clients = static_cast<int>(m_clients.size());
    std::vector<std::int64_t> latencies;
    for (const auto &client : m_clients) {
        const ClientCounters &c = client->counters();
        summary.operationsDone += c.operationsDone;
        summary.succeeded += c.succeeded;
        summary.failed += c.failed;
        summary.attempts += c.attempts;
        summary.conflicts += c.conflicts;
        summary.retries += c.retries;
        summary.errors += c.errors;
        latencies.insert(latencies.end(), c.latenciesNs.begin(), c.latenciesNs.end());
    }
    summary.durationNs = (m_finished ? m_endNs : m_clock->nowNs()) - m_startNs;
    summary.p50LatencyNs = percentile(latencies, 0.50);
    summary.p99LatencyNs = percentile(latencies, 0.99);
    return summary;
}

} // namespace rvscope::sim
