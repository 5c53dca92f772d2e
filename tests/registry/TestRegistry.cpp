// SPDX-License-Identifier: MIT
// The Registry: start state, types, CustomResourceDefinitions and namespace lifecycle.
#include <QtTest/QtTest>

#include "RegistryTestSupport.h"

using namespace rvscope;
using registry::WriteOptions;
using testing::configMap;
using testing::put;
using testing::run;

namespace {
model::Object widgetCrd(const std::string &scope = "Namespaced")
{
    return model::Object(nlohmann::json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "metadata":{"name":"widgets.example.com"},
        "spec":{"group":"example.com","scope":")" + scope + R"(",
          "names":{"plural":"widgets","singular":"widget","kind":"Widget","shortNames":["wd"]},
          "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                       "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}})"));
}

model::Object widget(const std::string &name)
{
    return model::Object(nlohmann::json{{"apiVersion", "example.com/v1"},
                                        {"kind", "Widget"},
                                        {"metadata", {{"name", name}}},
                                        {"spec", {{"size", 1}}}});
}
} // namespace

class TestRegistry final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testStartsLikeAFreshApiserver();
    void testBuiltinTypes();
    void testCrdRegistersAndRemovesItsType();
    void testDefinitionsAreFollowedWhoeverWritesThem();
    void testCustomResourceRules();
    void testCustomResourceVersionsShareTheStorageVersion();
    void testInvalidCrdIsRejected();
    void testNamespaceDeletionTakesItsObjects();
    void testSeparateStorageHasItsOwnRevisionSeries();
};

void TestRegistry::testStartsLikeAFreshApiserver()
{
    testing::RegistryFixture fixture;
    auto namespaces = run(fixture.store("", "v1", "namespaces")->list("", registry::ListOptions()));
    QVERIFY(namespaces);
    std::vector<std::string> names;
    for (const auto &item : namespaces->items) {
        names.push_back(item->name());
        QCOMPARE(item->json()["status"]["phase"], "Active");
        QCOMPARE(item->labels().at("kubernetes.io/metadata.name"), item->name());
    }
    QCOMPARE(names, (std::vector<std::string>{"default", "kube-node-lease", "kube-public", "kube-system"}));
    // Nothing else: no demo objects, no background writers.
    QCOMPARE(run(fixture.storage->list("/registry/", storage::ListOptions()))->items.size(), std::size_t(4));
}

void TestRegistry::testBuiltinTypes()
{
    testing::RegistryFixture fixture;
    const std::vector<std::tuple<std::string, std::string, std::string, bool>> expected = {
        {"", "v1", "configmaps", true},         {"", "v1", "secrets", true},      {"", "v1", "pods", true},
        {"", "v1", "namespaces", false},        {"", "v1", "nodes", false},       {"", "v1", "services", true},
        {"", "v1", "persistentvolumeclaims", true}, {"", "v1", "events", true},
        {"apps", "v1", "deployments", true},    {"coordination.k8s.io", "v1", "leases", true},
        {"apiextensions.k8s.io", "v1", "customresourcedefinitions", false},
    };
    for (const auto &[group, version, resource, namespaced] : expected) {
        const auto entry = fixture.registry->find(group, version, resource);
        QVERIFY2(entry, resource.c_str());
        QCOMPARE(entry->type->namespaced(), namespaced);
    }
    QVERIFY(fixture.registry->find("", "v1", "pods")->status);
    QVERIFY(fixture.registry->find("apps", "v1", "deployments")->scale);
    QVERIFY(!fixture.registry->find("", "v1", "widgets"));
}

