// SPDX-License-Identifier: MIT
// Storage benchmark: rvscope's MemoryStorage against a minimal in-process baseline (a plain
// map, a revision counter and one JSON serialization per update), side by side in one run.
#include <cstdio>
#include <map>
#include <unordered_map>

#include <unistd.h>

#include <QtCore/QCoreApplication>

#include "BenchHarness.h"
#include "TestSupport.h"
#include "storage/MemoryStorage.h"

using namespace rvscope;
using model::Object;
using model::ObjectPtr;

namespace {

constexpr std::size_t OBJECT_BYTES = 1024;

// What the simplest possible store does for an update: mutate in place, bump a counter,
// serialize once.
struct BaselineStore {
    struct Entry {
        nlohmann::json json;
        std::string bytes;
    };
    std::map<std::string, Entry> data;
    std::int64_t revision = 1;

    void put(const std::string &key, nlohmann::json json)
    {
        Entry &entry = data[key];
        entry.json = std::move(json);
        entry.json["metadata"]["resourceVersion"] = std::to_string(++revision);
        entry.bytes = entry.json.dump();
    }
    const std::string &update(const std::string &key, long value)
    {
        Entry &entry = data.find(key)->second;
        entry.json["data"]["counter"] = std::to_string(value);
        entry.json["metadata"]["resourceVersion"] = std::to_string(++revision);
        entry.bytes = entry.json.dump();
        return entry.bytes;
    }
};

std::string keyOf(long i)
{
    return testing::configMapKey("cm-" + std::to_string(i));
}

Object sizedObject(long i)
{
    Object object = testing::configMapOfSize("cm-" + std::to_string(i), OBJECT_BYTES);
    object.mutableJson()["data"]["counter"] = "0";
    return object;
}

storage::TryUpdate setCounter(long value)
{
    return [value](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
        Object next = *existing;
        next.mutableJson()["data"]["counter"] = std::to_string(value);
        co_return next;
    };
}

QCoro::Task<> updateLoop(storage::Storage &storage, long n, long keys, long &counter)
{
    for (long i = 0; i < n; ++i) {
        ++counter;
        auto result = co_await storage.guaranteedUpdate(keyOf(counter % keys), storage::Preconditions(),
                                                        setCounter(counter));
        if (!result)
            qFatal("update failed: %s", result.error().message.c_str());
    }
}

QCoro::Task<> getLoop(storage::Storage &storage, long n, long keys, std::size_t &sink)
{
    for (long i = 0; i < n; ++i) {
        auto result = co_await storage.get(keyOf(i % keys));
        sink += result.value()->bytes().size();
    }
}

QCoro::Task<> listLoop(storage::Storage &storage, long n, std::size_t &sink)
{
    for (long i = 0; i < n; ++i) {
        auto result = co_await storage.list("/registry/configmaps/default/", storage::ListOptions());
        std::string body = R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":")"
            + std::to_string(result->revision) + R"("},"items":[)";
        std::size_t size = body.size() + 2;
        for (const ObjectPtr &item : result->items)
            size += item->bytes().size() + 1;
        body.reserve(size);
        for (std::size_t k = 0; k < result->items.size(); ++k) {
            if (k > 0)
                body += ',';
            body += result->items[k]->bytes();
        }
        body += "]}";
        sink += body.size();
    }
}

std::string baselineList(const BaselineStore &store)
{
    std::string body = R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":")"
        + std::to_string(store.revision) + R"("},"items":[)";
    std::size_t size = body.size() + 2;
    for (const auto &[key, entry] : store.data)
        size += entry.bytes.size() + 1;
    body.reserve(size);
    bool first = true;
    for (const auto &[key, entry] : store.data) {
        if (!first)
            body += ',';
        first = false;
        body += entry.bytes;
    }
    body += "]}";
    return body;
}

void populate(storage::MemoryStorage &storage, BaselineStore &baseline, long keys)
{
    for (long i = 0; i < keys; ++i) {
        Object object = sizedObject(i);
        baseline.put(keyOf(i), object.json());
        testing::run(storage.create(keyOf(i), std::move(object))).value();
    }
}

void benchUpdates(const bench::Options &options, long keys, const char *name)
{
    if (!bench::selected(options, name))
        return;
    storage::MemoryStorage storage(storage::MemoryStorage::Options{10000});
    BaselineStore baseline;
    populate(storage, baseline, keys);
    long ours = 0;
    long base = 0;
    std::size_t sink = 0;
    bench::print(bench::compare(
        name, options, [&](long n) { QCoro::waitFor(updateLoop(storage, n, keys, ours)); },
        [&](long n) {
            for (long i = 0; i < n; ++i) {
                ++base;
                sink += baseline.update(keyOf(base % keys), base).size();
            }
        },
        0.5));
}

