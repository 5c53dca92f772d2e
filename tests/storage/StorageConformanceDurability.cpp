// SPDX-License-Identifier: MIT
// Durable before visible (DESIGN.md): a get, a list, a watch event or currentRevision reflects
// a commit only once it is durable, and a write's verdict that rests on a commit not yet
// durable is not answered before that commit is. Backends without a durability step they can
// hold skip these; the kill test (tests/e2e/test_kill_durability.py) covers the crash itself.
#include "StorageConformance.h"

#include "StorageConformanceSupport.h"

using namespace conformance;

bool StorageConformance::holdDurability(Storage &, bool)
{
    return false;
}

void StorageConformance::testNothingIsVisibleBeforeItIsDurable()
{
    auto storage = createStorage();
    mustCreate(*storage, "a", {{"n", "0"}});
    const Revision before = current(*storage);
    Recorder recorder;
    auto watch = run(storage->watch("/registry/", before, recorder.sink()));
    QVERIFY(watch);
    if (!holdDurability(*storage, true))
        QSKIP("this backend has no durability step to hold");

    // Started, committed in memory, waiting for the disk.
    auto created = storage->create(configMapKey("b"), configMap("b"));
    auto updated = storage->guaranteedUpdate(configMapKey("a"), {}, setData("n", "1"));
    QVERIFY(!created.isReady());
    QVERIFY(!updated.isReady());

    QCOMPARE(run(storage->get(configMapKey("b"))).error().code, 404);
    QCOMPARE(dataOf(run(storage->get(configMapKey("a"))).value(), "n"), std::string("0"));
    auto listed = run(storage->list("/registry/", {}));
    QVERIFY(listed);
    QCOMPARE(listed->items.size(), std::size_t(1));
    QCOMPARE(listed->revision, before);
    QCOMPARE(rvOf(listed->items[0]), before);
    QCOMPARE(current(*storage), before);
    QCOMPARE(run(storage->watch("/registry/", before + 1, recorder.sink())).error().code, 504);
    storage::ListOptions atPending;
    atPending.revision = before + 1;
    QCOMPARE(run(storage->list("/registry/", atPending)).error().code, 504);
    Recorder fromZero;
    auto initial = run(storage->watch("/registry/", 0, fromZero.sink()));
    QVERIFY(initial);
    QCOMPARE(fromZero.revisions(), (std::vector<Revision>{before}));
    QVERIFY(recorder.events.empty());

    QVERIFY(holdDurability(*storage, false));
    QVERIFY(run(std::move(created)));
    QVERIFY(run(std::move(updated)));
    QCOMPARE(current(*storage), before + 2);
    QCOMPARE(recorder.revisions(), (std::vector<Revision>{before + 1, before + 2}));
    QCOMPARE(fromZero.revisions(), (std::vector<Revision>{before, before + 1, before + 2}));
    QCOMPARE(run(storage->list("/registry/", {}))->items.size(), std::size_t(2));
}

void StorageConformance::testAVerdictOnACommitNotYetDurableWaitsForIt()
{
    auto storage = createStorage();
    const ObjectPtr a = mustCreate(*storage, "a");
    if (!holdDurability(*storage, true))
        QSKIP("this backend has no durability step to hold");

    auto created = storage->create(configMapKey("b"), configMap("b"));
    auto removed = storage->remove(configMapKey("a"), {});
    // Each of these fails because of a commit that no one may know of yet: the failure would
    // tell of it, so it waits with it.
    auto exists = storage->create(configMapKey("b"), configMap("b"));
    auto gone = storage->get(configMapKey("a")); // a read: the visible state, at once
    Preconditions stale;
    stale.resourceVersion = a->resourceVersion();
    auto notFound = storage->remove(configMapKey("a"), stale);
    auto updateMissing = storage->guaranteedUpdate(configMapKey("a"), {}, setData("n", "1"));
    // A verdict on durable state does not wait.
    auto unrelated = run(storage->remove(configMapKey("never"), {}));
    QCOMPARE(unrelated.error().code, 404);
    QVERIFY(!exists.isReady());
    QVERIFY(!notFound.isReady());
    QVERIFY(!updateMissing.isReady());
    QVERIFY(run(std::move(gone))); // still there as far as anyone can tell

    QVERIFY(holdDurability(*storage, false));
    QVERIFY(run(std::move(created)));
    QVERIFY(run(std::move(removed)));
    QCOMPARE(run(std::move(exists)).error().code, 409);
    QCOMPARE(run(std::move(notFound)).error().code, 404);
    QCOMPARE(run(std::move(updateMissing)).error().code, 404);
}
