// SPDX-License-Identifier: MIT
#include "StorageConformance.h"

#include <qcoro/qcorotimer.h>

#include "StorageConformanceSupport.h"
#include "model/StatusErrors.h"

using namespace conformance;

void StorageConformance::testCreateThenGet()
{
    auto storage = createStorage();
    const Revision before = current(*storage);
    ObjectPtr created = mustCreate(*storage, "foo", {{"a", "1"}});
    QCOMPARE(rvOf(created), before + 1);
    QCOMPARE(current(*storage), before + 1);
    QCOMPARE(created->name(), std::string("foo"));

    auto got = run(storage->get(configMapKey("foo")));
    QVERIFY(got);
    QCOMPARE(got.value()->resourceVersion(), created->resourceVersion());
    QCOMPARE(got.value()->bytes(), created->bytes());
    QCOMPARE(dataOf(got.value(), "a"), std::string("1"));

    // One revision series: the next write anywhere gets the next number.
    ObjectPtr other = mustCreate(*storage, "bar");
    QCOMPARE(rvOf(other), before + 2);
}

void StorageConformance::testCreateExistingKeyFails()
{
    auto storage = createStorage();
    mustCreate(*storage, "foo");
    const Revision before = current(*storage);
    auto again = run(storage->create(configMapKey("foo"), configMap("foo")));
    QVERIFY(!again);
    QCOMPARE(again.error().code, 409);
    QCOMPARE(again.error().storageCode, model::StorageCode::KeyExists);
    QCOMPARE(current(*storage), before);
}

void StorageConformance::testCreateRejectsResourceVersion()
{
    auto storage = createStorage();
    Object object = configMap("foo");
    object.setResourceVersion("7");
    auto created = run(storage->create(configMapKey("foo"), object));
    QVERIFY(!created);
    QCOMPARE(created.error().code, 500);
}

void StorageConformance::testGetMissingKey()
{
    auto storage = createStorage();
    auto got = run(storage->get(configMapKey("nope")));
    QVERIFY(!got);
    QCOMPARE(got.error().code, 404);
    QCOMPARE(got.error().storageCode, model::StorageCode::KeyNotFound);
    QCOMPARE(got.error().storageKey, configMapKey("nope"));
}

void StorageConformance::testRemoveReturnsLastState()
{
    auto storage = createStorage();
    ObjectPtr created = mustCreate(*storage, "foo", {{"a", "1"}});
    auto removed = run(storage->remove(configMapKey("foo"), {}));
    QVERIFY(removed);
    QCOMPARE(removed->object->resourceVersion(), created->resourceVersion());
    QCOMPARE(removed->revision, rvOf(created) + 1);
    QCOMPARE(current(*storage), rvOf(created) + 1);
    QCOMPARE(run(storage->get(configMapKey("foo"))).error().code, 404);

    auto again = run(storage->remove(configMapKey("foo"), {}));
    QVERIFY(!again);
    QCOMPARE(again.error().storageCode, model::StorageCode::KeyNotFound);
}

void StorageConformance::testRemovePreconditions_data()
{
    QTest::addColumn<bool>("useUid");
    QTest::addColumn<bool>("stale");
    QTest::addColumn<QString>("message");
    QTest::newRow("wrong uid") << true << true
                               << "Precondition failed: UID in precondition: other-uid, UID in object meta: uid-1";
    QTest::newRow("stale resourceVersion") << false << true
                                           << "Precondition failed: ResourceVersion in precondition: %1, "
                                              "ResourceVersion in object meta: %2";
    QTest::newRow("matching uid") << true << false << QString();
    QTest::newRow("matching resourceVersion") << false << false << QString();
}

