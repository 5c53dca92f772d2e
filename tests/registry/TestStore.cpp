// SPDX-License-Identifier: MIT
// The generic Store through its public interface, on ConfigMaps, Deployments and Pods.
#include <QtTest/QtTest>

#include "RegistryTestSupport.h"
#include "registry/ScaleStore.h"

using namespace rvscope;
using registry::ListOptions;
using registry::WriteOptions;
using testing::configMap;
using testing::mergePatch;
using testing::put;
using testing::run;

namespace {
model::Object deployment(const std::string &name, int replicas = 1)
{
    return model::Object(nlohmann::json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":")"
                                               + name + R"("},"spec":{"replicas":)" + std::to_string(replicas)
                                               + R"(,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1"}]}}}})"));
}

model::Object labelled(const std::string &name, const std::string &app, const std::string &ns = "default")
{
    model::Object object = configMap(name, ns);
    object.setLabels({{"app", app}});
    return object;
}

std::shared_ptr<const registry::UpdatedObjectInfo> strategicPatch(const char *json)
{
    return std::make_shared<registry::PatchObjectInfo>(patch::PatchType::StrategicMergePatch,
                                                       nlohmann::json::parse(json), "Deployment");
}

std::vector<std::string> names(const std::vector<model::ObjectPtr> &items)
{
    std::vector<std::string> result;
    for (const auto &item : items)
        result.push_back(item->name());
    return result;
}
} // namespace

class TestStore final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testCreateFillsSystemFields();
    void testCreateGenerateName();
    void testCreateErrors_data();
    void testCreateErrors();
    void testCreateInMissingOrTerminatingNamespace();
    void testDryRunCreateStoresNothing();
    void testListSelectors();
    void testListPagination();
    void testListResourceVersionSemantics();
    void testListOptionValidation_data();
    void testListOptionValidation();
    void testUpdateMissingObjectIs404();
    void testUpdateNameMismatchIs400();
    void testNamesNoKeyCanHoldAre400();
    void testDeploymentGenerationAndStatus();
    void testDeploymentPatchesAreValidated();
    void testDeploymentPatchesAreDefaulted();
    void testStatusSubresourceChangesOnlyStatus();
    void testFinalizersDelayDeletion();
    void testDeleteCollection();
};

void TestStore::testCreateFillsSystemFields()
{
    testing::RegistryFixture fixture;
    model::Object object = configMap("foo", "", {{"a", "1"}});
    object.setResourceVersion("999");
    object.setUid("client-chosen");
    auto created = run(fixture.configMaps()->create("default", object, WriteOptions()));
    QVERIFY(created);
    const model::Object &stored = **created;
    QCOMPARE(stored.namespaceName(), std::string("default"));
    QVERIFY(stored.uid().rfind("uid-", 0) == 0);
    QCOMPARE(stored.creationTimestamp(), std::string("2026-11-21T10:00:00Z"));
    QVERIFY(model::parseResourceVersion(stored.resourceVersion()).value() > 1);
    QCOMPARE(stored.kind(), std::string("ConfigMap"));
    QCOMPARE(stored.apiVersion(), std::string("v1"));
    QVERIFY(!stored.generation()); // ConfigMaps have no generation
    auto deploy = run(fixture.store("apps", "v1", "deployments")->create("default", deployment("web"), WriteOptions()));
    QVERIFY2(deploy, deploy ? "" : deploy.error().message.c_str());
    QCOMPARE((*deploy)->generation().value_or(-1), std::int64_t(1));
}

void TestStore::testCreateGenerateName()
{
    testing::RegistryFixture fixture;
    model::Object object = configMap("");
    object.mutableJson()["metadata"]["generateName"] = "job-";
    auto first = run(fixture.configMaps()->create("default", object, WriteOptions()));
    auto second = run(fixture.configMaps()->create("default", object, WriteOptions()));
    QVERIFY(first && second);
    QCOMPARE((*first)->name().size(), std::string("job-").size() + 5);
    QVERIFY((*first)->name().rfind("job-", 0) == 0);
    QVERIFY((*first)->name() != (*second)->name());
}

