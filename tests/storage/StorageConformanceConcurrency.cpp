// SPDX-License-Identifier: MIT
#include "StorageConformance.h"

#include <chrono>
#include <random>

#include <qcoro/qcorotimer.h>

#include "StorageConformanceSupport.h"
#include "model/StatusErrors.h"

using namespace conformance;

namespace {

// Calls every storage entry point from inside a coroutine with `{}` options in the co_await
// expression: the pattern g++ 12 miscompiles for aggregate parameter types.
QCoro::Task<std::size_t> bracedCalls(Storage &storage)
{
    auto listed = co_await storage.list("/registry/configmaps/default/", {}); // coroutine-args: ok
    auto updated = co_await storage.guaranteedUpdate(configMapKey("a"), {}, setData("x", "1")); // coroutine-args: ok
    auto removed = co_await storage.remove(configMapKey("a"), {}); // coroutine-args: ok
    co_return listed->items.size() + (updated ? 1 : 0) + (removed ? 1 : 0);
}

} // namespace

void StorageConformance::testCoroutineCallersMayPassBracedOptions()
{
    auto storage = createStorage();
    mustCreate(*storage, "a");
    QCOMPARE(run(bracedCalls(*storage)), std::size_t(3));
}

namespace {

// A client that increments data.counter `ops` times, through guaranteedUpdate, with a random
// pause inside tryUpdate so that other clients commit in between.
QCoro::Task<int> incrementer(Storage &storage, int ops, unsigned seed)
{
    std::mt19937 random(seed);
    int retries = 0;
    for (int i = 0; i < ops; ++i) {
        const int pauseUs = std::uniform_int_distribution<int>(0, 1500)(random);
        storage::TryUpdate increment = [pauseUs](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            const int value = std::stoi(dataOf(existing, "counter"));
            co_await QCoro::sleepFor(std::chrono::microseconds(pauseUs));
            Object next = *existing;
            next.mutableJson()["data"]["counter"] = std::to_string(value + 1);
            co_return next;
        };
        auto result = co_await storage.guaranteedUpdate(configMapKey("counter"), Preconditions(), std::move(increment));
        if (!result)
            qFatal("update failed: %s", result.error().message.c_str());
        retries += result->retries;
    }
    co_return retries;
}

// A client-side optimistic loop: GET, think, write with the read resourceVersion as a
// precondition, and on conflict start again from a fresh GET.
QCoro::Task<int> optimisticClient(Storage &storage, int ops, unsigned seed)
{
    std::mt19937 random(seed);
    int conflicts = 0;
    for (int i = 0; i < ops;) {
        auto read = co_await storage.get(configMapKey("counter"));
        const ObjectPtr seen = read.value();
        co_await QCoro::sleepFor(std::chrono::microseconds(std::uniform_int_distribution<int>(0, 1500)(random)));
        Preconditions preconditions;
        preconditions.resourceVersion = seen->resourceVersion();
        const int value = std::stoi(dataOf(seen, "counter"));
        storage::TryUpdate increment = [value](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            Object next = *existing;
            next.mutableJson()["data"]["counter"] = std::to_string(value + 1);
            co_return next;
        };
        auto written = co_await storage.guaranteedUpdate(configMapKey("counter"), preconditions, std::move(increment));
        if (written) {
            ++i;
        } else if (written.error().storageCode == model::StorageCode::InvalidObj) {
            ++conflicts;
        } else {
            qFatal("unexpected error: %s", written.error().message.c_str());
        }
    }
    co_return conflicts;
}

template <typename Client>
QCoro::Task<int> raceClients(Storage &storage, int clients, int ops, Client client)
{
    std::vector<QCoro::Task<int>> tasks;
    for (int c = 0; c < clients; ++c)
        tasks.push_back(client(storage, ops, 1000u + static_cast<unsigned>(c)));
    int total = 0;
    for (auto &task : tasks)
        total += co_await std::move(task);
    co_return total;
}

// Checks the watch saw 1, 2, 3, ... N in consecutive revisions: no lost and no extra write.
void verifyCounterHistory(const Recorder &recorder, int expectedFinal)
{
    QCOMPARE(static_cast<int>(recorder.events.size()), expectedFinal);
    for (std::size_t i = 0; i < recorder.events.size(); ++i) {
        QCOMPARE(dataOf(recorder.events[i].object, "counter"), std::to_string(i + 1));
        if (i > 0)
            QCOMPARE(recorder.events[i].revision, recorder.events[i - 1].revision + 1);
    }
}

} // namespace

void StorageConformance::testConcurrentGuaranteedUpdatesLoseNothing()
{
    auto storage = createStorage();
    ObjectPtr start = mustCreate(*storage, "counter", {{"counter", "0"}});
    Recorder recorder;
    auto handle = run(storage->watch("/registry/", rvOf(start), recorder.sink()));
    const int clients = 12;
    const int ops = 15;
    const int retries = run(raceClients(*storage, clients, ops, incrementer));
    QVERIFY2(retries > 0, "the clients never overlapped; the race did not happen");
    QCOMPARE(dataOf(run(storage->get(configMapKey("counter"))).value(), "counter"), std::to_string(clients * ops));
    verifyCounterHistory(recorder, clients * ops);
}

void StorageConformance::testConcurrentOptimisticClientsLoseNothing()
{
    auto storage = createStorage();
    ObjectPtr start = mustCreate(*storage, "counter", {{"counter", "0"}});
    Recorder recorder;
    auto handle = run(storage->watch("/registry/", rvOf(start), recorder.sink()));
    const int clients = 8;
    const int ops = 15;
    const int conflicts = run(raceClients(*storage, clients, ops, optimisticClient));
    QVERIFY2(conflicts > 0, "no conflicts: the clients never raced");
    QCOMPARE(dataOf(run(storage->get(configMapKey("counter"))).value(), "counter"), std::to_string(clients * ops));
    verifyCounterHistory(recorder, clients * ops);
}