void TestRegistry::testCrdRegistersAndRemovesItsType()
{
    testing::RegistryFixture fixture;
    int changes = 0;
    fixture.registry->setTypesChangedCallback([&changes] { ++changes; });
    const auto generation = fixture.registry->typesGeneration();
    auto crds = fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    auto created = run(crds->create("", widgetCrd(), WriteOptions()));
    QVERIFY2(created, created ? "" : created.error().message.c_str());
    QCOMPARE((*created)->json()["status"]["conditions"][1]["type"], "Established");
    QCOMPARE(changes, 1);
    QVERIFY(fixture.registry->typesGeneration() > generation);

    const auto entry = fixture.registry->find("example.com", "v1", "widgets");
    QVERIFY(entry);
    QCOMPARE(entry->type->kind, std::string("Widget"));
    QCOMPARE(entry->type->shortNames, std::vector<std::string>{"wd"});
    QVERIFY(entry->type->custom);
    QVERIFY(run(entry->store->create("default", widget("w1"), WriteOptions())));

    auto removed = run(crds->remove("", "widgets.example.com", registry::DeleteOptions()));
    QVERIFY(removed);
    QVERIFY(!fixture.registry->find("example.com", "v1", "widgets"));
    // Its objects went with it.
    QVERIFY(run(fixture.storage->list("/registry/example.com/widgets/", storage::ListOptions()))->items.empty());
}

// Two registries on one storage are two instances on one etcd: each serves the custom types
// of definitions the other writes, and an update of a definition (a version no longer
// served, a new one) changes what both serve; an update outside the spec changes nothing.
void TestRegistry::testDefinitionsAreFollowedWhoeverWritesThem()
{
    testing::RegistryFixture fixture;
    registry::Registry other(fixture.storage);
    run(other.bootstrap()).value();
    auto crds = fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    model::Object crd = *run(crds->create("", widgetCrd(), WriteOptions())).value();
    QTRY_VERIFY(other.find("example.com", "v1", "widgets"));
    QCOMPARE(other.find("example.com", "v1", "widgets")->type->shortNames, std::vector<std::string>{"wd"});

    nlohmann::json &versions = crd.mutableJson()["spec"]["versions"];
    nlohmann::json v2 = versions[0];
    v2["name"] = "v2";
    versions[0]["served"] = false;
    versions[0]["storage"] = false;
    versions.push_back(v2);
    auto updated = run(crds->update("", "widgets.example.com", put(crd), WriteOptions()));
    QVERIFY2(updated, updated ? "" : updated.error().message.c_str());
    for (registry::Registry *instance : {fixture.registry.get(), &other}) {
        QTRY_VERIFY(instance->find("example.com", "v2", "widgets"));
        QVERIFY(!instance->find("example.com", "v1", "widgets"));
    }

    const auto generation = other.typesGeneration();
    model::Object labelled = *updated->object;
    labelled.mutableJson()["metadata"]["labels"]["team"] = "blue";
    auto relabelled = run(crds->update("", "widgets.example.com", put(labelled), WriteOptions()));
    QVERIFY2(relabelled, relabelled ? "" : relabelled.error().message.c_str());
    QCOMPARE(other.typesGeneration(), generation);

    QVERIFY(run(crds->remove("", "widgets.example.com", registry::DeleteOptions())));
    QTRY_VERIFY(!other.find("example.com", "v2", "widgets"));
}

void TestRegistry::testCustomResourceRules()
{
    testing::RegistryFixture fixture;
    run(fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions")->create("", widgetCrd(), WriteOptions()))
        .value();
    const auto entry = fixture.registry->find("example.com", "v1", "widgets");
    const auto created = run(entry->store->create("default", widget("w1"), WriteOptions())).value();
    QCOMPARE(created->generation().value_or(-1), std::int64_t(1));

    // No unconditional update for custom resources: 422 with the apiserver's text.
    model::Object blind = *created;
    blind.setResourceVersion("");
    auto refused = run(entry->store->update("default", "w1", put(blind), WriteOptions()));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 422);
    QCOMPARE(refused.error().message, std::string("widgets.example.com \"w1\" is invalid: metadata.resourceVersion: "
                                                  "Invalid value: 0x0: must be specified for an update"));
    QCOMPARE(refused.error().details.kind, std::string("widgets"));

    // Strategic merge patch is not for custom resources: 415.
    auto smp = registry::makePatchInfo(*entry->type, "application/strategic-merge-patch+json", "{}");
    QVERIFY(!smp);
    QCOMPARE(smp.error().code, 415);
    QVERIFY(smp.error().message.find("strategic") == std::string::npos);
    auto merge = registry::makePatchInfo(*entry->type, "application/merge-patch+json; charset=utf-8",
                                         R"({"spec":{"size":2}})");
    QVERIFY(merge);
    auto patched = run(entry->store->update("default", "w1", merge.value(), WriteOptions()));
    QVERIFY(patched);
    QCOMPARE(patched->object->generation().value_or(-1), std::int64_t(2));

    // The main resource ignores status; /status changes only status.
    auto withStatus = registry::makePatchInfo(*entry->type, "application/merge-patch+json",
                                              R"({"status":{"ready":true},"spec":{"size":5}})");
    auto main = run(entry->store->update("default", "w1", withStatus.value(), WriteOptions()));
    QVERIFY(!main->object->json().contains("status"));
    auto status = run(entry->status->update("default", "w1", withStatus.value(), WriteOptions()));
    QVERIFY(status);
    QCOMPARE(status->object->json()["status"]["ready"], true);
    QCOMPARE(status->object->json()["spec"]["size"], 5);
}

