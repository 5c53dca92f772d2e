// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "RegistryTestSupport.h"
#include "api/ApiHandler.h"
#include "history/Journal.h"
#include "sim/Clock.h"
#include "sim/KubeClient.h"
#include "sim/Transport.h"

// A core as the engine builds it (registry, API handler, journal fed by the handler's
// reports) with an in-process transport and a virtual clock.
namespace rvscope::testing {

struct SimFixture {
    RegistryFixture registryFixture;
    std::shared_ptr<api::ApiHandler> handler;
    std::shared_ptr<history::Journal> journal = std::make_shared<history::Journal>();
    std::shared_ptr<sim::InProcessTransport> transport;
    std::shared_ptr<sim::VirtualClock> clock = std::make_shared<sim::VirtualClock>();

    SimFixture()
    {
        std::shared_ptr<registry::Registry> registry(registryFixture.registry.get(), [](registry::Registry *) {});
        handler = std::make_shared<api::ApiHandler>(registry);
        handler->setObserver([journal = journal](const api::OperationReport &report) { return journal->record(report); });
        transport = std::make_shared<sim::InProcessTransport>(handler);
    }

    // Drives a coroutine on the virtual clock to its end.
    template<typename T>
    T drive(QCoro::Task<T> task)
    {
        clock->runUntilIdle();
        return run(std::move(task));
    }
    void drive(QCoro::Task<> task)
    {
        clock->runUntilIdle();
        run(std::move(task));
    }

    nlohmann::json configMap(const std::string &name)
    {
        sim::KubeClient reader(transport, "test", "");
        sim::KubeResponse got = run(reader.get(sim::ObjectRef("configmaps", "default", name)));
        return got.body;
    }

    std::int64_t counter(const std::string &name)
    {
        return std::stoll(configMap(name)["data"]["counter"].get<std::string>());
    }
};

} // namespace rvscope::testing