void TestStore::testCreateErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("bad name") << QByteArray(R"({"metadata":{"name":"Bad_x"}})") << "default" << 422
                              << "ConfigMap \"Bad_x\" is invalid: metadata.name: Invalid value: \"Bad_x\": a lowercase "
                                 "RFC 1123 subdomain must consist of";
    QTest::newRow("no name") << QByteArray(R"({"metadata":{}})") << "default" << 422
                             << "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is "
                                "required";
    QTest::newRow("namespace mismatch") << QByteArray(R"({"metadata":{"name":"a","namespace":"other"}})") << "default"
                                        << 400
                                        << "the namespace of the provided object does not match the namespace sent "
                                           "on the request";
    QTest::newRow("already exists") << QByteArray(R"({"metadata":{"name":"taken"}})") << "default" << 409
                                    << "configmaps \"taken\" already exists";
}

void TestStore::testCreateErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, ns);
    QFETCH(int, code);
    QFETCH(QString, message);
    testing::RegistryFixture fixture;
    run(fixture.configMaps()->create("default", configMap("taken"), WriteOptions())).value();
    const auto before = run(fixture.storage->currentRevision()).value();
    auto created = run(fixture.configMaps()->create(ns.toStdString(), model::Object::parse(body.toStdString()).value(),
                                                    WriteOptions()));
    QVERIFY(!created);
    QCOMPARE(created.error().code, code);
    QVERIFY2(QString::fromStdString(created.error().message).startsWith(message), created.error().message.c_str());
    QCOMPARE(run(fixture.storage->currentRevision()).value(), before);
}

void TestStore::testCreateInMissingOrTerminatingNamespace()
{
    testing::RegistryFixture fixture;
    auto missing = run(fixture.configMaps()->create("nowhere", configMap("a", "nowhere"), WriteOptions()));
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, 404);
    QCOMPARE(missing.error().message, std::string("namespaces \"nowhere\" not found"));

    auto namespaces = fixture.store("", "v1", "namespaces");
    run(namespaces->create("", model::Object(nlohmann::json{{"metadata", {{"name", "doomed"}}}}), WriteOptions())).value();
    model::Object held = configMap("held", "doomed");
    held.setFinalizers({"example.com/hold"});
    run(fixture.configMaps()->create("doomed", held, WriteOptions())).value();
    auto removed = run(fixture.registry->removeNamespace("doomed", registry::DeleteOptions()));
    QVERIFY(removed);
    QVERIFY(!removed->deleted); // the held ConfigMap keeps it Terminating
    QCOMPARE(removed->object->json()["status"]["phase"], "Terminating");
    auto refused = run(fixture.configMaps()->create("doomed", configMap("b", "doomed"), WriteOptions()));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 403);

    // Releasing the finalizer deletes the ConfigMap, and with it the namespace.
    auto released = run(fixture.configMaps()->update("doomed", "held", mergePatch(R"({"metadata":{"finalizers":null}})"),
                                                     WriteOptions()));
    QVERIFY(released);
    QCOMPARE(run(fixture.configMaps()->get("doomed", "held")).error().code, 404);
    QCOMPARE(run(namespaces->get("", "doomed")).error().code, 404);
}

void TestStore::testDryRunCreateStoresNothing()
{
    testing::RegistryFixture fixture;
    WriteOptions dryRun;
    dryRun.dryRun = true;
    const auto before = run(fixture.storage->currentRevision()).value();
    auto created = run(fixture.configMaps()->create("default", configMap("foo"), dryRun));
    QVERIFY(created);
    QVERIFY((*created)->resourceVersion().empty());
    QVERIFY(!(*created)->uid().empty());
    QCOMPARE(run(fixture.storage->currentRevision()).value(), before);
    QCOMPARE(run(fixture.configMaps()->get("default", "foo")).error().code, 404);
}