void StorageConformance::testRemovePreconditions()
{
    QFETCH(bool, useUid);
    QFETCH(bool, stale);
    QFETCH(QString, message);
    auto storage = createStorage();
    Object object = configMap("foo");
    object.setUid("uid-1");
    ObjectPtr first = run(storage->create(configMapKey("foo"), object)).value();
    ObjectPtr second = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "2"))).value().object;

    Preconditions preconditions;
    if (useUid)
        preconditions.uid = stale ? "other-uid" : "uid-1";
    else
        preconditions.resourceVersion = stale ? first->resourceVersion() : second->resourceVersion();
    auto removed = run(storage->remove(configMapKey("foo"), preconditions));
    if (!stale) {
        QVERIFY(removed);
        return;
    }
    QVERIFY(!removed);
    QCOMPARE(removed.error().code, 409);
    QCOMPARE(removed.error().storageCode, model::StorageCode::InvalidObj);
    const QString expected = useUid ? message
                                    : message.arg(QString::fromStdString(first->resourceVersion()),
                                                  QString::fromStdString(second->resourceVersion()));
    QCOMPARE(QString::fromStdString(removed.error().message),
             QStringLiteral("StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/foo, "
                            "ResourceVersion: 0, AdditionalErrorMsg: ")
                 + expected);
    QVERIFY(run(storage->get(configMapKey("foo"))));
}

void StorageConformance::testRemoveValidateDeletion()
{
    auto storage = createStorage();
    mustCreate(*storage, "foo");
    auto refused = run(storage->remove(configMapKey("foo"), {}, [](const Object &) {
        return std::optional<model::Status>(model::errors::forbidden("not now"));
    }));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 403);
    QVERIFY(run(storage->get(configMapKey("foo"))));
}

void StorageConformance::testListPrefixOrderAndRevision()
{
    auto storage = createStorage();
    for (const char *name : {"c", "a", "b"})
        mustCreate(*storage, name);
    run(storage->create("/registry/configmaps/default2/x", configMap("x", "default2"))).value();
    run(storage->create("/registry/secrets/default/a", configMap("a"))).value();

    auto listed = run(storage->list("/registry/configmaps/default/", {}));
    QVERIFY(listed);
    QCOMPARE(listed->items.size(), std::size_t(3));
    QCOMPARE(listed->items[0]->name(), std::string("a"));
    QCOMPARE(listed->items[1]->name(), std::string("b"));
    QCOMPARE(listed->items[2]->name(), std::string("c"));
    QCOMPARE(listed->revision, current(*storage));
    QVERIFY(listed->continueKey.empty());

    auto all = run(storage->list("/registry/configmaps/", {}));
    QCOMPARE(all->items.size(), std::size_t(4));
    auto none = run(storage->list("/registry/pods/", {}));
    QVERIFY(none);
    QVERIFY(none->items.empty());
}

void StorageConformance::testListPagingIsConsistent()
{
    auto storage = createStorage();
    for (int i = 0; i < 7; ++i)
        mustCreate(*storage, "cm-" + std::to_string(i), {{"v", "0"}});
    storage::ListOptions options;
    options.limit = 3;
    auto page1 = run(storage->list("/registry/configmaps/default/", options));
    QVERIFY(page1);
    QCOMPARE(page1->items.size(), std::size_t(3));
    QVERIFY(!page1->continueKey.empty());
    QCOMPARE(page1->remainingItemCount.value_or(-1), std::int64_t(4));

    // Writes between pages must not show through: the next pages read the first page's revision.
    run(storage->guaranteedUpdate(configMapKey("cm-5"), {}, setData("v", "changed"))).value();
    run(storage->remove(configMapKey("cm-4"), {})).value();
    mustCreate(*storage, "cm-45");

    std::vector<std::string> names;
    for (const auto &item : page1->items)
        names.push_back(item->name());
    options.revision = page1->revision;
    options.startKey = page1->continueKey;
    for (;;) {
        auto page = run(storage->list("/registry/configmaps/default/", options));
        QVERIFY(page);
        QCOMPARE(page->revision, page1->revision);
        for (const auto &item : page->items) {
            names.push_back(item->name());
            QCOMPARE(dataOf(item, "v"), std::string("0"));
        }
        if (page->continueKey.empty())
            break;
        options.startKey = page->continueKey;
    }
    QCOMPARE(names, (std::vector<std::string>{"cm-0", "cm-1", "cm-2", "cm-3", "cm-4", "cm-5", "cm-6"}));
}

