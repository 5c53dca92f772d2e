// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StorageConformance.h"
#include "TestSupport.h"
#include "storage/MemoryStorage.h"

#include <qcoro/qcorotimer.h>

using namespace rvscope;
using storage::MemoryStorage;
using testing::configMap;
using testing::configMapKey;
using testing::run;

// The conformance suite against MemoryStorage, plus what only MemoryStorage has: the
// history bound (`serve --watch-history N`).
class TestMemoryStorage final : public StorageConformance {
    Q_OBJECT

protected:
    std::unique_ptr<storage::Storage> createStorage() override { return std::make_unique<MemoryStorage>(); }

private Q_SLOTS:
    void testStartsAtRevisionOne();
    void testHistoryBoundExpiresOldWatches();
    void testHistoryBoundLimitsExactLists();
    void testPendingUpdateOutlivesStorage();
    void testOldVersionsKeepTheirContent();
    void testColdObjectsKeepTheirBytesOnly();
};

void TestMemoryStorage::testStartsAtRevisionOne()
{
    MemoryStorage storage;
    QCOMPARE(run(storage.currentRevision()).value(), storage::Revision(1));
    QCOMPARE(storage.oldestWatchableRevision(), storage::Revision(1));
    QCOMPARE(run(storage.create(configMapKey("a"), configMap("a"))).value()->resourceVersion(), std::string("2"));
}

