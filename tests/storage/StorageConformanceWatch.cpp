// SPDX-License-Identifier: MIT
#include "StorageConformance.h"

#include "StorageConformanceSupport.h"
#include "model/StatusErrors.h"

using namespace conformance;

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