void TestStore::testListSelectors()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    for (const auto &[name, app] : std::vector<std::pair<std::string, std::string>>{{"a", "web"}, {"b", "db"}, {"c", "web"}})
        run(store->create("default", labelled(name, app), WriteOptions())).value();
    run(store->create("kube-system", labelled("d", "web", "kube-system"), WriteOptions())).value();

    ListOptions options;
    options.labelSelector = "app=web";
    QCOMPARE(names(run(store->list("default", options))->items), (std::vector<std::string>{"a", "c"}));
    QCOMPARE(names(run(store->list("", options))->items), (std::vector<std::string>{"a", "c", "d"}));
    options.labelSelector = "app in (db),!missing";
    QCOMPARE(names(run(store->list("default", options))->items), (std::vector<std::string>{"b"}));
    options.labelSelector.clear();
    options.fieldSelector = "metadata.name!=a,metadata.namespace=default";
    QCOMPARE(names(run(store->list("", options))->items), (std::vector<std::string>{"b", "c"}));

    options.fieldSelector = "spec.nodeName=n1";
    auto unsupported = run(store->list("default", options));
    QVERIFY(!unsupported);
    QCOMPARE(unsupported.error().code, 400);
    options.fieldSelector.clear();
    options.labelSelector = "app in (";
    QCOMPARE(run(store->list("default", options)).error().code, 400);
}

void TestStore::testListPagination()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    for (int i = 0; i < 5; ++i)
        run(store->create("default", configMap("cm-" + std::to_string(i)), WriteOptions())).value();
    ListOptions options;
    options.limit = 2;
    auto page = run(store->list("default", options));
    QVERIFY(page);
    QCOMPARE(names(page->items), (std::vector<std::string>{"cm-0", "cm-1"}));
    QCOMPARE(page->remainingItemCount.value_or(-1), std::int64_t(3));
    const auto listRevision = page->revision;
    run(store->remove("default", "cm-3", registry::DeleteOptions())).value();

    std::vector<std::string> seen = names(page->items);
    while (!page->continueToken.empty()) {
        options.continueToken = page->continueToken;
        page = run(store->list("default", options));
        QVERIFY(page);
        QCOMPARE(page->revision, listRevision); // every page from the first page's snapshot
        for (const auto &name : names(page->items))
            seen.push_back(name);
    }
    QCOMPARE(seen, (std::vector<std::string>{"cm-0", "cm-1", "cm-2", "cm-3", "cm-4"}));

    options.continueToken = "not-a-token";
    QCOMPARE(run(store->list("default", options)).error().code, 400);
}

void TestStore::testListResourceVersionSemantics()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    const auto first = run(store->create("default", configMap("a"), WriteOptions())).value();
    run(store->create("default", configMap("b"), WriteOptions())).value();
    const auto current = run(fixture.storage->currentRevision()).value();

    ListOptions exact;
    exact.resourceVersion = first->resourceVersion();
    exact.resourceVersionMatch = "Exact";
    auto old = run(store->list("default", exact));
    QVERIFY(old);
    QCOMPARE(names(old->items), std::vector<std::string>{"a"});
    QCOMPARE(std::to_string(old->revision), first->resourceVersion());

    ListOptions notOlder;
    notOlder.resourceVersion = first->resourceVersion();
    notOlder.resourceVersionMatch = "NotOlderThan";
    QCOMPARE(run(store->list("default", notOlder))->revision, current);

    notOlder.resourceVersion = std::to_string(current + 10);
    auto future = run(store->list("default", notOlder));
    QVERIFY(!future);
    QCOMPARE(future.error().code, 504);

    run(store->create("default", configMap("c"), WriteOptions())).value();
    run(fixture.storage->compact(current + 1)).value();
    auto expired = run(store->list("default", exact));
    QVERIFY(!expired);
    QCOMPARE(expired.error().code, 410);
    QCOMPARE(expired.error().message, std::string("The resourceVersion for the provided list is too old."));
}

void TestStore::testListOptionValidation_data()
{
    QTest::addColumn<QString>("rv");
    QTest::addColumn<QString>("match");
    QTest::addColumn<QString>("continueToken");
    QTest::addColumn<QString>("message");
    QTest::newRow("match without rv") << "" << "Exact" << ""
                                      << "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
                                         "resourceVersionMatch is forbidden unless resourceVersion is provided";
    QTest::newRow("match with continue") << "5" << "NotOlderThan" << "x"
                                         << "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
                                            "resourceVersionMatch is forbidden when continue is provided";
    QTest::newRow("exact zero") << "0" << "Exact" << ""
                                << "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
                                   "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"";
    QTest::newRow("unknown match") << "5" << "Sometimes" << ""
                                   << "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Unsupported "
                                      "value: \"Sometimes\": supported values: \"Exact\", \"NotOlderThan\", \"\"";
}

