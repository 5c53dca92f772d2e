// SPDX-License-Identifier: MIT
#include "StorageConformance.h"

#include <chrono>
#include <random>

#include <QtTest/QtTest>
#include <qcoro/qcorotimer.h>

#include "TestSupport.h"
#include "model/StatusErrors.h"

using namespace rvscope;
using model::Object;
using model::ObjectPtr;
using storage::Preconditions;
using storage::Revision;
using storage::Storage;
using storage::WatchEvent;
using storage::WatchEventType;
using testing::configMap;
using testing::configMapKey;
using testing::run;

namespace {

// Records watch events (copies: sinks receive references valid only during the call).
struct Recorder {
    std::vector<WatchEvent> events;
    storage::WatchSink sink()
    {
        return [this](const WatchEvent &event) { events.push_back(event); };
    }
    std::vector<Revision> revisions() const
    {
        std::vector<Revision> result;
        for (const auto &e : events)
            result.push_back(e.revision);
        return result;
    }
};

storage::TryUpdate setData(std::string field, std::string value)
{
    return [field, value](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
        Object next = existing ? *existing : configMap("created");
        next.mutableJson()["data"][field] = value;
        co_return next;
    };
}

std::string dataOf(const ObjectPtr &object, const std::string &field)
{
    const auto &data = object->json()["data"];
    return data.contains(field) ? data[field].get<std::string>() : std::string();
}

Revision rvOf(const ObjectPtr &object)
{
    return model::parseResourceVersion(object->resourceVersion()).value_or(-1);
}

ObjectPtr mustCreate(Storage &storage, const std::string &name, std::map<std::string, std::string> data = {})
{
    auto created = run(storage.create(configMapKey(name), configMap(name, "default", data)));
    if (!created)
        qFatal("create %s failed: %s", name.c_str(), created.error().message.c_str());
    return created.value();
}

Revision current(Storage &storage)
{
    return run(storage.currentRevision()).value();
}

} // namespace

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

void StorageConformance::testWatchDeliversEveryChangeInOrder()
{
    auto storage = createStorage();
    const Revision start = current(*storage);
    Recorder recorder;
    auto handle = run(storage->watch("/registry/configmaps/", start, recorder.sink()));
    QVERIFY(handle);
    ObjectPtr created = mustCreate(*storage, "foo", {{"a", "1"}});
    ObjectPtr updated = run(storage->guaranteedUpdate(configMapKey("foo"), {}, setData("a", "2"))).value().object;
    auto removed = run(storage->remove(configMapKey("foo"), {})).value();

    QCOMPARE(recorder.events.size(), std::size_t(3));
    QCOMPARE(recorder.events[0].type, WatchEventType::Added);
    QCOMPARE(recorder.events[0].object->bytes(), created->bytes());
    QCOMPARE(recorder.events[1].type, WatchEventType::Modified);
    QCOMPARE(recorder.events[1].object->bytes(), updated->bytes());
    QCOMPARE(recorder.events[1].previous->resourceVersion(), created->resourceVersion());
    QCOMPARE(recorder.events[2].type, WatchEventType::Deleted);
    // DELETED carries the last state stamped with the deletion's revision.
    QCOMPARE(rvOf(recorder.events[2].object), removed.revision);
    QCOMPARE(dataOf(recorder.events[2].object, "a"), std::string("2"));
    QCOMPARE(recorder.revisions(), (std::vector<Revision>{start + 1, start + 2, start + 3}));
    for (const auto &event : recorder.events)
        QCOMPARE(rvOf(event.object), event.revision);
}

void StorageConformance::testWatchFromZeroStartsWithCurrentState()
{
    auto storage = createStorage();
    ObjectPtr a = mustCreate(*storage, "a");
    ObjectPtr b = mustCreate(*storage, "b");
    run(storage->create("/registry/secrets/default/s", configMap("s"))).value();
    Recorder recorder;
    auto handle = run(storage->watch("/registry/configmaps/", 0, recorder.sink()));
    QVERIFY(handle);
    QCOMPARE(recorder.events.size(), std::size_t(2));
    QCOMPARE(recorder.events[0].type, WatchEventType::Added);
    QCOMPARE(recorder.events[0].object->name(), std::string("a"));
    QCOMPARE(recorder.events[0].revision, rvOf(a));
    QCOMPARE(recorder.events[1].revision, rvOf(b));
    ObjectPtr c = mustCreate(*storage, "c");
    QCOMPARE(recorder.events.size(), std::size_t(3));
    QCOMPARE(recorder.events[2].revision, rvOf(c));
}

