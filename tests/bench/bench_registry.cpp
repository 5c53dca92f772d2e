// SPDX-License-Identifier: MIT
// Registry benchmark, side by side in one run:
// - the PUT and PATCH paths through registry::Store (the 409 decision, strategy, validation,
//   managedFields) against storage-only guaranteedUpdate doing the same change. Goal: the
//   registry costs at most 2x storage alone (ratio >= 0.5);
// - the same writes to an object with managedFields against one without (an object whose
//   managedFields were reset with [] is untracked, as upstream: what writes cost before the
//   field manager). Goal: managedFields cost at most 25% (ratio >= 0.75);
// - server-side apply of a whole manifest against a PUT of the same change. Goal: apply runs
//   at >= 50% of PUT's rate.
#include <cstdio>

#include <QtCore/QCoreApplication>

#include "BenchHarness.h"
#include "TestSupport.h"
#include "model/JsonParse.h"
#include "registry/Registry.h"
#include "storage/MemoryStorage.h"

using namespace rvscope;
using model::Object;
using model::ObjectPtr;

namespace {

Object realisticDeployment()
{
    return Object(nlohmann::json::parse(R"({
      "apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":"web","namespace":"default","labels":{"app":"web","tier":"frontend","team":"payments"},
        "annotations":{"deployment.kubernetes.io/revision":"3","owner":"payments-team@example.com"}},
      "spec":{"replicas":3,"revisionHistoryLimit":10,"progressDeadlineSeconds":600,
        "selector":{"matchLabels":{"app":"web"}},
        "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
        "template":{"metadata":{"labels":{"app":"web","tier":"frontend"},"annotations":{"prometheus.io/scrape":"true"}},
          "spec":{"containers":[
            {"name":"app","image":"registry.example.com/payments/web:1.42.0","imagePullPolicy":"IfNotPresent",
             "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"name":"metrics","containerPort":9090,"protocol":"TCP"}],
             "env":[{"name":"LOG_LEVEL","value":"info"},{"name":"DB_HOST","value":"db.default.svc"},{"name":"COUNTER","value":"0"}],
             "resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},
             "readinessProbe":{"httpGet":{"path":"/ready","port":8080},"periodSeconds":5},
             "volumeMounts":[{"name":"config","mountPath":"/etc/web"}]},
            {"name":"sidecar","image":"registry.example.com/infra/proxy:2.1","ports":[{"containerPort":15001}]}],
            "volumes":[{"name":"config","configMap":{"name":"web-config"}}]}}}})"));
}

// A ConfigMap a client would write whole: 16 keys of configuration and a counter.
nlohmann::json benchConfigMap(const std::string &name)
{
    nlohmann::json object = {{"apiVersion", "v1"},
                             {"kind", "ConfigMap"},
                             {"metadata", {{"name", name}, {"namespace", "default"},
                                           {"labels", {{"app", "bench"}, {"tier", "backend"}}}}}};
    for (int i = 0; i < 16; ++i)
        object["data"]["key-" + std::to_string(i)] = "value number " + std::to_string(i) + " with some padding text";
    object["data"]["counter"] = "0";
    return object;
}

nlohmann::json benchDeployment(const std::string &name)
{
    nlohmann::json object = realisticDeployment().json();
    object["metadata"]["name"] = name;
    object["metadata"]["annotations"]["counter"] = "0";
    return object;
}

// The field a benchmark write changes: a ConfigMap's data.counter, a Deployment's annotation.
nlohmann::json &counterField(nlohmann::json &object)
{
    if (object.value("kind", "") == "Deployment")
        return object["metadata"]["annotations"]["counter"];
    return object["data"]["counter"];
}

registry::WriteOptions managedBy(const std::string &manager)
{
    registry::WriteOptions options;
    options.fieldManager = manager;
    options.manager = manager;
    options.forceAllowCreate = true; // an apply creates
    return options;
}

