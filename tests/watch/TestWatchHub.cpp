// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StorageConformance.h"
#include "StorageConformanceSupport.h"
#include "storage/MemoryStorage.h"
#include "watch/WatchHub.h"

using namespace rvscope;
using namespace conformance;
using storage::MemoryStorage;
using watch::WatchHub;

namespace {
const std::string CONFIGMAPS = "/registry/configmaps/";

std::shared_ptr<WatchHub> hubOver(std::shared_ptr<MemoryStorage> inner, std::size_t bufferEvents = 1024)
{
    watch::WatchHubOptions options;
    options.bufferEvents = bufferEvents;
    auto hub = std::make_shared<WatchHub>(std::move(inner), options);
    hub->addRoot(CONFIGMAPS);
    hub->addRoot("/registry/secrets/");
    return hub;
}

std::vector<std::string> keysOf(const Recorder &recorder)
{
    std::vector<std::string> keys;
    for (const auto &event : recorder.events)
        keys.push_back(event.key);
    return keys;
}
} // namespace

// The conformance suite through a hub (so every watch of it is fanned out, including the
// races and compaction), plus what only the hub does: one upstream per root, shared
// encodings, joining from its buffer, and falling back to a storage watch of its own.
class TestWatchHub final : public StorageConformance {
    Q_OBJECT

protected:
    std::unique_ptr<storage::Storage> createStorage() override
    {
        auto hub = std::make_unique<WatchHub>(std::make_shared<MemoryStorage>());
        hub->addRoot("/registry/");
        return hub;
    }

private Q_SLOTS:
    void testOneUpstreamPerRoot();
    void testAThrowingSinkEndsOnlyItsOwnWatch();
    void testWatchersShareOneEncodingPerEvent();
    void testResumeFromTheBufferJoinsTheSharedStream();
    void testResumeOlderThanTheStreamGetsItsOwnStorageWatch();
    void testTrimmedBufferSendsOldResumesToStorage();
    void testCompactingTheInnerStorageStillExpiresOldResumes();
    void testHistoryBoundOfTheInnerStorageStillExpiresOldResumes();
    void testSinkMayStopAnotherWatcher();
    void testWritesDuringInitialEventsArriveOnceAfterThem();
    void testStoppedWatchersLeaveTheUpstream();
    void testPrefixesOfEveryLengthAreIndexed();
    void testBufferIsBoundedInBytes();
};

void TestWatchHub::testOneUpstreamPerRoot()
{
    auto inner = std::make_shared<MemoryStorage>();
    auto hub = hubOver(inner);
    std::vector<Recorder> recorders(40);
    std::vector<storage::WatchHandle> handles;
    for (std::size_t i = 0; i < recorders.size(); ++i) {
        const std::string prefix = i % 2 ? CONFIGMAPS : CONFIGMAPS + "default/";
        handles.push_back(run(hub->watch(prefix, i % 3 ? current(*hub) : 0, recorders[i].sink())).value());
    }
    Recorder secrets;
    handles.push_back(run(hub->watch("/registry/secrets/default/", 0, secrets.sink())).value());
    QCOMPARE(hub->stats().upstreams, 2);
    QCOMPARE(hub->stats().sharedWatchers, 41);
    QCOMPARE(hub->stats().directWatchers, 0);

    mustCreate(*hub, "a");
    run(hub->create(configMapKey("b", "other"), configMap("b", "other"))).value();
    for (std::size_t i = 0; i < recorders.size(); ++i) {
        const auto expected = i % 2 ? std::vector<std::string>{configMapKey("a"), configMapKey("b", "other")}
                                    : std::vector<std::string>{configMapKey("a")};
        QCOMPARE(keysOf(recorders[i]), expected);
    }
    QVERIFY(secrets.events.empty());
}