void TestStore::testListOptionValidation()
{
    QFETCH(QString, rv);
    QFETCH(QString, match);
    QFETCH(QString, continueToken);
    QFETCH(QString, message);
    testing::RegistryFixture fixture;
    ListOptions options;
    options.resourceVersion = rv.toStdString();
    options.resourceVersionMatch = match.toStdString();
    options.continueToken = continueToken.toStdString();
    auto listed = run(fixture.configMaps()->list("default", options));
    QVERIFY(!listed);
    QCOMPARE(listed.error().code, 422);
    QCOMPARE(QString::fromStdString(listed.error().message), message);
}

void TestStore::testUpdateMissingObjectIs404()
{
    testing::RegistryFixture fixture;
    auto updated = run(fixture.configMaps()->update("default", "ghost", put(configMap("ghost")), WriteOptions()));
    QVERIFY(!updated);
    QCOMPARE(updated.error().code, 404);
    QCOMPARE(updated.error().message, std::string("configmaps \"ghost\" not found"));
    auto patched = run(fixture.configMaps()->update("default", "ghost", mergePatch("{}"), WriteOptions()));
    QCOMPARE(patched.error().code, 404);
}

void TestStore::testNamesNoKeyCanHoldAre400()
{
    // The apiserver's key functions refuse them before storage, for every verb that names
    // an object (a create's name meets validation first: 422).
    testing::RegistryFixture fixture;
    const std::shared_ptr<registry::Store> store = fixture.configMaps();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"..", R"(Name parameter invalid: "..": may not be '..')"},
        {".", R"(Name parameter invalid: ".": may not be '.')"},
        {"a%b", R"(Name parameter invalid: "a%b": may not contain '%')"},
        {"a/%", R"(Name parameter invalid: "a/%": may not contain '/';may not contain '%')"},
    };
    for (const auto &[name, message] : cases) {
        const auto got = run(store->get("default", name));
        QCOMPARE(got.error().code, 400);
        QCOMPARE(got.error().message, message);
        QCOMPARE(run(store->update("default", name, mergePatch("{}"), WriteOptions())).error().message, message);
        QCOMPARE(run(store->remove("default", name, registry::DeleteOptions())).error().message, message);
    }
    QCOMPARE(run(store->get("default", "..a")).error().code, 404); // dots within a name are fine
}

void TestStore::testUpdateNameMismatchIs400()
{
    testing::RegistryFixture fixture;
    run(fixture.configMaps()->create("default", configMap("a"), WriteOptions())).value();
    auto updated = run(fixture.configMaps()->update("default", "a", put(configMap("b")), WriteOptions()));
    QVERIFY(!updated);
    QCOMPARE(updated.error().code, 400);
    QCOMPARE(updated.error().message, std::string("the name of the object (b) does not match the name on the URL (a)"));
}

void TestStore::testDeploymentGenerationAndStatus()
{
    testing::RegistryFixture fixture;
    auto store = fixture.store("apps", "v1", "deployments");
    model::Object withStatus = deployment("web");
    withStatus.mutableJson()["status"] = {{"replicas", 7}};
    auto created = run(store->create("default", withStatus, WriteOptions())).value();
    QVERIFY(!created->json().contains("status") || !created->json()["status"].contains("replicas"));

    auto labelsOnly = run(store->update("default", "web", mergePatch(R"({"metadata":{"labels":{"x":"y"}}})", "Deployment"),
                                        WriteOptions()));
    QVERIFY(labelsOnly);
    QCOMPARE(labelsOnly->object->generation().value_or(-1), std::int64_t(1));
    auto scaled = run(store->update("default", "web", mergePatch(R"({"spec":{"replicas":3}})", "Deployment"),
                                    WriteOptions()));
    QCOMPARE(scaled->object->generation().value_or(-1), std::int64_t(2));
    auto statusIgnored = run(store->update("default", "web", mergePatch(R"({"status":{"replicas":9}})", "Deployment"),
                                           WriteOptions()));
    QVERIFY(statusIgnored->noop);
}