void benchGets(const bench::Options &options)
{
    const long keys = 10000;
    if (!bench::selected(options, "get, 10k keys"))
        return;
    storage::MemoryStorage storage;
    BaselineStore baseline;
    populate(storage, baseline, keys);
    std::size_t sink = 0;
    bench::print(bench::compare(
        "get, 10k keys", options, [&](long n) { QCoro::waitFor(getLoop(storage, n, keys, sink)); },
        [&](long n) {
            for (long i = 0; i < n; ++i)
                sink += baseline.data.find(keyOf(i % keys))->second.bytes.size();
        }));
}

void benchList(const bench::Options &options)
{
    const long keys = 10000;
    if (!bench::selected(options, "list 10k"))
        return;
    storage::MemoryStorage storage;
    BaselineStore baseline;
    populate(storage, baseline, keys);
    std::size_t sink = 0;
    auto comparison = bench::compare(
        "list 10k x 1 KB objects into a response body", options,
        [&](long n) { QCoro::waitFor(listLoop(storage, n, sink)); },
        [&](long n) {
            for (long i = 0; i < n; ++i)
                sink += baselineList(baseline).size();
        },
        1.0 / 3.0);
    comparison.unit = "lists/s";
    bench::print(comparison);
}

void benchWatch(const bench::Options &options, int watchers)
{
    const std::string name = "watch events delivered, " + std::to_string(watchers) + " watchers";
    if (!bench::selected(options, name))
        return;
    storage::MemoryStorage storage;
    BaselineStore baseline;
    populate(storage, baseline, 1);
    std::size_t delivered = 0;
    std::vector<storage::WatchHandle> handles;
    const storage::Revision now = testing::run(storage.currentRevision()).value();
    for (int w = 0; w < watchers; ++w) {
        handles.push_back(testing::run(storage.watch("/registry/configmaps/", now, [&delivered](
                                                                                      const storage::WatchEvent &e) {
                              delivered += e.object->bytes().size() > 0;
                          })).value());
    }
    // The baseline fan-out: the same update, then one shared event to N callbacks.
    std::vector<std::function<void(const std::string &)>> sinks(
        static_cast<std::size_t>(watchers), [&delivered](const std::string &bytes) { delivered += !bytes.empty(); });
    long ours = 0;
    long base = 0;
    auto comparison = bench::compare(
        name, options,
        [&](long n) {
            const long updates = std::max(1L, n / watchers);
            QCoro::waitFor(updateLoop(storage, updates, 1, ours));
        },
        [&](long n) {
            const long updates = std::max(1L, n / watchers);
            for (long i = 0; i < updates; ++i) {
                const std::string &bytes = baseline.update(keyOf(0), ++base);
                for (auto &sink : sinks)
                    sink(bytes);
            }
        });
    comparison.unit = "events/s";
    bench::print(comparison);
}

// Resident memory of this process, in bytes.
std::size_t residentBytes()
{
    long pages = 0;
    long resident = 0;
    if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(statm);
    }
    return std::size_t(resident) * std::size_t(sysconf(_SC_PAGESIZE));
}

// What 100k stored ~1 KB ConfigMaps cost resident (issue goal: <= 3 KB each), beside the
// baseline map holding each object's tree and bytes. Cold objects keep their bytes only.
void benchMemory(const bench::Options &options)
{
    if (!bench::selected(options, "memory"))
        return;
    const long objects = options.smoke ? 2000 : 100000;
    std::size_t ours = 0;
    {
        const std::size_t before = residentBytes();
        storage::MemoryStorage storage;
        for (long i = 0; i < objects; ++i)
            testing::run(storage.create(keyOf(i), sizedObject(i))).value();
        ours = residentBytes() - before;
    }
    std::size_t theirs = 0;
    {
        const std::size_t before = residentBytes();
        BaselineStore baseline;
        for (long i = 0; i < objects; ++i)
            baseline.put(keyOf(i), sizedObject(i).json());
        theirs = residentBytes() - before;
    }
    std::printf("memory, %ld objects of ~%zu B: MemoryStorage %.0f B per object, baseline map (tree + bytes) "
                "%.0f B per object, ratio %.2f (goal <= 3072 B per object: %s)\n",
                objects, OBJECT_BYTES, double(ours) / double(objects), double(theirs) / double(objects),
                double(ours) / double(std::max<std::size_t>(theirs, 1)),
                double(ours) / double(objects) <= 3072 ? "ok" : "MISS");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const bench::Options options = bench::parseOptions(argc, argv);
    std::printf("rvscope storage benchmark: MemoryStorage vs a plain map + revision counter + one JSON\n"
                "serialization per update; ~%zu-byte ConfigMaps; %d alternating rounds: medians of each, and\n"
                "the median of the rounds' ratios (pairs: their spread).\n",
                OBJECT_BYTES, options.smoke ? 1 : options.rounds);
    bench::printHeader("storage");
    benchUpdates(options, 1, "guaranteedUpdate, one hot key");
    benchUpdates(options, 10000, "guaranteedUpdate, 10k distinct keys");
    benchGets(options);
    benchList(options);
    for (int watchers : {1, 100, 1000})
        benchWatch(options, watchers);
    benchMemory(options);
    return 0;
}