// A sink that throws (a bug in a watch's consumer) loses its own watch; the hub's other
// watchers, and later writes, go on.
void TestWatchHub::testAThrowingSinkEndsOnlyItsOwnWatch()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    int thrown = 0;
    auto throwing = run(hub->watch(CONFIGMAPS, current(*hub), [&thrown](const storage::WatchEvent &) {
                            ++thrown;
                            throw std::runtime_error("broken consumer");
                        })).value();
    Recorder healthy;
    auto handle = run(hub->watch(CONFIGMAPS, current(*hub), healthy.sink())).value();
    mustCreate(*hub, "a");
    mustCreate(*hub, "b");
    QCOMPARE(thrown, 1);
    QCOMPARE(keysOf(healthy), (std::vector<std::string>{configMapKey("a"), configMapKey("b")}));
    Recorder later;
    auto laterHandle = run(hub->watch(CONFIGMAPS, current(*hub), later.sink())).value();
    mustCreate(*hub, "c");
    QCOMPARE(keysOf(later), (std::vector<std::string>{configMapKey("c")}));
}

void TestWatchHub::testWatchersShareOneEncodingPerEvent()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    Recorder first;
    Recorder second;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), first.sink())).value();
    auto b = run(hub->watch(CONFIGMAPS + "default/", current(*hub), second.sink())).value();
    mustCreate(*hub, "a");
    mustCreate(*hub, "b");
    QCOMPARE(first.events.size(), std::size_t(2));
    QCOMPARE(second.events.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QVERIFY(first.events[i].encodings);
        QCOMPARE(first.events[i].encodings, second.events[i].encodings);
    }
    QVERIFY(first.events[0].encodings != first.events[1].encodings);
}

void TestWatchHub::testResumeFromTheBufferJoinsTheSharedStream()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    Recorder live;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), live.sink())).value();
    const Revision start = current(*hub);
    for (int i = 0; i < 5; ++i)
        mustCreate(*hub, "cm-" + std::to_string(i));
    Recorder resumed;
    auto b = run(hub->watch(CONFIGMAPS, start + 2, resumed.sink())).value();
    QCOMPARE(resumed.revisions(), (std::vector<Revision>{start + 3, start + 4, start + 5}));
    mustCreate(*hub, "later");
    QCOMPARE(resumed.revisions(), (std::vector<Revision>{start + 3, start + 4, start + 5, start + 6}));
    QCOMPARE(live.revisions().size(), std::size_t(6));
    QCOMPARE(hub->stats().sharedWatchers, 2);
    QCOMPARE(hub->stats().directWatchers, 0);
}

void TestWatchHub::testResumeOlderThanTheStreamGetsItsOwnStorageWatch()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    const Revision start = current(*hub);
    mustCreate(*hub, "before-1");
    mustCreate(*hub, "before-2");
    Recorder live;
    auto a = run(hub->watch(CONFIGMAPS, 0, live.sink())).value(); // the stream starts now
    Recorder old;
    auto b = run(hub->watch(CONFIGMAPS, start, old.sink())).value();
    QCOMPARE(hub->stats().directWatchers, 1);
    mustCreate(*hub, "after");
    QCOMPARE(old.revisions(), (std::vector<Revision>{start + 1, start + 2, start + 3}));
    QCOMPARE(live.revisions(), (std::vector<Revision>{start + 1, start + 2, start + 3}));
    b.stop();
    QCOMPARE(hub->stats().directWatchers, 0);
}

void TestWatchHub::testTrimmedBufferSendsOldResumesToStorage()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>(), 3);
    Recorder live;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), live.sink())).value();
    const Revision start = current(*hub);
    for (int i = 0; i < 10; ++i)
        mustCreate(*hub, "cm-" + std::to_string(i));
    Recorder recent;
    auto b = run(hub->watch(CONFIGMAPS, start + 7, recent.sink())).value(); // 8, 9, 10 are buffered
    QCOMPARE(hub->stats().directWatchers, 0);
    Recorder old;
    auto c = run(hub->watch(CONFIGMAPS, start + 6, old.sink())).value();
    QCOMPARE(hub->stats().directWatchers, 1);
    QCOMPARE(recent.revisions(), (std::vector<Revision>{start + 8, start + 9, start + 10}));
    QCOMPARE(old.revisions(), (std::vector<Revision>{start + 7, start + 8, start + 9, start + 10}));
}