void TestStore::testDeploymentPatchesAreValidated()
{
    // Every patch is validated whole, whichever part it touches, with upstream's field paths.
    testing::RegistryFixture fixture;
    auto store = fixture.store("apps", "v1", "deployments");
    model::Object web = deployment("web");
    web.mutableJson()["spec"]["template"]["spec"]["containers"][0]["ports"] =
        nlohmann::json::parse(R"([{"name":"http","containerPort":80}])");
    const std::string rv = run(store->create("default", web, WriteOptions())).value()->resourceVersion();

    auto pullPolicy = run(store->update(
        "default", "web",
        strategicPatch(R"({"spec":{"template":{"spec":{"containers":[{"name":"app",)"
                       R"("imagePullPolicy":"Sometimes"}]}}}})"),
        WriteOptions()));
    QVERIFY(!pullPolicy);
    QCOMPARE(pullPolicy.error().code, 422);
    QCOMPARE(pullPolicy.error().message,
             std::string("Deployment.apps \"web\" is invalid: spec.template.spec.containers[0].imagePullPolicy: "
                         "Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", "
                         "\"Never\""));

    auto twoErrors = run(store->update(
        "default", "web",
        strategicPatch(R"({"spec":{"template":{"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,)"
                       R"("protocol":"HTTP"}]}],"initContainers":[{"name":"app","image":"busybox:1"}]}}}})"),
        WriteOptions()));
    QVERIFY(!twoErrors);
    QCOMPARE(twoErrors.error().code, 422);
    QCOMPARE(twoErrors.error().message,
             std::string("Deployment.apps \"web\" is invalid: ["
                         "spec.template.spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported "
                         "values: \"SCTP\", \"TCP\", \"UDP\", "
                         "spec.template.spec.initContainers[0].name: Duplicate value: \"app\"]"));

    // A patch that leaves the template alone is still checked everywhere else.
    auto negative = run(store->update("default", "web", mergePatch(R"({"spec":{"replicas":-1}})", "Deployment"),
                                      WriteOptions()));
    QVERIFY(!negative);
    QCOMPARE(negative.error().message, std::string("Deployment.apps \"web\" is invalid: spec.replicas: Invalid value: "
                                                   "-1: must be greater than or equal to 0"));
    QCOMPARE(run(store->get("default", "web")).value()->resourceVersion(), rv);
}

void TestStore::testDeploymentPatchesAreDefaulted()
{
    // Defaulting runs on every update: a patch that removes a defaulted field gets it back,
    // so the update changes nothing.
    testing::RegistryFixture fixture;
    auto store = fixture.store("apps", "v1", "deployments");
    auto created = run(store->create("default", deployment("web"), WriteOptions())).value();
    const nlohmann::json &createdContainer = created->json()["spec"]["template"]["spec"]["containers"][0];
    QCOMPARE(createdContainer["terminationMessagePolicy"], nlohmann::json("File"));
    QCOMPARE(created->json()["spec"]["revisionHistoryLimit"], nlohmann::json(10));

    auto removed = run(store->update(
        "default", "web",
        strategicPatch(R"({"spec":{"revisionHistoryLimit":null,"strategy":{"rollingUpdate":{"maxSurge":null}},)"
                       R"("template":{"spec":{"dnsPolicy":null,"containers":[{"name":"app",)"
                       R"("terminationMessagePolicy":null,"imagePullPolicy":""}]}}}})"),
        WriteOptions()));
    QVERIFY(removed);
    QVERIFY(removed->noop);
    QCOMPARE(removed->object->resourceVersion(), created->resourceVersion());
    QCOMPARE(removed->object->json(), created->json());

    // A removed default next to a real change: the default is back, the change is kept.
    auto changed = run(store->update(
        "default", "web",
        mergePatch(R"({"spec":{"progressDeadlineSeconds":null,"template":{"spec":{"schedulerName":null,)"
                   R"("containers":[{"name":"app","image":"nginx:2"}]}}}})",
                   "Deployment"),
        WriteOptions()));
    QVERIFY(changed);
    QVERIFY(!changed->noop);
    const nlohmann::json &spec = changed->object->json()["spec"];
    QCOMPARE(spec["progressDeadlineSeconds"], nlohmann::json(600));
    QCOMPARE(spec["template"]["spec"]["schedulerName"], nlohmann::json("default-scheduler"));
    const nlohmann::json &container = spec["template"]["spec"]["containers"][0];
    QCOMPARE(container["image"], nlohmann::json("nginx:2"));
    QCOMPARE(container["terminationMessagePath"], nlohmann::json("/dev/termination-log"));
    QCOMPARE(changed->object->generation().value_or(-1), std::int64_t(2));
}