QCoro::Task<> applyLoop(std::shared_ptr<registry::Store> store, std::string name, nlohmann::json configuration, long n,
                        long &counter)
{
    const registry::WriteOptions options = managedBy("bench");
    counterField(configuration) = "$N";
    const std::string bodyTemplate = configuration.dump(); // what a client sends, made once
    for (long i = 0; i < n; ++i) {
        std::string body = bodyTemplate;
        body.replace(body.find("$N"), 2, std::to_string(++counter));
        // As the API layer does for each request: the body is parsed into the configuration.
        auto info = registry::makePatchInfo(store->type(), "application/apply-patch+yaml", body);
        if (!info)
            qFatal("bad apply: %s", info.error().message.c_str());
        auto result = co_await store->update("default", name, info.value(), options);
        if (!result)
            qFatal("apply failed: %s", result.error().message.c_str());
    }
}

struct Setup {
    std::shared_ptr<storage::MemoryStorage> storage = std::make_shared<storage::MemoryStorage>();
    registry::Registry registry{storage};
    std::shared_ptr<registry::Store> configMaps;
    std::shared_ptr<registry::Store> deployments;

    Setup()
    {
        testing::run(registry.bootstrap()).value();
        configMaps = registry.find("", "v1", "configmaps")->store;
        deployments = registry.find("apps", "v1", "deployments")->store;
        Object cm = testing::configMapOfSize("hot", 1024);
        cm.mutableJson()["metadata"].erase("uid");
        cm.mutableJson()["metadata"].erase("creationTimestamp");
        testing::run(configMaps->create("default", cm, registry::WriteOptions())).value();
        testing::run(deployments->create("default", realisticDeployment(), registry::WriteOptions())).value();
        // Tracked and untracked twins, and objects a manifest's apply created.
        for (const auto &[store, object] : {std::pair{configMaps, benchConfigMap("cm")},
                                            std::pair{deployments, benchDeployment("web")}}) {
            const std::string name = object["metadata"]["name"];
            nlohmann::json tracked = object;
            tracked["metadata"]["name"] = name + "-tracked";
            testing::run(store->create("default", Object(tracked), managedBy("bench"))).value();
            nlohmann::json untracked = object;
            untracked["metadata"]["name"] = name + "-untracked";
            untracked["metadata"]["managedFields"] = nlohmann::json::array();
            const ObjectPtr created = testing::run(store->create("default", Object(untracked), managedBy("bench"))).value();
            if (created->json()["metadata"].contains("managedFields"))
                qFatal("an object created with managedFields [] must be untracked");
            nlohmann::json applied = object;
            applied["metadata"]["name"] = name + "-applied";
            testing::run(applyLoop(store, name + "-applied", applied, 1, applyCounter));
        }
    }
    long applyCounter = 0;
};

QCoro::Task<> storageLoop(storage::Storage &storage, std::string key, long n, long &counter)
{
    for (long i = 0; i < n; ++i) {
        const std::string value = std::to_string(++counter);
        storage::TryUpdate tryUpdate = [value](ObjectPtr existing) -> QCoro::Task<model::Result<Object>> {
            Object next = *existing;
            next.mutableJson()["data"]["counter"] = value;
            co_return next;
        };
        auto result = co_await storage.guaranteedUpdate(key, storage::Preconditions(), std::move(tryUpdate));
        if (!result)
            qFatal("storage update failed: %s", result.error().message.c_str());
    }
}

// A client doing read-modify-PUT with the resourceVersion it read (it always holds the
// latest, so no 409s: this measures the path, not contention).
QCoro::Task<> putLoop(std::shared_ptr<registry::Store> store, std::string name, long n, long &counter)
{
    ObjectPtr current = (co_await store->get("default", name)).value();
    const registry::WriteOptions options = managedBy("bench");
    for (long i = 0; i < n; ++i) {
        Object desired = *current;
        counterField(desired.mutableJson()) = std::to_string(++counter);
        auto info = std::make_shared<registry::PutObjectInfo>(std::move(desired));
        auto result = co_await store->update("default", name, std::move(info), options);
        if (!result)
            qFatal("PUT failed: %s", result.error().message.c_str());
        current = result->object;
    }
}