void StorageConformance::testWatchResumesFromAnyRevision()
{
    auto storage = createStorage();
    std::vector<Revision> committed;
    for (int i = 0; i < 6; ++i)
        committed.push_back(rvOf(mustCreate(*storage, "cm-" + std::to_string(i))));
    for (std::size_t from = 0; from < committed.size(); ++from) {
        Recorder recorder;
        auto handle = run(storage->watch("/registry/configmaps/", committed[from], recorder.sink()));
        QVERIFY(handle);
        std::vector<Revision> expected(committed.begin() + from + 1, committed.end());
        QCOMPARE(recorder.revisions(), expected);
    }
}

void StorageConformance::testWatchFiltersByPrefix()
{
    auto storage = createStorage();
    Recorder defaults;
    Recorder secrets;
    const Revision start = current(*storage);
    auto h1 = run(storage->watch("/registry/configmaps/default/", start, defaults.sink()));
    auto h2 = run(storage->watch("/registry/secrets/", start, secrets.sink()));
    mustCreate(*storage, "a");
    run(storage->create("/registry/configmaps/other/b", configMap("b", "other"))).value();
    run(storage->create("/registry/secrets/default/s", configMap("s"))).value();
    QCOMPARE(defaults.events.size(), std::size_t(1));
    QCOMPARE(defaults.events[0].key, configMapKey("a"));
    QCOMPARE(secrets.events.size(), std::size_t(1));
    QCOMPARE(secrets.events[0].revision, start + 3);
}

void StorageConformance::testWatchTooOldAfterCompaction()
{
    auto storage = createStorage();
    const Revision start = current(*storage);
    for (int i = 0; i < 5; ++i)
        mustCreate(*storage, "cm-" + std::to_string(i));
    const Revision compactAt = start + 4;
    QCOMPARE(run(storage->compact(compactAt)).value(), compactAt);

    Recorder recorder;
    auto tooOld = run(storage->watch("/registry/", start + 1, recorder.sink()));
    QVERIFY(!tooOld);
    QCOMPARE(tooOld.error().code, 410);
    QCOMPARE(tooOld.error().reason, std::string("Expired"));
    QCOMPARE(tooOld.error().message, "too old resource version: " + std::to_string(start + 1) + " ("
                                         + std::to_string(compactAt - 1) + ")");
    // The oldest revision still served resumes without gaps.
    auto resumed = run(storage->watch("/registry/", compactAt - 1, recorder.sink()));
    QVERIFY(resumed);
    QCOMPARE(recorder.revisions(), (std::vector<Revision>{compactAt, compactAt + 1}));
}

void StorageConformance::testWatchFutureRevision()
{
    auto storage = createStorage();
    const Revision now = current(*storage);
    Recorder recorder;
    auto future = run(storage->watch("/registry/", now + 10, recorder.sink()));
    QVERIFY(!future);
    QCOMPARE(future.error().code, 504);
}

void StorageConformance::testWatchStopsWhenHandleDropped()
{
    auto storage = createStorage();
    Recorder recorder;
    {
        auto handle = run(storage->watch("/registry/", current(*storage), recorder.sink()));
        QVERIFY(handle);
        mustCreate(*storage, "a");
        QCOMPARE(recorder.events.size(), std::size_t(1));
    }
    mustCreate(*storage, "b");
    QCOMPARE(recorder.events.size(), std::size_t(1));

    auto handle = run(storage->watch("/registry/", current(*storage), recorder.sink()));
    handle->stop();
    QVERIFY(!handle->active());
    mustCreate(*storage, "c");
    QCOMPARE(recorder.events.size(), std::size_t(1));
}

void StorageConformance::testWatchSinkMayWrite()
{
    auto storage = createStorage();
    const Revision start = current(*storage);
    Storage *raw = storage.get();
    // The first watcher reacts to "a" by creating "b" from inside its sink; the second
    // watcher must still see a before b, each once.
    std::vector<storage::WatchHandle> handles;
    Recorder first;
    Recorder second;
    handles.push_back(run(raw->watch("/registry/", start, [&first, raw](const WatchEvent &event) {
                             first.events.push_back(event);
                             if (event.object->name() == "a")
                                 run(raw->create(configMapKey("b"), configMap("b"))).value();
                         })).value());
    handles.push_back(run(raw->watch("/registry/", start, second.sink())).value());
    mustCreate(*storage, "a");
    QCOMPARE(first.revisions(), (std::vector<Revision>{start + 1, start + 2}));
    QCOMPARE(second.revisions(), (std::vector<Revision>{start + 1, start + 2}));
}

void StorageConformance::testCompaction()
{
    auto storage = createStorage();
    const Revision start = current(*storage);
    mustCreate(*storage, "a");
    auto tooNew = run(storage->compact(start + 5));
    QVERIFY(!tooNew);
    QCOMPARE(tooNew.error().code, 504);
    QVERIFY(run(storage->compact(start + 1)));
    // Compaction forgets history, never current data.
    QVERIFY(run(storage->get(configMapKey("a"))));
    QCOMPARE(run(storage->list("/registry/", {}))->items.size(), std::size_t(1));
}

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