void TestWatchHub::testCompactingTheInnerStorageStillExpiresOldResumes()
{
    // The engine compacts its MemoryStorage directly, not through the hub: a resume the hub
    // still has buffered must fail exactly as the storage says.
    auto inner = std::make_shared<MemoryStorage>();
    auto hub = hubOver(inner);
    Recorder live;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), live.sink())).value();
    const Revision start = current(*hub);
    for (int i = 0; i < 5; ++i)
        mustCreate(*hub, "cm-" + std::to_string(i));
    run(inner->compact(start + 4)).value();
    Recorder old;
    auto expired = run(hub->watch(CONFIGMAPS, start + 1, old.sink()));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    QCOMPARE(expired.error().message, "too old resource version: " + std::to_string(start + 1) + " ("
                                          + std::to_string(start + 3) + ")");
    QVERIFY(old.events.empty());
}

void TestWatchHub::testHistoryBoundOfTheInnerStorageStillExpiresOldResumes()
{
    auto inner = std::make_shared<MemoryStorage>(MemoryStorage::Options{3});
    auto hub = hubOver(inner);
    Recorder live;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), live.sink())).value();
    const Revision start = current(*hub);
    for (int i = 0; i < 6; ++i)
        mustCreate(*hub, "cm-" + std::to_string(i));
    Recorder old;
    auto expired = run(hub->watch(CONFIGMAPS, start + 1, old.sink()));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    auto future = run(hub->watch(CONFIGMAPS, start + 100, old.sink()));
    QVERIFY(!future);
    QCOMPARE(future.error().code, 504);
}

void TestWatchHub::testSinkMayStopAnotherWatcher()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    Recorder second;
    storage::WatchHandle b;
    int firstEvents = 0;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), [&](const WatchEvent &) {
                     ++firstEvents;
                     b.stop();
                 })).value();
    b = run(hub->watch(CONFIGMAPS, current(*hub), second.sink())).value();
    mustCreate(*hub, "a");
    mustCreate(*hub, "b");
    QCOMPARE(firstEvents, 2);
    QVERIFY(second.events.empty());
    QCOMPARE(hub->stats().sharedWatchers, 1);
}

void TestWatchHub::testWritesDuringInitialEventsArriveOnceAfterThem()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    Recorder other;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), other.sink())).value();
    mustCreate(*hub, "a");
    mustCreate(*hub, "b");
    std::vector<std::pair<storage::WatchEventType, std::string>> seen;
    bool wrote = false;
    auto b = run(hub->watch(CONFIGMAPS, 0, [&](const WatchEvent &event) {
                     seen.emplace_back(event.type, event.key);
                     if (!wrote) {
                         wrote = true;
                         mustCreate(*hub, "c");
                     }
                 })).value();
    using T = storage::WatchEventType;
    QCOMPARE(seen, (std::vector<std::pair<T, std::string>>{
                       {T::Added, configMapKey("a")}, {T::Added, configMapKey("b")}, {T::Added, configMapKey("c")}}));
    mustCreate(*hub, "d");
    QCOMPARE(seen.size(), std::size_t(4));
    QCOMPARE(other.events.size(), std::size_t(4));
}

void TestWatchHub::testStoppedWatchersLeaveTheUpstream()
{
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    Recorder recorder;
    {
        auto a = run(hub->watch(CONFIGMAPS, current(*hub), recorder.sink())).value();
        auto b = run(hub->watch(CONFIGMAPS, 0, recorder.sink())).value();
        QCOMPARE(hub->stats().sharedWatchers, 2);
    }
    QCOMPARE(hub->stats().sharedWatchers, 0);
    QCOMPARE(hub->stats().upstreams, 1); // kept for the next watch, with its buffer
    mustCreate(*hub, "a");
    QVERIFY(recorder.events.empty());
}

