// SPDX-License-Identifier: MIT
// Durable before visible (DESIGN.md): a get, a list, a watch event or currentRevision reflects
// a commit only once it is durable, and a write's verdict (or a get) that rests on a commit
// not yet durable is not answered before that commit is. Backends without a durability step they can
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

    // A get of a key with a commit on its way waits for it (a linearizable read), so that it
    // returns neither a state that may be lost nor one that is already superseded.
    auto getB = storage->get(configMapKey("b"));
    auto getA = storage->get(configMapKey("a"));
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
    QVERIFY(!getA.isReady());
    QVERIFY(!getB.isReady());

    QVERIFY(holdDurability(*storage, false));
    QCOMPARE(rvOf(run(std::move(getB)).value()), before + 1);
    QCOMPARE(dataOf(run(std::move(getA)).value(), "n"), std::string("1"));
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
    auto gone = storage->get(configMapKey("a"));
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
    QVERIFY(!gone.isReady());
    QVERIFY(run(storage->get(configMapKey("never"))).error().code == 404); // nothing pending: at once

    QVERIFY(holdDurability(*storage, false));
    QVERIFY(run(std::move(created)));
    QVERIFY(run(std::move(removed)));
    QCOMPARE(run(std::move(gone)).error().code, 404);
    QCOMPARE(run(std::move(exists)).error().code, 409);
    QCOMPARE(run(std::move(notFound)).error().code, 404);
    QCOMPARE(run(std::move(updateMissing)).error().code, 404);
}