// Conversion strategy None: every served version reads and writes the one object, stored in
// the storage version and shown in the version asked for.
void TestRegistry::testCustomResourceVersionsShareTheStorageVersion()
{
    testing::RegistryFixture fixture;
    nlohmann::json crd = widgetCrd().json();
    nlohmann::json beta = crd["spec"]["versions"][0];
    beta["name"] = "v1beta1";
    beta["storage"] = false;
    crd["spec"]["versions"].push_back(beta);
    run(fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions")->create("", model::Object(crd),
                                                                                        WriteOptions()))
        .value();
    const auto v1 = fixture.registry->find("example.com", "v1", "widgets");
    const auto v1beta1 = fixture.registry->find("example.com", "v1beta1", "widgets");
    QVERIFY(v1 && v1beta1);
    model::Object object = widget("w1");
    object.mutableJson()["apiVersion"] = "example.com/v1beta1";
    const auto created = run(v1beta1->store->create("default", object, WriteOptions())).value();
    QCOMPARE(created->json()["apiVersion"], "example.com/v1beta1");
    QCOMPARE(run(v1->store->get("default", "w1")).value()->json()["apiVersion"], "example.com/v1");
    QCOMPARE(run(v1beta1->store->get("default", "w1")).value()->json()["apiVersion"], "example.com/v1beta1");
    const auto listed = run(v1beta1->store->list("default", registry::ListOptions())).value();
    QCOMPARE(listed.items.at(0)->json()["apiVersion"], "example.com/v1beta1");
    // An update through v1beta1 stores v1 again.
    model::Object read = *run(v1beta1->store->get("default", "w1")).value();
    read.mutableJson()["spec"]["size"] = 2;
    const auto updated = run(v1beta1->store->update("default", "w1", put(read), WriteOptions())).value();
    QCOMPARE(updated.object->json()["apiVersion"], "example.com/v1beta1");
    const auto stored = run(v1->store->get("default", "w1")).value();
    QCOMPARE(stored->json()["apiVersion"], "example.com/v1");
    QCOMPARE(stored->json()["spec"]["size"], 2);
}