void TestWatchHub::testPrefixesOfEveryLengthAreIndexed()
{
    // Watchers are found by prefix lookups, not by scanning: a prefix that is a whole key
    // still selects the longer keys it begins (Storage::watch is a prefix watch).
    auto hub = hubOver(std::make_shared<MemoryStorage>());
    const Revision now = current(*hub);
    std::map<std::string, Recorder> recorders;
    std::vector<storage::WatchHandle> handles;
    for (const std::string &prefix : {CONFIGMAPS, CONFIGMAPS + "default/", CONFIGMAPS + "default/a",
                                     CONFIGMAPS + "default/ab", CONFIGMAPS + "default/b", CONFIGMAPS + "other/",
                                     CONFIGMAPS + "d"})
        handles.push_back(run(hub->watch(prefix, now, recorders[prefix].sink())).value());
    for (int i = 0; i < 50; ++i) // many watchers of one key
        handles.push_back(run(hub->watch(configMapKey("b"), now, recorders["b" + std::to_string(i)].sink())).value());
    QCOMPARE(hub->stats().sharedWatchers, 57);
    mustCreate(*hub, "a");
    mustCreate(*hub, "ab");
    mustCreate(*hub, "b");
    const std::string a = configMapKey("a");
    const std::string ab = configMapKey("ab");
    const std::string b = configMapKey("b");
    QCOMPARE(keysOf(recorders[CONFIGMAPS]), (std::vector<std::string>{a, ab, b}));
    QCOMPARE(keysOf(recorders[CONFIGMAPS + "default/"]), (std::vector<std::string>{a, ab, b}));
    QCOMPARE(keysOf(recorders[CONFIGMAPS + "d"]), (std::vector<std::string>{a, ab, b}));
    QCOMPARE(keysOf(recorders[CONFIGMAPS + "default/a"]), (std::vector<std::string>{a, ab}));
    QCOMPARE(keysOf(recorders[CONFIGMAPS + "default/ab"]), (std::vector<std::string>{ab}));
    QCOMPARE(keysOf(recorders[CONFIGMAPS + "default/b"]), (std::vector<std::string>{b}));
    QVERIFY(recorders[CONFIGMAPS + "other/"].events.empty());
    for (int i = 0; i < 50; ++i)
        QCOMPARE(keysOf(recorders["b" + std::to_string(i)]), (std::vector<std::string>{b}));
    handles.clear();
    QCOMPARE(hub->stats().sharedWatchers, 0);
    mustCreate(*hub, "c"); // nobody left to deliver to, and nothing dangling
}

void TestWatchHub::testBufferIsBoundedInBytes()
{
    watch::WatchHubOptions options;
    options.bufferBytes = 64 * 1024;
    auto hub = std::make_shared<WatchHub>(std::make_shared<MemoryStorage>(), options);
    hub->addRoot(CONFIGMAPS);
    Recorder live;
    auto a = run(hub->watch(CONFIGMAPS, current(*hub), live.sink())).value();
    const Revision start = current(*hub);
    for (int i = 0; i < 10; ++i) // 10 x 16 KiB: only the newest few fit
        run(hub->create(configMapKey("big-" + std::to_string(i)), testing::configMapOfSize("big-" + std::to_string(i), 16 * 1024))).value();
    Recorder recent;
    auto b = run(hub->watch(CONFIGMAPS, start + 8, recent.sink())).value();
    QCOMPARE(hub->stats().directWatchers, 0);
    Recorder old;
    auto c = run(hub->watch(CONFIGMAPS, start + 2, old.sink())).value();
    QCOMPARE(hub->stats().directWatchers, 1); // trimmed from the buffer: served by storage
    QCOMPARE(recent.revisions(), (std::vector<Revision>{start + 9, start + 10}));
    QCOMPARE(old.revisions().size(), std::size_t(8));
}

QTEST_GUILESS_MAIN(TestWatchHub)
#include "TestWatchHub.moc"