void TestMemoryStorage::testHistoryBoundExpiresOldWatches()
{
    MemoryStorage storage(MemoryStorage::Options{3});
    for (int i = 0; i < 6; ++i)
        run(storage.create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    // Revisions 2..7 were committed; the last 3 events (5, 6, 7) remain.
    QCOMPARE(storage.oldestWatchableRevision(), storage::Revision(4));
    std::vector<storage::Revision> seen;
    auto sink = [&seen](const storage::WatchEvent &e) { seen.push_back(e.revision); };
    auto expired = run(storage.watch("/registry/", 3, sink));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    QCOMPARE(expired.error().message, std::string("too old resource version: 3 (4)"));
    auto resumed = run(storage.watch("/registry/", 4, sink));
    QVERIFY(resumed);
    QCOMPARE(seen, (std::vector<storage::Revision>{5, 6, 7}));
}

void TestMemoryStorage::testHistoryBoundLimitsExactLists()
{
    MemoryStorage storage(MemoryStorage::Options{2});
    for (int i = 0; i < 5; ++i)
        run(storage.create(configMapKey("cm-" + std::to_string(i)), configMap("cm"))).value();
    // Revisions 2..6 were committed; events 5 and 6 remain, so the state at 4 can still be
    // rebuilt (undo 5 and 6) but the state at 3 cannot.
    storage::ListOptions options;
    options.revision = 3;
    auto expired = run(storage.list("/registry/", options));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    options.revision = 4;
    auto listed = run(storage.list("/registry/", options));
    QVERIFY(listed);
    QCOMPARE(listed->items.size(), std::size_t(3));
}

void TestMemoryStorage::testPendingUpdateOutlivesStorage()
{
    auto storage = std::make_unique<MemoryStorage>();
    run(storage->create(configMapKey("a"), configMap("a"))).value();
    auto pending = storage->guaranteedUpdate(
        configMapKey("a"), {}, [](model::ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
            co_await QCoro::sleepFor(std::chrono::milliseconds(5));
            model::Object next = *existing;
            next.mutableJson()["data"]["late"] = "yes";
            co_return next;
        });
    auto handle = run(storage->watch("/registry/", 0, [](const storage::WatchEvent &) {}));
    storage.reset();
    auto result = run(std::move(pending));
    QVERIFY(result); // committed into the orphaned state, without touching freed memory
    handle->stop();
}

void TestMemoryStorage::testOldVersionsKeepTheirContent()
{
    // Past the newest events, history keeps versions as bytes only; resuming a watch or
    // listing at an old revision must still see every version's full content.
    MemoryStorage storage;
    const auto start = run(storage.create(configMapKey("hot"), configMap("hot", "default", {{"n", "0"}}))).value();
    const int updates = 600;
    for (int i = 1; i <= updates; ++i) {
        run(storage.guaranteedUpdate(configMapKey("hot"), {},
                                     [i](model::ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
                                         model::Object next = *existing;
                                         next.mutableJson()["data"]["n"] = std::to_string(i);
                                         co_return next;
                                     }))
            .value();
    }
    std::vector<storage::WatchEvent> events;
    const auto from = model::parseResourceVersion(start->resourceVersion()).value();
    auto handle = run(storage.watch("/registry/", from, [&events](const storage::WatchEvent &e) { events.push_back(e); }));
    QVERIFY(handle);
    QCOMPARE(int(events.size()), updates);
    for (int i = 0; i < updates; ++i) {
        QCOMPARE(events[i].object->json()["data"]["n"], std::to_string(i + 1));
        QCOMPARE(events[i].previous->json()["data"]["n"], std::to_string(i));
        QCOMPARE(events[i].object->resourceVersion(), std::to_string(from + i + 1));
        QVERIFY(events[i].object->bytes().find("\"n\":\"" + std::to_string(i + 1) + '"') != std::string::npos);
    }
    // Each version is one object in history, bytes-only or not: an event's previous is the
    // object of the key's event before it, not a second copy.
    for (int i = 1; i < updates; ++i)
        QVERIFY2(events[i].previous.get() == events[i - 1].object.get(), std::to_string(i).c_str());
    storage::ListOptions options;
    options.revision = from + 10;
    auto old = run(storage.list("/registry/", options));
    QVERIFY(old);
    QCOMPARE(old->items.size(), std::size_t(1));
    QCOMPARE(old->items[0]->json()["data"]["n"], "10");
    QCOMPARE(old->items[0]->resourceVersion(), std::to_string(from + 10));
}

// An object untouched for a while costs its encoding only (the goal: <= 3 KB per 1 KB
// object), and reads, selectors and updates of it work without growing its tree back.
void TestMemoryStorage::testColdObjectsKeepTheirBytesOnly()
{
    MemoryStorage storage;
    const model::ObjectPtr cold = run(storage.create(configMapKey("cold"), configMap("cold", "default", {{"k", "v"}}))).value();
    run(storage.create(configMapKey("hot"), configMap("hot"))).value();
    for (int i = 0; i < 300; ++i) {
        auto updated = run(storage.guaranteedUpdate(configMapKey("hot"), {}, [i](model::ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
            model::Object next = *existing;
            next.mutableJson()["data"]["n"] = std::to_string(i);
            co_return next;
        }));
        QVERIFY(updated);
    }
    const model::ObjectPtr got = run(storage.get(configMapKey("cold"))).value();
    QVERIFY(!got->holdsTree());
    QCOMPARE(got->bytes(), cold->bytes());
    storage::ListOptions selecting;
    selecting.predicate = [](const model::Object &object) { return object.name() == "cold" && object.labels().empty(); };
    auto listed = run(storage.list("/registry/", selecting));
    QCOMPARE(listed->items.size(), std::size_t(1));
    QVERIFY(!listed->items[0]->holdsTree());
    QVERIFY(run(storage.get(configMapKey("hot"))).value()->holdsTree()); // recent: still a tree
    auto updated = run(storage.guaranteedUpdate(configMapKey("cold"), {}, [](model::ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
        model::Object next = *existing;
        next.mutableJson()["data"]["k"] = "w";
        co_return next;
    }));
    QVERIFY(updated);
    QCOMPARE(updated->object->json()["data"]["k"].get<std::string>(), std::string("w"));
    QCOMPARE(updated->object->name(), std::string("cold"));
}

QTEST_GUILESS_MAIN(TestMemoryStorage)
#include "TestMemoryStorage.moc"