void TestStore::testStatusSubresourceChangesOnlyStatus()
{
    testing::RegistryFixture fixture;
    const auto entry = fixture.registry->find("apps", "v1", "deployments");
    QVERIFY(entry && entry->status && entry->scale);
    run(entry->store->create("default", deployment("web"), WriteOptions())).value();
    auto updated = run(entry->status->update(
        "default", "web", mergePatch(R"({"spec":{"replicas":5},"status":{"replicas":2}})", "Deployment"), WriteOptions()));
    QVERIFY2(updated, updated ? "" : updated.error().message.c_str());
    QCOMPARE(updated->object->json()["status"]["replicas"], 2);
    QCOMPARE(updated->object->json()["spec"]["replicas"], 1);
    QCOMPARE(updated->object->generation().value_or(-1), std::int64_t(1));

    // /scale is a view: an autoscaling/v1 Scale, and writing it sets spec.replicas.
    auto scale = run(entry->scale->get("default", "web"));
    QVERIFY(scale);
    QCOMPARE((*scale)->kind(), std::string("Scale"));
    QCOMPARE((*scale)->apiVersion(), std::string("autoscaling/v1"));
    QCOMPARE((*scale)->json()["status"]["selector"], "app=web");
    auto rescaled = run(entry->scale->update("default", "web", mergePatch(R"({"spec":{"replicas":4}})", "Scale"),
                                             WriteOptions()));
    QVERIFY2(rescaled, rescaled ? "" : rescaled.error().message.c_str());
    QCOMPARE(rescaled->object->json()["spec"]["replicas"], 4);
    QCOMPARE(run(entry->store->get("default", "web")).value()->json()["spec"]["replicas"], 4);
    // A Scale carrying a stale resourceVersion conflicts like a stale Deployment.
    const std::string stale = R"({"metadata":{"resourceVersion":")" + (*scale)->resourceVersion()
        + R"("},"spec":{"replicas":1}})";
    auto conflict = run(entry->scale->update("default", "web", mergePatch(stale.c_str(), "Scale"), WriteOptions()));
    QVERIFY(!conflict);
    QCOMPARE(conflict.error().code, 409);
}

void TestStore::testFinalizersDelayDeletion()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    model::Object held = configMap("held");
    held.setFinalizers({"example.com/a"});
    run(store->create("default", held, WriteOptions())).value();
    auto first = run(store->remove("default", "held", registry::DeleteOptions()));
    QVERIFY(first);
    QVERIFY(!first->deleted);
    QVERIFY(!first->object->deletionTimestamp().empty());
    auto again = run(store->remove("default", "held", registry::DeleteOptions()));
    QCOMPARE(again->object->resourceVersion(), first->object->resourceVersion()); // a second DELETE changes nothing

    auto adding = run(store->update("default", "held", mergePatch(R"({"metadata":{"finalizers":["example.com/a","b"]}})"),
                                    WriteOptions()));
    QVERIFY(!adding);
    QCOMPARE(adding.error().code, 422);

    auto released = run(store->update("default", "held", mergePatch(R"({"metadata":{"finalizers":[]}})"), WriteOptions()));
    QVERIFY(released);
    QCOMPARE(run(store->get("default", "held")).error().code, 404);
}

void TestStore::testDeleteCollection()
{
    testing::RegistryFixture fixture;
    auto store = fixture.configMaps();
    for (const auto &[name, app] : std::vector<std::pair<std::string, std::string>>{{"a", "web"}, {"b", "db"}, {"c", "web"}})
        run(store->create("default", labelled(name, app), WriteOptions())).value();
    ListOptions selector;
    selector.labelSelector = "app=web";
    auto removed = run(store->removeCollection("default", registry::DeleteOptions(), selector));
    QVERIFY(removed);
    QCOMPARE(names(removed->items), (std::vector<std::string>{"a", "c"}));
    QCOMPARE(names(run(store->list("default", ListOptions()))->items), std::vector<std::string>{"b"});
}

QTEST_GUILESS_MAIN(TestStore)
#include "TestStore.moc"