void StorageConformance::testListPredicate()
{
    auto storage = createStorage();
    for (int i = 0; i < 6; ++i)
        mustCreate(*storage, "cm-" + std::to_string(i), {{"even", i % 2 == 0 ? "yes" : "no"}});
    storage::ListOptions options;
    options.predicate = [](const Object &o) { return o.json()["data"]["even"] == "yes"; };
    options.limit = 2;
    auto page = run(storage->list("/registry/configmaps/default/", options));
    QVERIFY(page);
    QCOMPARE(page->items.size(), std::size_t(2));
    QCOMPARE(page->items[0]->name(), std::string("cm-0"));
    QCOMPARE(page->items[1]->name(), std::string("cm-2"));
    QVERIFY(!page->remainingItemCount.has_value());
    options.startKey = page->continueKey;
    options.revision = page->revision;
    auto rest = run(storage->list("/registry/configmaps/default/", options));
    QCOMPARE(rest->items.size(), std::size_t(1));
    QCOMPARE(rest->items[0]->name(), std::string("cm-4"));
}

void StorageConformance::testListAtOldRevision()
{
    auto storage = createStorage();
    mustCreate(*storage, "a", {{"v", "1"}});
    mustCreate(*storage, "b", {{"v", "1"}});
    const Revision snapshot = current(*storage);
    run(storage->guaranteedUpdate(configMapKey("a"), {}, setData("v", "2"))).value();
    run(storage->remove(configMapKey("b"), {})).value();
    mustCreate(*storage, "c");

    storage::ListOptions options;
    options.revision = snapshot;
    auto old = run(storage->list("/registry/configmaps/default/", options));
    QVERIFY(old);
    QCOMPARE(old->revision, snapshot);
    QCOMPARE(old->items.size(), std::size_t(2));
    QCOMPARE(old->items[0]->name(), std::string("a"));
    QCOMPARE(dataOf(old->items[0], "v"), std::string("1"));
    QCOMPARE(old->items[1]->name(), std::string("b"));

    auto now = run(storage->list("/registry/configmaps/default/", {}));
    QCOMPARE(now->items.size(), std::size_t(2));
    QCOMPARE(now->items[1]->name(), std::string("c"));
}

void StorageConformance::testListRevisionOutOfRange()
{
    auto storage = createStorage();
    mustCreate(*storage, "a");
    mustCreate(*storage, "b");
    const Revision now = current(*storage);
    storage::ListOptions future;
    future.revision = now + 5;
    auto tooNew = run(storage->list("/registry/", future));
    QVERIFY(!tooNew);
    QCOMPARE(tooNew.error().code, 504);
    QCOMPARE(tooNew.error().message, "Too large resource version: " + std::to_string(now + 5) + ", current: "
                                         + std::to_string(now));

    run(storage->compact(now)).value();
    storage::ListOptions old;
    old.revision = now - 2;
    auto tooOld = run(storage->list("/registry/", old));
    QVERIFY(!tooOld);
    QCOMPARE(tooOld.error().code, 410);
    QCOMPARE(tooOld.error().reason, std::string("Expired"));
    QCOMPARE(tooOld.error().message, std::string("The resourceVersion for the provided list is too old."));
}

