// SPDX-License-Identifier: MIT
// Plain and aggregated discovery documents and /version, computed from the real registry's
// types: the shapes kubectl and the python client depend on (wire contract §1.2, §1.3,
// §9.1, §9.2).
#include <QtTest/QtTest>

#include "DiscoveryTestSupport.h"
#include "api/discovery/Discovery.h"

using namespace rvscope;
using nlohmann::json;
using testing::findBy;

#define QCOMPARE_JSON(actual, expected)                                                                                \
    QCOMPARE(QString::fromStdString(json(actual).dump()), QString::fromStdString(json(expected).dump()))

namespace {
const std::vector<std::string> ALL_VERBS = {"create", "delete", "deletecollection", "get",
                                            "list",   "patch",  "update",           "watch"};
const std::vector<std::string> SUBRESOURCE_VERBS = {"get", "patch", "update"};
const char *KUBECTL_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                             "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
                             "application/json";

std::vector<std::string> names(const json &array, const char *field)
{
    std::vector<std::string> result;
    for (const json &item : array)
        result.push_back(item.at(field).get<std::string>());
    return result;
}
} // namespace

class TestDiscovery final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testApiVersions();
    void testApiGroupListHasEveryNonCoreGroup();
    void testCustomVersionsArePreferredByKubeAwareOrder();
    void testApiGroup();
    void testEveryResourceHasWhatPythonRequires();
    void testCoreResources();
    void testDeploymentSubresources();
    void testUnknownGroupVersionIsNotFound();
    void testStorageVersionHashMatchesUpstream();
    void testCustomResourcesFromARegisteredDefinition();
    void testClusterScopedCustomResource();
    void testAggregatedCoreGroup();
    void testAggregatedGroups();
    void testWantsAggregatedDiscovery_data();
    void testWantsAggregatedDiscovery();
    void testVersionInfoHasAllNineFields();
};