QCoro::Task<> patchLoop(std::shared_ptr<registry::Store> store, std::string name, std::string contentType,
                        std::string bodyTemplate, long n, long &counter)
{
    const auto &type = store->type();
    for (long i = 0; i < n; ++i) {
        std::string body = bodyTemplate;
        body.replace(body.find("$N"), 2, std::to_string(++counter));
        auto info = registry::makePatchInfo(type, contentType, body);
        if (!info)
            qFatal("bad patch: %s", info.error().message.c_str());
        auto result = co_await store->update("default", name, info.value(), registry::WriteOptions());
        if (!result)
            qFatal("PATCH failed: %s", result.error().message.c_str());
    }
}

void compareWithStorage(const bench::Options &options, const std::string &name, Setup &setup, const std::string &key,
                        const std::function<void(long, long &)> &registryOps)
{
    if (!bench::selected(options, name))
        return;
    long storageCounter = 0;
    long registryCounter = 0;
    auto comparison = bench::compare(
        name, options, [&](long n) { registryOps(n, registryCounter); },
        [&](long n) { QCoro::waitFor(storageLoop(*setup.storage, key, n, storageCounter)); }, 0.5);
    bench::print(comparison);
}

// A request body's parse into a tree: what every PUT, POST and PATCH pays first.
void compareBodyParsing(const bench::Options &options, const std::string &name, const std::string &body)
{
    if (!bench::selected(options, name))
        return;
    std::size_t sink = 0;
    auto comparison = bench::compare(
        name, options,
        [&](long n) {
            for (long i = 0; i < n; ++i)
                sink += model::parseJson(body)->size();
        },
        [&](long n) {
            for (long i = 0; i < n; ++i)
                sink += nlohmann::json::parse(body, nullptr, false).size();
        });
    bench::print(comparison);
    if (sink == 0)
        std::printf("(nothing parsed)\n");
}

std::string configMapBody()
{
    nlohmann::json body = {{"apiVersion", "v1"},
                           {"kind", "ConfigMap"},
                           {"metadata",
                            {{"name", "hot"},
                             {"namespace", "default"},
                             {"resourceVersion", "123456"},
                             {"uid", "6c8e1d5a-0d7b-4c3e-9b51-3f1e2d4c5b6a"},
                             {"labels", {{"app", "bench"}, {"tier", "backend"}}}}}};
    for (int i = 0; i < 16; ++i)
        body["data"]["key-" + std::to_string(i)] = "value number " + std::to_string(i) + " with some padding text";
    return body.dump();
}

