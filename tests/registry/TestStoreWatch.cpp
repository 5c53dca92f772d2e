// SPDX-License-Identifier: MIT
// Store::watch through the public interface: selector transitions, watch-list bookmarks,
// 410 for a too-old resourceVersion, and the fan-out hub behind it (one storage watch per
// type, one encoding per event, the narrowest key prefix for name selectors).
#include <QtTest/QtTest>

#include "RegistryTestSupport.h"

using namespace rvscope;
using registry::ListOptions;
using registry::WriteOptions;
using testing::configMap;
using testing::mergePatch;
using testing::run;

namespace {
model::Object labelled(const std::string &name, const std::string &app, const std::string &ns = "default")
{
    model::Object object = configMap(name, ns);
    object.setLabels({{"app", app}});
    return object;
}
} // namespace

class TestStoreWatch final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testWatchSelectorTransitions();
    void testWatchListEndsInitialEventsWithBookmark();
    void testWatchTooOldResourceVersion();
    void testWatchesShareOneUpstreamAndOneEncoding();
    void testNameSelectedWatchSeesOnlyItsObject();
};

void TestStoreWatch::testWatchSelectorTransitions()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    std::vector<std::pair<registry::WatchEventType, std::string>> events;
    ListOptions options;
    options.labelSelector = "app=web";
    options.resourceVersion = std::to_string(run(fixture.storage->currentRevision()).value());
    auto handle = run(store->watch("default", options, [&events](const registry::WatchEvent &e) {
        events.emplace_back(e.type, e.object->json()["metadata"]["labels"].value("app", ""));
    }));
    QVERIFY(handle);
    run(store->create("default", labelled("a", "db"), WriteOptions())).value();
    run(store->update("default", "a", mergePatch(R"({"metadata":{"labels":{"app":"web"}}})"), WriteOptions())).value();
    run(store->update("default", "a", mergePatch(R"({"data":{"x":"1"}})"), WriteOptions())).value();
    run(store->update("default", "a", mergePatch(R"({"metadata":{"labels":{"app":"db"}}})"), WriteOptions())).value();
    run(store->remove("default", "a", registry::DeleteOptions())).value();
    using T = registry::WatchEventType;
    // Starts matching: ADDED; stops matching: DELETED with the last matching state.
    QCOMPARE(events, (std::vector<std::pair<T, std::string>>{{T::Added, "web"}, {T::Modified, "web"}, {T::Deleted, "web"}}));
}

void TestStoreWatch::testWatchListEndsInitialEventsWithBookmark()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("a"), WriteOptions())).value();
    run(store->create("default", configMap("b"), WriteOptions())).value();
    std::vector<registry::WatchEvent> events;
    ListOptions options;
    options.sendInitialEvents = true;
    options.resourceVersionMatch = "NotOlderThan";
    auto handle = run(store->watch("default", options, [&events](const registry::WatchEvent &e) { events.push_back(e); }));
    QVERIFY(handle);
    QCOMPARE(events.size(), std::size_t(3));
    QCOMPARE(events[0].type, registry::WatchEventType::Added);
    QCOMPARE(events[2].type, registry::WatchEventType::Bookmark);
    QCOMPARE(events[2].object->annotations().at("k8s.io/initial-events-end"), std::string("true"));
    QCOMPARE(events[2].object->resourceVersion(), std::to_string(run(fixture.storage->currentRevision()).value()));
}

void TestStoreWatch::testWatchTooOldResourceVersion()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    run(store->create("default", configMap("a"), WriteOptions())).value();
    const auto now = run(fixture.storage->currentRevision()).value();
    run(fixture.storage->compact(now)).value();
    ListOptions options;
    options.resourceVersion = "2";
    auto watch = run(store->watch("default", options, [](const registry::WatchEvent &) {}));
    QVERIFY(!watch);
    QCOMPARE(watch.error().code, 410);
    QCOMPARE(watch.error().message, "too old resource version: 2 (" + std::to_string(now - 1) + ")");
}

void TestStoreWatch::testWatchesShareOneUpstreamAndOneEncoding()
{
    // DESIGN "Watch fan-out": every watch of a type, whatever its namespace and selectors,
    // is fed by one storage watch, and each event is serialized once for all of them.
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    std::vector<std::vector<registry::WatchEvent>> received(6);
    std::vector<storage::WatchHandle> handles;
    for (std::size_t i = 0; i < received.size(); ++i) {
        ListOptions options;
        if (i % 2)
            options.labelSelector = "app=web";
        auto *events = &received[i];
        handles.push_back(run(store->watch(i % 3 ? "default" : "", options, [events](const registry::WatchEvent &e) {
                                  events->push_back(e);
                              })).value());
    }
    auto secrets = run(fixture.store("", "v1", "secrets")->watch("", ListOptions(), [](const registry::WatchEvent &) {}));
    QVERIFY(secrets);
    const auto stats = fixture.registry->watchStats();
    QCOMPARE(stats.upstreams, 2);
    QCOMPARE(stats.sharedWatchers, 7);
    QCOMPARE(stats.directWatchers, 0);

    run(store->create("default", labelled("a", "web"), WriteOptions())).value();
    run(store->update("default", "a", mergePatch(R"({"metadata":{"labels":{"app":"db"}}})"), WriteOptions())).value();
    using T = registry::WatchEventType;
    for (std::size_t i = 0; i < received.size(); ++i) {
        QCOMPARE(received[i].size(), std::size_t(2));
        QCOMPARE(received[i][0].type, T::Added);
        QCOMPARE(received[i][1].type, i % 2 ? T::Deleted : T::Modified);
        for (const auto &event : received[i])
            QVERIFY(event.wire);
        QCOMPARE(*received[i][1].wire, registry::watchEventJson(received[i][1]));
    }
    // One string per (event, API type): the label change is a MODIFIED for the unfiltered
    // watches and a DELETED for the filtered ones.
    QCOMPARE(received[0][0].wire, received[1][0].wire);
    QCOMPARE(received[0][1].wire, received[2][1].wire);
    QCOMPARE(received[1][1].wire, received[3][1].wire);
    QVERIFY(received[0][1].wire != received[1][1].wire);
}

void TestStoreWatch::testNameSelectedWatchSeesOnlyItsObject()
{
    // A metadata.name selector narrows the storage watch to the object's key, which is
    // also a prefix of longer names: the selector still decides.
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    std::vector<std::string> named;
    std::vector<std::string> acrossNamespaces;
    ListOptions byName;
    byName.fieldSelector = "metadata.name=web";
    ListOptions byNamespaceAndName;
    byNamespaceAndName.fieldSelector = "metadata.namespace=default,metadata.name=web";
    auto first = run(store->watch("default", byName, [&named](const registry::WatchEvent &e) {
                         named.push_back(e.object->name());
                     })).value();
    auto second = run(store->watch("", byNamespaceAndName, [&acrossNamespaces](const registry::WatchEvent &e) {
                          acrossNamespaces.push_back(e.object->namespaceName() + "/" + e.object->name());
                      })).value();
    run(store->create("default", configMap("web-2"), WriteOptions())).value();
    run(store->create("default", configMap("web"), WriteOptions())).value();
    run(store->create("default", configMap("we"), WriteOptions())).value();
    run(store->create("kube-system", configMap("web", "kube-system"), WriteOptions())).value();
    QCOMPARE(named, std::vector<std::string>{"web"});
    QCOMPARE(acrossNamespaces, std::vector<std::string>{"default/web"});
}

QTEST_GUILESS_MAIN(TestStoreWatch)
#include "TestStoreWatch.moc"