void TestDiscovery::testApiVersions()
{
    QCOMPARE_JSON(api::apiVersions("127.0.0.1:6443"),
                  json::parse(R"({"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":
                    [{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]})"));
}

void TestDiscovery::testApiGroupListHasEveryNonCoreGroup()
{
    testing::RegistryFixture fixture;
    json list = api::apiGroupList(fixture.registry->types());
    QCOMPARE(list["kind"], "APIGroupList");
    QCOMPARE(list["apiVersion"], "v1");
    // Upstream's group priority order; the core group is only under /api.
    QCOMPARE(names(list["groups"], "name"),
             (std::vector<std::string>{"apiregistration.k8s.io", "apps", "autoscaling", "batch", "networking.k8s.io",
                                       "policy", "rbac.authorization.k8s.io", "storage.k8s.io",
                                       "admissionregistration.k8s.io", "apiextensions.k8s.io", "scheduling.k8s.io",
                                       "coordination.k8s.io", "discovery.k8s.io"}));
    QCOMPARE_JSON(list["groups"][1], json::parse(R"({"name":"apps",
        "versions":[{"groupVersion":"apps/v1","version":"v1"}],
        "preferredVersion":{"groupVersion":"apps/v1","version":"v1"}})"));
}

void TestDiscovery::testCustomVersionsArePreferredByKubeAwareOrder()
{
    testing::RegistryFixture fixture;
    const auto types =
        testing::withCustomTypes(fixture.registry->types(), testing::cronTabDefinition("Namespaced", true));
    json groups = api::apiGroupList(types)["groups"];
    // Custom groups come after every built-in one.
    QCOMPARE(groups.back()["name"], "stable.example.com");
    QCOMPARE(names(groups.back()["versions"], "version"), (std::vector<std::string>{"v1", "v1beta1", "v2alpha1"}));
    QCOMPARE_JSON(groups.back()["preferredVersion"],
                  json::parse(R"({"groupVersion":"stable.example.com/v1","version":"v1"})"));

    QVERIFY(api::compareKubeAwareVersions("v2", "v1") < 0);
    QVERIFY(api::compareKubeAwareVersions("v1", "v10beta3") < 0);
    QVERIFY(api::compareKubeAwareVersions("v2beta1", "v1beta2") < 0);
    QVERIFY(api::compareKubeAwareVersions("v1beta2", "v1beta1") < 0);
    QVERIFY(api::compareKubeAwareVersions("v1alpha1", "foo") < 0);
    QVERIFY(api::compareKubeAwareVersions("bar", "foo") < 0);
    QCOMPARE(api::compareKubeAwareVersions("v1", "v1"), 0);
}

void TestDiscovery::testApiGroup()
{
    testing::RegistryFixture fixture;
    const auto types = fixture.registry->types();
    const auto apps = api::apiGroup(types, "apps");
    QVERIFY(apps);
    QCOMPARE_JSON(*apps, json::parse(R"({"kind":"APIGroup","apiVersion":"v1","name":"apps",
        "versions":[{"groupVersion":"apps/v1","version":"v1"}],
        "preferredVersion":{"groupVersion":"apps/v1","version":"v1"}})"));
    QVERIFY(!api::apiGroup(types, ""));
    QVERIFY(!api::apiGroup(types, "example.com"));
}

void TestDiscovery::testEveryResourceHasWhatPythonRequires()
{
    testing::RegistryFixture fixture;
    const auto types = testing::withCustomTypes(fixture.registry->types(), testing::cronTabDefinition());
    int checked = 0;
    for (const auto &group : api::servedGroups(types)) {
        for (const auto &version : group.versions) {
            const auto list = api::apiResourceList(types, group.name, version.version);
            QVERIFY(list);
            QCOMPARE((*list)["kind"], "APIResourceList");
            QCOMPARE((*list)["groupVersion"],
                     group.name.empty() ? version.version : group.name + '/' + version.version);
            for (json resource : (*list)["resources"]) {
                QVERIFY2(resource["name"].is_string() && resource["singularName"].is_string() &&
                             resource["namespaced"].is_boolean() && resource["kind"].is_string() &&
                             resource["verbs"].is_array() && !resource["verbs"].empty(),
                         resource.dump().c_str());
                ++checked;
            }
        }
    }
    // 40 built-in resources (horizontalpodautoscalers in two versions), 17 /status and 4
    // /scale; crontabs in two versions and one /status.
    QCOMPARE(checked, 40 + 17 + 4 + 3);
}

void TestDiscovery::testCoreResources()
{
    testing::RegistryFixture fixture;
    json resources = api::apiResourceList(fixture.registry->types(), "", "v1").value()["resources"];
    QCOMPARE(names(resources, "name"),
             (std::vector<std::string>{"configmaps", "endpoints", "events", "limitranges", "namespaces", "nodes",
                                       "nodes/status", "persistentvolumeclaims", "persistentvolumeclaims/status",
                                       "persistentvolumes", "persistentvolumes/status", "pods", "pods/status",
                                       "podtemplates", "replicationcontrollers", "replicationcontrollers/scale",
                                       "replicationcontrollers/status", "resourcequotas", "resourcequotas/status",
                                       "secrets", "serviceaccounts", "services"}));
    QCOMPARE_JSON(findBy(resources, "name", "configmaps"), json::parse(R"({"name":"configmaps",
        "singularName":"configmap","namespaced":true,"kind":"ConfigMap",
        "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
        "shortNames":["cm"],"storageVersionHash":"qFsyl6wFWjQ="})"));
    QCOMPARE_JSON(findBy(resources, "name", "pods/status"), json::parse(R"({"name":"pods/status",
        "singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]})"));
    json namespaces = findBy(resources, "name", "namespaces");
    QCOMPARE(namespaces["namespaced"], false);
    QCOMPARE(namespaces["verbs"].get<std::vector<std::string>>(),
             (std::vector<std::string>{"create", "delete", "get", "list", "patch", "update", "watch"}));
    QCOMPARE(namespaces["shortNames"], json({"ns"}));
    QCOMPARE(findBy(resources, "name", "pods")["categories"], json({"all"}));
    QCOMPARE(findBy(resources, "name", "pods")["shortNames"], json({"po"}));
    QCOMPARE(findBy(resources, "name", "nodes")["namespaced"], false);
    // Empty lists are omitted, as upstream does.
    QVERIFY(!findBy(resources, "name", "secrets").contains("shortNames"));
    QVERIFY(!findBy(resources, "name", "secrets").contains("categories"));
}

void TestDiscovery::testDeploymentSubresources()
{
    testing::RegistryFixture fixture;
    json list = api::apiResourceList(fixture.registry->types(), "apps", "v1").value();
    QCOMPARE(list["groupVersion"], "apps/v1");
    json resources = list["resources"];
    QCOMPARE(names(resources, "name"),
             (std::vector<std::string>{"controllerrevisions", "daemonsets", "daemonsets/status", "deployments",
                                       "deployments/scale", "deployments/status", "replicasets", "replicasets/scale",
                                       "replicasets/status", "statefulsets", "statefulsets/scale",
                                       "statefulsets/status"}));
    json deployments = findBy(resources, "name", "deployments");
    QCOMPARE(deployments["shortNames"], json({"deploy"}));
    QCOMPARE(deployments["categories"], json({"all"}));
    QCOMPARE(deployments["verbs"].get<std::vector<std::string>>(), ALL_VERBS);
    QCOMPARE_JSON(findBy(resources, "name", "deployments/scale"), json::parse(R"({"name":"deployments/scale",
        "singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale",
        "verbs":["get","patch","update"]})"));
    QCOMPARE_JSON(findBy(resources, "name", "deployments/status"), json::parse(R"({"name":"deployments/status",
        "singularName":"","namespaced":true,"kind":"Deployment","verbs":["get","patch","update"]})"));
}

void TestDiscovery::testUnknownGroupVersionIsNotFound()
{
    testing::RegistryFixture fixture;
    const auto types = fixture.registry->types();
    QVERIFY(!api::apiResourceList(types, "", "v2"));
    QVERIFY(!api::apiResourceList(types, "apps", "v1beta1"));
    QVERIFY(!api::apiResourceList(types, "example.com", "v1"));
    QVERIFY(!api::apiResourceList({}, "", "v1"));
}

void TestDiscovery::testStorageVersionHashMatchesUpstream()
{
    testing::RegistryFixture fixture;
    // The values a real 1.32 apiserver advertises.
    QCOMPARE(api::storageVersionHash(*fixture.registry->find("", "v1", "pods")->type), "xPOwRZ+Yhw8=");
    QCOMPARE(api::storageVersionHash(*fixture.registry->find("apps", "v1", "deployments")->type), "8aSe+NMegvE=");
}

void TestDiscovery::testCustomResourcesFromARegisteredDefinition()
{
    testing::RegistryFixture fixture;
    const auto generation = fixture.registry->typesGeneration();
    auto created =
        testing::run(fixture.store("apiextensions.k8s.io", "v1", "customresourcedefinitions")
                         ->create("", model::Object(testing::cronTabDefinition()), registry::WriteOptions()));
    QVERIFY(created);
    QVERIFY(fixture.registry->typesGeneration() != generation);
    const auto types = fixture.registry->types();

    json v1 = api::apiResourceList(types, "stable.example.com", "v1").value();
    QCOMPARE(names(v1["resources"], "name"), (std::vector<std::string>{"crontabs", "crontabs/status"}));
    json crontabs = findBy(v1["resources"], "name", "crontabs");
    QCOMPARE(crontabs["singularName"], "crontab");
    QCOMPARE(crontabs["namespaced"], true);
    QCOMPARE(crontabs["kind"], "CronTab");
    QCOMPARE(crontabs["shortNames"], json({"ct"}));
    QCOMPARE(crontabs["verbs"].get<std::vector<std::string>>(), ALL_VERBS);
    QCOMPARE(findBy(v1["resources"], "name", "crontabs/status")["verbs"].get<std::vector<std::string>>(),
             SUBRESOURCE_VERBS);
    json v1beta1 = api::apiResourceList(types, "stable.example.com", "v1beta1").value();
    QCOMPARE(names(v1beta1["resources"], "name"), (std::vector<std::string>{"crontabs"}));
    QCOMPARE(api::apiGroup(types, "stable.example.com").value()["preferredVersion"]["version"], "v1");
}

void TestDiscovery::testClusterScopedCustomResource()
{
    const auto types = testing::withCustomTypes({}, testing::cronTabDefinition("Cluster"));
    json list = api::apiResourceList(types, "stable.example.com", "v1").value();
    QCOMPARE(findBy(list["resources"], "name", "crontabs")["namespaced"], false);
    QCOMPARE(findBy(list["resources"], "name", "crontabs/status")["namespaced"], false);
    json aggregated = api::aggregatedDiscovery(types, false);
    QCOMPARE(aggregated["items"][0]["versions"][0]["resources"][0]["scope"], "Cluster");
}

void TestDiscovery::testAggregatedCoreGroup()
{
    testing::RegistryFixture fixture;
    json list = api::aggregatedDiscovery(fixture.registry->types(), true);
    QCOMPARE(list["kind"], "APIGroupDiscoveryList");
    QCOMPARE(list["apiVersion"], "apidiscovery.k8s.io/v2");
    QCOMPARE(list["metadata"], json::object());
    QCOMPARE(list["items"].size(), std::size_t(1));
    json core = list["items"][0];
    QVERIFY(!core["metadata"].contains("name"));
    QCOMPARE(core["versions"].size(), std::size_t(1));
    QCOMPARE(core["versions"][0]["version"], "v1");
    QCOMPARE(core["versions"][0]["freshness"], "Current");
    json resources = core["versions"][0]["resources"];
    QCOMPARE(resources.size(), std::size_t(15));
    QCOMPARE_JSON(findBy(resources, "resource", "configmaps"), json::parse(R"({"resource":"configmaps",
        "responseKind":{"group":"","version":"v1","kind":"ConfigMap"},"scope":"Namespaced",
        "singularResource":"configmap",
        "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
        "shortNames":["cm"]})"));
    QCOMPARE_JSON(findBy(resources, "resource", "pods")["subresources"], json::parse(R"([{"subresource":"status",
        "responseKind":{"group":"","version":"v1","kind":"Pod"},"verbs":["get","patch","update"]}])"));
    QCOMPARE(findBy(resources, "resource", "namespaces")["scope"], "Cluster");
}