void StorageConformance::testGuaranteedUpdateCommits()
{
    auto storage = createStorage();
    ObjectPtr created = mustCreate(*storage, "foo", {{"a", "1"}});
    ObjectPtr seen;
    auto updated = run(storage->guaranteedUpdate(
        configMapKey("foo"), {}, [&seen](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            seen = existing;
            Object next = *existing;
            next.mutableJson()["data"]["b"] = "2";
            co_return next;
        }));
    QVERIFY(updated);
    QCOMPARE(seen->resourceVersion(), created->resourceVersion());
    QCOMPARE(rvOf(updated->object), rvOf(created) + 1);
    QCOMPARE(updated->retries, 0);
    QVERIFY(!updated->noop);
    QCOMPARE(dataOf(updated->object, "a"), std::string("1"));
    QCOMPARE(dataOf(updated->object, "b"), std::string("2"));
    QCOMPARE(run(storage->get(configMapKey("foo"))).value()->bytes(), updated->object->bytes());
}

void StorageConformance::testGuaranteedUpdateNoopWritesNothing()
{
    auto storage = createStorage();
    ObjectPtr created = mustCreate(*storage, "foo", {{"a", "1"}});
    Recorder recorder;
    auto handle = run(storage->watch("/registry/", rvOf(created), recorder.sink()));
    QVERIFY(handle);

    auto same = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "1")));
    QVERIFY(same);
    QVERIFY(same->noop);
    QCOMPARE(same->object->resourceVersion(), created->resourceVersion());
    QCOMPARE(current(*storage), rvOf(created));

    // Whatever resourceVersion the update carries, the storage owns it: still a no-op.
    auto stamped = run(storage->guaranteedUpdate(
        configMapKey("foo"), {}, [](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            Object next = *existing;
            next.setResourceVersion("12345");
            co_return next;
        }));
    QVERIFY(stamped->noop);
    QCOMPARE(current(*storage), rvOf(created));
    QVERIFY(recorder.events.empty());
}

void StorageConformance::testGuaranteedUpdatePreconditions_data()
{
    QTest::addColumn<bool>("useUid");
    QTest::newRow("uid") << true;
    QTest::newRow("resourceVersion") << false;
}

void StorageConformance::testGuaranteedUpdatePreconditions()
{
    QFETCH(bool, useUid);
    auto storage = createStorage();
    Object object = configMap("foo");
    object.setUid("uid-1");
    ObjectPtr created = run(storage->create(configMapKey("foo"), object)).value();
    Preconditions wrong;
    Preconditions right;
    if (useUid) {
        wrong.uid = "uid-2";
        right.uid = "uid-1";
    } else {
        wrong.resourceVersion = "1";
        right.resourceVersion = created->resourceVersion();
    }
    bool called = false;
    auto refused = run(storage->guaranteedUpdate(
        configMapKey("foo"), wrong, [&called](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            called = true;
            co_return *existing;
        }));
    QVERIFY(!refused);
    QVERIFY(!called);
    QCOMPARE(refused.error().storageCode, model::StorageCode::InvalidObj);
    QVERIFY(run(storage->guaranteedUpdate(configMapKey("foo"), right, setData("x", "y"))));
}

void StorageConformance::testGuaranteedUpdateStaleSuggestionIsRechecked()
{
    auto storage = createStorage();
    ObjectPtr stale = mustCreate(*storage, "foo", {{"a", "1"}});
    ObjectPtr fresh = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "2"))).value().object;

    // Preconditions that fail on the stale suggestion but hold for the stored object pass.
    Preconditions preconditions;
    preconditions.resourceVersion = fresh->resourceVersion();
    std::vector<std::string> seenVersions;
    auto updated = run(storage->guaranteedUpdate(
        configMapKey("foo"), preconditions,
        [&seenVersions](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            seenVersions.push_back(existing->resourceVersion());
            Object next = *existing;
            next.mutableJson()["data"]["b"] = "3";
            co_return next;
        },
        stale));
    QVERIFY(updated);
    QCOMPARE(seenVersions, std::vector<std::string>{fresh->resourceVersion()});
    QCOMPARE(dataOf(updated->object, "a"), std::string("2"));

    // A tryUpdate error computed from the stale copy is re-evaluated against the fresh one.
    const std::string latest = updated->object->resourceVersion();
    int calls = 0;
    auto rechecked = run(storage->guaranteedUpdate(
        configMapKey("foo"), {},
        [&calls, latest](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            ++calls;
            if (existing->resourceVersion() != latest)
                co_return model::errors::conflict({"", "configmaps"}, "foo", "stale");
            Object next = *existing;
            next.mutableJson()["data"]["c"] = "4";
            co_return next;
        },
        stale));
    QVERIFY(rechecked);
    QCOMPARE(calls, 2);
    QCOMPARE(rechecked->retries, 0);
}

