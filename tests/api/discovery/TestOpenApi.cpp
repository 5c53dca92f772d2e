// SPDX-License-Identifier: MIT
// The OpenAPI v3 index and group-version documents: what kubectl's strict validation and
// client-side apply look for (wire contract §1.4), for the real registry's types and for
// custom resources.
#include <QtTest/QtTest>

#include "DiscoveryTestSupport.h"
#include "api/discovery/OpenApi.h"

using namespace rvscope;
using nlohmann::json;

#define QCOMPARE_JSON(actual, expected)                                                                                \
    QCOMPARE(QString::fromStdString(json(actual).dump()), QString::fromStdString(json(expected).dump()))

namespace {
json gvk(const std::string &group, const std::string &version, const std::string &kind)
{
    return {{"group", group}, {"version", version}, {"kind", kind}};
}

bool hasQueryParameter(const json &operation, const std::string &name)
{
    for (const json &parameter : operation.value("parameters", json::array())) {
        if (parameter.value("name", "") == name && parameter.value("in", "") == "query")
            return true;
    }
    return false;
}

// What cli-runtime's query_param_verifier_v3 does: the patch operations of `kind`.
std::vector<json> patchOperationsOf(const json &document, const json &kind)
{
    std::vector<json> result;
    for (const auto &[path, item] : document.at("paths").items()) {
        if (item.contains("patch") && item.at("patch").value("x-kubernetes-group-version-kind", json()) == kind)
            result.push_back(item.at("patch"));
    }
    return result;
}

std::string documentKey(const registry::ResourceType &type)
{
    return api::openApiPathKey(type.gvr.group, type.gvr.version);
}
} // namespace

class TestOpenApi final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testIndexListsEveryGroupVersion();
    void testEveryKindHasValidatablePatchPaths();
    void testNamespacedAndClusterScopedPaths();
    void testPatchOperationDoesNotAdvertiseStrategicMerge();
    void testSubresourcePaths();
    void testComponentSchemas();
    void testCustomResourceDocuments();
    void testHashesChangeOnlyWithTheirDocument();
    void testDocumentLookup_data();
    void testDocumentLookup();
};

void TestOpenApi::testIndexListsEveryGroupVersion()
{
    testing::RegistryFixture fixture;
    const auto types = fixture.registry->types();
    json index = api::openApiIndex(types);
    std::vector<std::string> keys;
    for (const auto &[key, value] : index["paths"].items()) {
        keys.push_back(key);
        const std::string url = value["serverRelativeURL"].get<std::string>();
        const std::string hash = api::openApiDocumentHash(api::openApiDocument(types, key).value());
        QCOMPARE(url, "/openapi/v3/" + key + "?hash=" + hash);
        QCOMPARE(hash.size(), std::size_t(128));
    }
    QCOMPARE(keys, (std::vector<std::string>{
                       "api/v1", "apis/admissionregistration.k8s.io/v1", "apis/apiextensions.k8s.io/v1",
                       "apis/apiregistration.k8s.io/v1", "apis/apps/v1", "apis/autoscaling/v1", "apis/autoscaling/v2", "apis/batch/v1",
                       "apis/coordination.k8s.io/v1", "apis/discovery.k8s.io/v1", "apis/networking.k8s.io/v1",
                       "apis/policy/v1", "apis/rbac.authorization.k8s.io/v1", "apis/scheduling.k8s.io/v1",
                       "apis/storage.k8s.io/v1"}));
    QCOMPARE(index.size(), std::size_t(1));
}