void TestDiscovery::testAggregatedGroups()
{
    testing::RegistryFixture fixture;
    const auto types = testing::withCustomTypes(fixture.registry->types(), testing::cronTabDefinition());
    json items = api::aggregatedDiscovery(types, false)["items"];
    std::vector<std::string> groups;
    for (json item : items)
        groups.push_back(item["metadata"]["name"].get<std::string>());
    QCOMPARE(groups, names(api::apiGroupList(types)["groups"], "name"));
    json deployments = findBy(items[1]["versions"][0]["resources"], "resource", "deployments");
    QCOMPARE_JSON(deployments["subresources"], json::parse(R"([
        {"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
         "verbs":["get","patch","update"]},
        {"subresource":"status","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},
         "verbs":["get","patch","update"]}])"));
    QCOMPARE(deployments["categories"], json({"all"}));
    QCOMPARE(deployments["singularResource"], "deployment");
    json custom = items.back();
    QCOMPARE(names(custom["versions"], "version"), (std::vector<std::string>{"v1", "v1beta1"}));
    QCOMPARE(custom["versions"][0]["resources"][0]["responseKind"],
             json::parse(R"({"group":"stable.example.com","version":"v1","kind":"CronTab"})"));
}

void TestDiscovery::testWantsAggregatedDiscovery_data()
{
    QTest::addColumn<QString>("accept");
    QTest::addColumn<bool>("aggregated");
    QTest::newRow("kubectl") << KUBECTL_ACCEPT << true;
    QTest::newRow("plain json") << "application/json" << false;
    QTest::newRow("python") << "application/json, */*" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("garbage") << ";;,,=;" << false;
    QTest::newRow("param order and spaces")
        << " application/json ; as=APIGroupDiscoveryList ;v=v2; g=apidiscovery.k8s.io" << true;
    QTest::newRow("v2beta1 only then json")
        << "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json" << false;
    QTest::newRow("plain first")
        << "application/json, application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" << false;
    QTest::newRow("weighted higher")
        << "application/json;q=0.5, application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" << true;
    QTest::newRow("weighted lower")
        << "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.2, application/json;q=0.9"
        << false;
    QTest::newRow("refused") << "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0" << false;
    QTest::newRow("protobuf first")
        << "application/vnd.kubernetes.protobuf,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
        << true;
    QTest::newRow("wrong kind") << "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupList" << false;
}

void TestDiscovery::testWantsAggregatedDiscovery()
{
    QFETCH(QString, accept);
    QFETCH(bool, aggregated);
    QCOMPARE(api::wantsAggregatedDiscovery(accept.toStdString()), aggregated);
    QCOMPARE(std::string(api::AGGREGATED_DISCOVERY_CONTENT_TYPE),
             std::string("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"));
}

void TestDiscovery::testVersionInfoHasAllNineFields()
{
    json info = api::versionInfo();
    QCOMPARE(info.size(), std::size_t(9));
    for (const char *field : {"major", "minor", "gitVersion", "gitCommit", "gitTreeState", "buildDate", "goVersion",
                              "compiler", "platform"})
        QVERIFY2(info.contains(field) && info[field].is_string() && !info[field].get<std::string>().empty(), field);
    QCOMPARE(info["major"], "1");
    QCOMPARE(info["minor"], "32");
    QVERIFY(info["gitVersion"].get<std::string>().starts_with("v1.32.0"));
}

QTEST_GUILESS_MAIN(TestDiscovery)
#include "TestDiscovery.moc"