std::string deploymentBody()
{
    nlohmann::json container = {{"name", "app"},
                                {"image", "registry.example.com/team/app:1.2.3"},
                                {"ports", {{{"containerPort", 8080}, {"protocol", "TCP"}}}},
                                {"resources", {{"limits", {{"cpu", "500m"}, {"memory", "256Mi"}}}}},
                                {"env", nlohmann::json::array()}};
    for (int i = 0; i < 8; ++i)
        container["env"].push_back({{"name", "VAR_" + std::to_string(i)}, {"value", "value-" + std::to_string(i)}});
    nlohmann::json body = {
        {"apiVersion", "apps/v1"},
        {"kind", "Deployment"},
        {"metadata", {{"name", "web"}, {"namespace", "default"}, {"resourceVersion", "42"}, {"labels", {{"app", "web"}}}}},
        {"spec",
         {{"replicas", 3},
          {"selector", {{"matchLabels", {{"app", "web"}}}}},
          {"template", {{"metadata", {{"labels", {{"app", "web"}}}}}, {"spec", {{"containers", {container}}}}}}}}};
    return body.dump();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const bench::Options options = bench::parseOptions(argc, argv);
    std::printf("rvscope registry benchmark: registry::Store update paths vs storage-only guaranteedUpdate making\n"
                "the same kind of change to the same object; %d alternating rounds: medians of each, and the\n"
                "median of the rounds' ratios (pairs: their spread).\n",
                options.smoke ? 1 : options.rounds);
    bench::printHeader("registry (baseline column: storage guaranteedUpdate alone)");
    Setup setup;
    const std::string cmKey = "/registry/configmaps/default/hot";
    const std::string deployKey = "/registry/deployments/default/web";

    compareWithStorage(options, "PUT read-modify-write, 1 KB ConfigMap", setup, cmKey, [&](long n, long &counter) {
        QCoro::waitFor(putLoop(setup.configMaps, "hot", n, counter));
    });
    compareWithStorage(options, "merge PATCH, 1 KB ConfigMap", setup, cmKey, [&](long n, long &counter) {
        QCoro::waitFor(patchLoop(setup.configMaps, "hot", "application/merge-patch+json",
                                 R"({"data":{"counter":"$N"}})", n, counter));
    });
    compareWithStorage(options, "strategic PATCH, 1 KB ConfigMap", setup, cmKey, [&](long n, long &counter) {
        QCoro::waitFor(patchLoop(setup.configMaps, "hot", "application/strategic-merge-patch+json",
                                 R"({"data":{"counter":"$N"}})", n, counter));
    });
    compareWithStorage(options, "merge PATCH, Deployment", setup, deployKey, [&](long n, long &counter) {
        QCoro::waitFor(patchLoop(setup.deployments, "web", "application/merge-patch+json",
                                 R"({"metadata":{"annotations":{"counter":"$N"}}})", n, counter));
    });
    compareWithStorage(options, "strategic PATCH (env by merge key), Deployment", setup, deployKey,
                       [&](long n, long &counter) {
                           QCoro::waitFor(patchLoop(
                               setup.deployments, "web", "application/strategic-merge-patch+json",
                               R"({"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"COUNTER","value":"$N"}]}]}}}})",
                               n, counter));
                       });

    bench::printHeader("managedFields (baseline column: the same write to an object without managedFields)");
    struct Write {
        const char *name;
        std::shared_ptr<registry::Store> store;
        const char *object;
        const char *patch; // null: PUT
    };
    const Write tracking[] = {
        {"PUT read-modify-write, 1 KB ConfigMap", setup.configMaps, "cm", nullptr},
        {"merge PATCH, 1 KB ConfigMap", setup.configMaps, "cm", R"({"data":{"counter":"$N"}})"},
        {"PUT read-modify-write, Deployment", setup.deployments, "web", nullptr},
        {"merge PATCH, Deployment", setup.deployments, "web", R"({"metadata":{"annotations":{"counter":"$N"}}})"},
    };
    for (const Write &write : tracking) {
        const std::string name = std::string(write.name) + ", managedFields";
        if (!bench::selected(options, name))
            continue;
        long tracked = 0;
        long untracked = 0;
        auto loop = [&](const std::string &object, long n, long &counter) {
            if (write.patch)
                QCoro::waitFor(patchLoop(write.store, object, "application/merge-patch+json", write.patch, n, counter));
            else
                QCoro::waitFor(putLoop(write.store, object, n, counter));
        };
        bench::print(bench::compare(
            name, options, [&](long n) { loop(std::string(write.object) + "-tracked", n, tracked); },
            [&](long n) { loop(std::string(write.object) + "-untracked", n, untracked); }, 0.75));
    }

    bench::printHeader("server-side apply (baseline column: PUT of the same change)");
    for (const auto &[kindStore, object] : {std::pair{setup.configMaps, benchConfigMap("cm")},
                                            std::pair{setup.deployments, benchDeployment("web")}}) {
        const std::shared_ptr<registry::Store> store = kindStore; // (clang 14: lambdas cannot capture bindings)
        const std::string base = object["metadata"]["name"];
        const std::string name = std::string("apply a whole manifest vs PUT, ")
            + (base == "cm" ? "1 KB ConfigMap" : "Deployment");
        if (!bench::selected(options, name))
            continue;
        long putCounter = 0;
        nlohmann::json configuration = object;
        configuration["metadata"]["name"] = base + "-applied";
        bench::print(bench::compare(
            name, options,
            [&](long n) { QCoro::waitFor(applyLoop(store, base + "-applied", configuration, n, setup.applyCounter)); },
            [&](long n) { QCoro::waitFor(putLoop(store, base + "-tracked", n, putCounter)); }, 0.5));
    }

    bench::printHeader("request body parsing (baseline column: nlohmann::json::parse)");
    const std::string configMap = configMapBody();
    const std::string deployment = deploymentBody();
    compareBodyParsing(options, "parse a " + std::to_string(configMap.size()) + " B ConfigMap body", configMap);
    compareBodyParsing(options, "parse a " + std::to_string(deployment.size()) + " B Deployment body", deployment);
    return 0;
}