void StorageConformance::testGuaranteedUpdateStaleNoopIsRedone()
{
    auto storage = createStorage();
    ObjectPtr stale = mustCreate(*storage, "foo", {{"a", "1"}});
    run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "2"))).value();
    // Setting a=1 is a no-op on the stale copy but a real change of the stored object.
    auto updated = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "1"), stale));
    QVERIFY(updated);
    QVERIFY(!updated->noop);
    QCOMPARE(dataOf(updated->object, "a"), std::string("1"));
    QCOMPARE(rvOf(updated->object), current(*storage));
}

void StorageConformance::testGuaranteedUpdateErrorPropagates()
{
    auto storage = createStorage();
    ObjectPtr created = mustCreate(*storage, "foo");
    auto refused = run(storage->guaranteedUpdate(
        configMapKey("foo"), {}, [](ObjectPtr) -> QCoro::Task<model::Result<Object>> {
            co_return model::errors::conflict({"", "configmaps"}, "foo", model::errors::OPTIMISTIC_LOCK_ERROR_MSG);
        }));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 409);
    QCOMPARE(refused.error().storageCode, model::StorageCode::None);
    QCOMPARE(refused.error().message,
             std::string("Operation cannot be fulfilled on configmaps \"foo\": the object has been modified; please "
                         "apply your changes to the latest version and try again"));
    QCOMPARE(current(*storage), rvOf(created));
}

void StorageConformance::testGuaranteedUpdateMissingKey()
{
    auto storage = createStorage();
    auto missing = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "1")));
    QVERIFY(!missing);
    QCOMPARE(missing.error().storageCode, model::StorageCode::KeyNotFound);

    auto created = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "1"), {}, true));
    QVERIFY(created);
    QVERIFY(created->created);
    QCOMPARE(rvOf(created->object), current(*storage));
    QVERIFY(run(storage->get(configMapKey("foo"))));
}

void StorageConformance::testGuaranteedUpdateRetriesAfterConcurrentCommit()
{
    auto storage = createStorage();
    mustCreate(*storage, "foo", {{"log", ""}});
    // The first update waits inside tryUpdate (like an admission webhook) while a second one
    // commits; its compare-and-swap must fail, and it must redo its work on the new state.
    int slowCalls = 0;
    auto slow = storage->guaranteedUpdate(
        configMapKey("foo"), {}, [&slowCalls](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            ++slowCalls;
            Object next = *existing;
            const std::string log = dataOf(existing, "log");
            co_await QCoro::sleepFor(std::chrono::milliseconds(20));
            next.mutableJson()["data"]["log"] = log + "slow;";
            co_return next;
        });
    auto fast = run(storage->guaranteedUpdate(
        configMapKey("foo"), {}, [](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            Object next = *existing;
            next.mutableJson()["data"]["log"] = dataOf(existing, "log") + "fast;";
            co_return next;
        }));
    QVERIFY(fast);
    auto slowResult = run(std::move(slow));
    QVERIFY(slowResult);
    QCOMPARE(slowResult->retries, 1);
    QCOMPARE(slowCalls, 2);
    QCOMPARE(dataOf(slowResult->object, "log"), std::string("fast;slow;"));
}