void TestOpenApi::testEveryKindHasValidatablePatchPaths()
{
    testing::RegistryFixture fixture;
    const auto types = testing::withCustomTypes(fixture.registry->types(), testing::cronTabDefinition());
    const auto documents = api::openApiDocuments(types);
    int kinds = 0;
    for (const auto &type : types) {
        json document = documents.at(documentKey(*type));
        QCOMPARE(document["openapi"], "3.0.0");
        const auto operations = patchOperationsOf(document, gvk(type->gvr.group, type->gvr.version, type->kind));
        QVERIFY2(!operations.empty(), type->kind.c_str());
        for (const json &operation : operations) {
            QVERIFY2(hasQueryParameter(operation, "fieldValidation"), type->kind.c_str());
            QVERIFY(hasQueryParameter(operation, "fieldManager"));
            QVERIFY(hasQueryParameter(operation, "dryRun"));
            QVERIFY(hasQueryParameter(operation, "force"));
        }
        ++kinds;
    }
    // 39 built-in kinds, HorizontalPodAutoscaler in two versions (TestBuiltinTypes has one row
    // each), and crontabs in two versions.
    QCOMPARE(kinds, 40 + 2);
}

void TestOpenApi::testNamespacedAndClusterScopedPaths()
{
    testing::RegistryFixture fixture;
    json core = api::openApiDocument(fixture.registry->types(), "api/v1").value();
    json paths = core["paths"];
    json configMap = paths["/api/v1/namespaces/{namespace}/configmaps/{name}"];
    QCOMPARE_JSON(configMap["patch"]["x-kubernetes-group-version-kind"], gvk("", "v1", "ConfigMap"));
    QCOMPARE(configMap["patch"]["operationId"], "patchCoreV1NamespacedConfigMap");
    QCOMPARE(configMap["patch"]["x-kubernetes-action"], "patch");
    for (const char *method : {"get", "put", "patch", "delete"})
        QVERIFY2(configMap.contains(method), method);
    QCOMPARE(configMap["parameters"].size(), std::size_t(2));
    QVERIFY(hasQueryParameter(configMap["put"], "fieldValidation"));

    json collection = paths["/api/v1/namespaces/{namespace}/configmaps"];
    QCOMPARE_JSON(collection["get"]["x-kubernetes-group-version-kind"], gvk("", "v1", "ConfigMapList"));
    QCOMPARE(collection["post"]["operationId"], "createCoreV1NamespacedConfigMap");
    QVERIFY(hasQueryParameter(collection["post"], "fieldValidation"));
    QCOMPARE(collection["delete"]["x-kubernetes-action"], "deletecollection");
    QCOMPARE(paths["/api/v1/configmaps"]["get"]["operationId"], "listCoreV1ConfigMapForAllNamespaces");
    QVERIFY(!paths["/api/v1/configmaps"].contains("post"));

    // Cluster-scoped: no {namespace}; namespaces have no deletecollection.
    json ns = paths["/api/v1/namespaces/{name}"];
    QCOMPARE_JSON(ns["patch"]["x-kubernetes-group-version-kind"], gvk("", "v1", "Namespace"));
    QCOMPARE(ns["patch"]["operationId"], "patchCoreV1Namespace");
    QCOMPARE(ns["parameters"].size(), std::size_t(1));
    QVERIFY(paths["/api/v1/namespaces"].contains("post"));
    QVERIFY(!paths["/api/v1/namespaces"].contains("delete"));
    QVERIFY(paths.contains("/api/v1/nodes/{name}"));
    QVERIFY(!paths.contains("/api/v1/namespaces/{namespace}/nodes/{name}"));

    json apps = api::openApiDocument(fixture.registry->types(), "apis/apps/v1").value();
    QCOMPARE(apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"]["operationId"],
             "patchAppsV1NamespacedDeployment");
    json crds = api::openApiDocument(fixture.registry->types(), "apis/apiextensions.k8s.io/v1").value();
    QVERIFY(crds["paths"].contains("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"));
}

void TestOpenApi::testPatchOperationDoesNotAdvertiseStrategicMerge()
{
    // kubectl apply must not build its strategic merge patch from these permissive schemas;
    // see the comment in OpenApi.cpp.
    testing::RegistryFixture fixture;
    for (auto [key, document] : api::openApiDocuments(fixture.registry->types())) {
        for (auto [path, item] : document["paths"].items()) {
            if (!item.contains("patch"))
                continue;
            json content = item["patch"]["requestBody"]["content"];
            QVERIFY2(!content.contains("application/strategic-merge-patch+json"), path.c_str());
            QVERIFY(content.contains("application/merge-patch+json"));
            QVERIFY(content.contains("application/json-patch+json"));
            QVERIFY(content.contains("application/apply-patch+yaml"));
        }
    }
}