void TestRegistry::testInvalidCrdIsRejected()
{
    testing::RegistryFixture fixture;
    model::Object crd = widgetCrd();
    crd.setName("wrong.example.com");
    auto created = run(fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions")->create("", crd, WriteOptions()));
    QVERIFY(!created);
    QCOMPARE(created.error().code, 422);
    QVERIFY(created.error().message.find("must be spec.names.plural+\".\"+spec.group") != std::string::npos);
    QVERIFY(!fixture.registry->find("example.com", "v1", "widgets"));
}

void TestRegistry::testNamespaceDeletionTakesItsObjects()
{
    testing::RegistryFixture fixture;
    auto namespaces = fixture.store("", "v1", "namespaces");
    run(namespaces->create("", model::Object(nlohmann::json{{"metadata", {{"name", "team"}}}}), WriteOptions())).value();
    run(fixture.configMaps()->create("team", configMap("a", "team"), WriteOptions())).value();
    run(fixture.store("", "v1", "secrets")->create("team", model::Object(nlohmann::json{{"metadata", {{"name", "s"}}}}),
                                                   WriteOptions()))
        .value();
    run(fixture.configMaps()->create("default", configMap("keep"), WriteOptions())).value();

    auto removed = run(fixture.registry->removeNamespace("team", registry::DeleteOptions()));
    QVERIFY(removed);
    QVERIFY(removed->deleted);
    QCOMPARE(run(namespaces->get("", "team")).error().code, 404);
    QVERIFY(run(fixture.storage->list("/registry/configmaps/team/", storage::ListOptions()))->items.empty());
    QVERIFY(run(fixture.storage->list("/registry/secrets/team/", storage::ListOptions()))->items.empty());
    QVERIFY(run(fixture.configMaps()->get("default", "keep")));
    QCOMPARE(run(fixture.registry->removeNamespace("team", registry::DeleteOptions())).error().code, 404);
}

void TestRegistry::testSeparateStorageHasItsOwnRevisionSeries()
{
    auto events = std::make_shared<storage::MemoryStorage>();
    auto widgets = std::make_shared<storage::MemoryStorage>();
    testing::RegistryFixture fixture({{"events", events}, {"widgets.example.com", widgets}});
    const auto series = fixture.registry->revisionSeries();
    QCOMPARE(series.size(), std::size_t(3));
    // Each series' storage, behind the watch hub the registry puts in front of it.
    auto inner = [](const std::shared_ptr<storage::Storage> &storage) {
        auto hub = std::dynamic_pointer_cast<watch::WatchHub>(storage);
        return hub ? hub->inner() : storage;
    };
    QCOMPARE(inner(series.at("main")), std::static_pointer_cast<storage::Storage>(fixture.storage));
    QCOMPARE(inner(series.at("events")), std::static_pointer_cast<storage::Storage>(events));
    QCOMPARE(fixture.registry->find("", "v1", "events")->type->revisionSeries, std::string("events"));
    QCOMPARE(fixture.registry->find("", "v1", "configmaps")->type->revisionSeries, std::string("main"));
    // events.k8s.io/v1 events are a different group resource: not moved by "events".
    QCOMPARE(fixture.registry->find("events.k8s.io", "v1", "events")
                 ? fixture.registry->find("events.k8s.io", "v1", "events")->type->revisionSeries
                 : std::string("main"),
             std::string("main"));

    const auto mainBefore = fixture.storage->revision();
    auto eventStore = fixture.store("", "v1", "events");
    const auto event = run(eventStore->create("default",
                                              model::Object(nlohmann::json{{"metadata", {{"name", "e1"}}},
                                                                           {"involvedObject", {{"kind", "Pod"}, {"name", "p"}}},
                                                                           {"reason", "Started"}}),
                                              WriteOptions()))
                           .value();
    // The event took the next revision of its own series; the main series did not move.
    QCOMPARE(event->resourceVersion(), std::to_string(events->revision()));
    QCOMPARE(fixture.storage->revision(), mainBefore);
    const auto cm = run(fixture.configMaps()->create("default", configMap("c"), WriteOptions())).value();
    QCOMPARE(cm->resourceVersion(), std::to_string(fixture.storage->revision()));
    QCOMPARE(events->revision(), std::stoll(event->resourceVersion()));
    // A list answers with its own series' revision, and a watch resumes from it.
    const auto listed = run(eventStore->list("default", registry::ListOptions())).value();
    QCOMPARE(listed.revision, events->revision());
    QCOMPARE(listed.items.size(), std::size_t(1));

    // A custom resource configured apart lives (and is deleted) in its own storage.
    auto crds = fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    run(crds->create("", widgetCrd(), WriteOptions())).value();
    const auto widgetType = fixture.registry->find("example.com", "v1", "widgets");
    QCOMPARE(widgetType->type->revisionSeries, std::string("widgets.example.com"));
    run(widgetType->store->create("default", widget("w1"), WriteOptions())).value();
    QCOMPARE(widgets->objectCount(), std::size_t(1));
    QVERIFY(run(crds->remove("", "widgets.example.com", registry::DeleteOptions())));
    QCOMPARE(widgets->objectCount(), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestRegistry)
#include "TestRegistry.moc"
