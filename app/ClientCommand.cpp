// SPDX-License-Identifier: MIT
#include "ClientCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>
#include <QtCore/QUrl>
#include <nlohmann/json.hpp>
#include <qcoro/qcorotask.h>

#include "sim/Clock.h"
#include "sim/HttpTransport.h"
#include "sim/KubeClient.h"
#include "sim/Workload.h"

namespace rvscope::app {
namespace {

QCoro::Task<int> run(ClientOptions options, sim::ClientSpec spec)
{
    auto transport = std::make_shared<sim::HttpTransport>(QUrl(options.server));
    // Reachability first: a wrong URL is one clear line, not a thousand failed requests.
    api::ApiRequest probe;
    probe.method = "GET";
    probe.path = "/version";
    const api::ApiResponse version = co_await transport->send(std::move(probe));
    if (version.status == 0) {
        std::fprintf(stderr, "rvscope client: cannot reach %s: %s\n", qPrintable(options.server), version.body.c_str());
        co_return 1;
    }
    auto workload = std::make_shared<sim::Workload>(transport, std::make_shared<sim::RealClock>(), spec);
    co_await workload->run();
    const sim::WorkloadSummary summary = workload->summary();
    if (!options.json) {
        for (const sim::ClientCounters &client : workload->counters())
            std::printf("%s: %d landed, %d gave up, %d × 409, %d retries, %d other errors\n", client.clientId.c_str(),
                        client.succeeded, client.failed, client.conflicts, client.retries, client.errors);
        std::printf("%d %s clients: %d increments landed in %.2f s (%.0f/s), p50 %.1f ms, p99 %.1f ms, %d conflicts\n",
                    summary.clients, summary.strategy.c_str(), summary.succeeded,
                    static_cast<double>(summary.durationNs) / 1e9, summary.throughputPerSecond(),
                    static_cast<double>(summary.p50LatencyNs) / 1e6, static_cast<double>(summary.p99LatencyNs) / 1e6,
                    summary.conflicts);
    }
    const nlohmann::json line = {{"strategy", summary.strategy},   {"clients", summary.clients},
                                 {"succeeded", summary.succeeded}, {"failed", summary.failed},
                                 {"attempts", summary.attempts},   {"conflicts", summary.conflicts},
                                 {"retries", summary.retries},     {"errors", summary.errors},
                                 {"durationNs", summary.durationNs}, {"throughput", summary.throughputPerSecond()},
                                 {"p50Ns", summary.p50LatencyNs},  {"p99Ns", summary.p99LatencyNs}};
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
    co_return 0;
}

} // namespace

int runClientCommand(const ClientOptions &options)
{
    nlohmann::json json = {{"clients", options.clients},
                           {"strategy", options.strategy.toStdString()},
                           {"objects", options.objects},
                           {"objectPrefix", options.objectPrefix.toStdString()},
                           {"operations", options.operations},
                           {"thinkTime", options.thinkTime.toStdString()},
                           {"seed", options.seed},
                           {"namePrefix", options.namePrefix.toStdString()}};
    auto spec = sim::ClientSpec::fromJson(json);
    if (!spec) {
        std::fprintf(stderr, "rvscope client: %s\n", spec.error().message.c_str());
        return 2;
    }
    return QCoro::waitFor(run(options, *spec));
}

} // namespace rvscope::app