void TestOpenApi::testSubresourcePaths()
{
    testing::RegistryFixture fixture;
    const auto types = fixture.registry->types();
    json apps = api::openApiDocument(types, "apis/apps/v1").value();
    json scale = apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"];
    QCOMPARE_JSON(scale["patch"]["x-kubernetes-group-version-kind"], gvk("autoscaling", "v1", "Scale"));
    QCOMPARE(scale["patch"]["operationId"], "patchAppsV1NamespacedDeploymentScale");
    QVERIFY(hasQueryParameter(scale["patch"], "fieldValidation"));
    QVERIFY(!scale.contains("delete"));
    QCOMPARE_JSON(apps["components"]["schemas"]["io.k8s.api.autoscaling.v1.Scale"]["x-kubernetes-group-version-kind"],
                  json::array({gvk("autoscaling", "v1", "Scale")}));
    json status = apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status"];
    QCOMPARE_JSON(status["patch"]["x-kubernetes-group-version-kind"], gvk("apps", "v1", "Deployment"));
    QVERIFY(hasQueryParameter(status["patch"], "fieldValidation"));
    json core = api::openApiDocument(types, "api/v1").value();
    QVERIFY(core["paths"].contains("/api/v1/namespaces/{namespace}/pods/{name}/status"));
    QVERIFY(core["paths"].contains("/api/v1/nodes/{name}/status"));
    QVERIFY(!core["paths"].contains("/api/v1/namespaces/{namespace}/configmaps/{name}/status"));
}

void TestOpenApi::testComponentSchemas()
{
    testing::RegistryFixture fixture;
    const auto types = fixture.registry->types();
    const auto documents = api::openApiDocuments(types);
    json schemas = documents.at("api/v1")["components"]["schemas"];
    json configMap = schemas["io.k8s.api.core.v1.ConfigMap"];
    QCOMPARE(configMap["type"], "object");
    QCOMPARE(configMap["x-kubernetes-preserve-unknown-fields"], true);
    QCOMPARE_JSON(configMap["x-kubernetes-group-version-kind"], json::array({gvk("", "v1", "ConfigMap")}));
    QCOMPARE(configMap["properties"]["metadata"]["allOf"][0]["$ref"],
             "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    QCOMPARE(schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["type"], "object");
    QVERIFY(schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]["properties"].contains("resourceVersion"));
    QCOMPARE_JSON(schemas["io.k8s.api.core.v1.ConfigMapList"]["x-kubernetes-group-version-kind"],
                  json::array({gvk("", "v1", "ConfigMapList")}));
    QVERIFY(documents.at("apis/apps/v1")["components"]["schemas"].contains("io.k8s.api.apps.v1.Deployment"));
    QVERIFY(documents.at("apis/coordination.k8s.io/v1")["components"]["schemas"].contains(
        "io.k8s.api.coordination.v1.Lease"));
    QVERIFY(documents.at("apis/apiextensions.k8s.io/v1")["components"]["schemas"].contains(
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"));

    // Every $ref resolves within its own document.
    for (auto [key, document] : documents) {
        const std::string text = document.dump();
        const std::string marker = "\"$ref\":\"#/components/schemas/";
        for (std::size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
            const std::size_t start = at + marker.size();
            const std::string name = text.substr(start, text.find('"', start) - start);
            QVERIFY2(document["components"]["schemas"].contains(name), (key + ": " + name).c_str());
        }
    }
}

void TestOpenApi::testCustomResourceDocuments()
{
    testing::RegistryFixture fixture;
    const auto types = testing::withCustomTypes(fixture.registry->types(), testing::cronTabDefinition());
    json index = api::openApiIndex(types);
    QVERIFY(index["paths"].contains("apis/stable.example.com/v1"));
    QVERIFY(index["paths"].contains("apis/stable.example.com/v1beta1"));
    json v1 = api::openApiDocument(types, "apis/stable.example.com/v1").value();
    json item = v1["paths"]["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"];
    QCOMPARE_JSON(item["patch"]["x-kubernetes-group-version-kind"], gvk("stable.example.com", "v1", "CronTab"));
    QCOMPARE(item["patch"]["operationId"], "patchStableExampleComV1NamespacedCronTab");
    QVERIFY(hasQueryParameter(item["patch"], "fieldValidation"));
    QVERIFY(v1["paths"].contains("/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status"));
    QVERIFY(v1["components"]["schemas"].contains("com.example.stable.v1.CronTab"));
    QVERIFY(v1["components"]["schemas"].contains("com.example.stable.v1.CronTabList"));
    json v1beta1 = api::openApiDocument(types, "apis/stable.example.com/v1beta1").value();
    QVERIFY(
        !v1beta1["paths"].contains("/apis/stable.example.com/v1beta1/namespaces/{namespace}/crontabs/{name}/status"));

    const auto cluster = testing::withCustomTypes({}, testing::cronTabDefinition("Cluster"));
    json clusterDocument = api::openApiDocument(cluster, "apis/stable.example.com/v1").value();
    QVERIFY(clusterDocument["paths"].contains("/apis/stable.example.com/v1/crontabs/{name}"));
    QCOMPARE(clusterDocument["paths"]["/apis/stable.example.com/v1/crontabs/{name}"]["patch"]["operationId"],
             "patchStableExampleComV1CronTab");
}

void TestOpenApi::testHashesChangeOnlyWithTheirDocument()
{
    testing::RegistryFixture fixture;
    json before = api::openApiIndex(fixture.registry->types());
    QCOMPARE_JSON(api::openApiIndex(fixture.registry->types()), before); // stable

    auto created =
        testing::run(fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions")
                         ->create("", model::Object(testing::cronTabDefinition()), registry::WriteOptions()));
    QVERIFY(created);
    json after = api::openApiIndex(fixture.registry->types());
    QVERIFY(after != before);
    QVERIFY(after["paths"].contains("apis/stable.example.com/v1"));
    QCOMPARE(after["paths"].size(), before["paths"].size() + 2);
    for (const auto &[key, value] : before["paths"].items())
        QCOMPARE_JSON(after["paths"][key], value);

    // A custom type added to a group-version that already has documents changes its hash.
    const auto types = fixture.registry->types();
    auto extended = types;
    for (auto &type : registry::customResourceTypes(model::Object(testing::cronTabDefinition()))) {
        type->gvr.group = "apps";
        type->gvr.version = "v1";
        extended.push_back(std::move(type));
    }
    QVERIFY(api::openApiIndex(extended)["paths"]["apis/apps/v1"] != after["paths"]["apis/apps/v1"]);
    QCOMPARE_JSON(api::openApiIndex(extended)["paths"]["api/v1"], after["paths"]["api/v1"]);
}

void TestOpenApi::testDocumentLookup_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("found");
    QTest::newRow("core") << "api/v1" << true;
    QTest::newRow("apps") << "apis/apps/v1" << true;
    QTest::newRow("leading and trailing slash") << "/apis/apps/v1/" << true;
    QTest::newRow("unknown version") << "api/v2" << false;
    QTest::newRow("unknown group") << "apis/example.com/v1" << false;
    QTest::newRow("group only") << "apis/apps" << false;
    QTest::newRow("too deep") << "apis/apps/v1/deployments" << false;
    QTest::newRow("empty group") << "apis//v1" << false;
    QTest::newRow("core under apis") << "apis/v1" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("other root") << "openapi/v3" << false;
}

void TestOpenApi::testDocumentLookup()
{
    QFETCH(QString, key);
    QFETCH(bool, found);
    testing::RegistryFixture fixture;
    const auto document = api::openApiDocument(fixture.registry->types(), key.toStdString());
    QCOMPARE(document.has_value(), found);
}

QTEST_GUILESS_MAIN(TestOpenApi)
#include "TestOpenApi.moc"
