// SPDX-License-Identifier: MIT
// Every built-in type, one row each, through the API handler as kubectl reaches it:
// discovery lists it, OpenAPI v3 describes it with a PATCH operation, create, get, update,
// patch, list, watch and delete work, a stale resourceVersion gets the optimistic-lock 409,
// and its Table has the apiserver's columns. Adding a type adds a row here.
#include <QtTest/QtTest>

#include "ApiTestSupport.h"
#include "api/Watcher.h"

using namespace rvscope;
using api::ApiRequest;
using api::ApiResponse;
using nlohmann::json;

namespace {
constexpr const char *TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

using Fixture = testing::ApiFixture;

json parse(const ApiResponse &response)
{
    return json::parse(response.body, nullptr, false);
}

std::string groupVersionPath(const std::string &group, const std::string &version)
{
    return group.empty() ? "/api/" + version : "/apis/" + group + '/' + version;
}

const json *findByName(const json &list, const std::string &name)
{
    for (const json &item : list) {
        if (item.value("name", "") == name)
            return &item;
    }
    return nullptr;
}
} // namespace

class TestBuiltinTypes final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testEveryType_data();
    void testEveryType();
    void testDeclaredRules_data();
    void testDeclaredRules();
    void testVersionServedApartFromStorage();
    void testConversionSurvivesHostileAnnotations();
    void testUnchangedSpecKeepsTheGeneration();
    void testStatusWritesKeepTheSpec();
    void testPutCreatesRbacObjects();
};

void TestBuiltinTypes::testEveryType_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("namespaced");
    QTest::addColumn<QString>("shortName");
    QTest::addColumn<QString>("object"); // without metadata, which the test adds
    QTest::addColumn<QStringList>("columns");

    const QString podSpec = R"("spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]})";
    const QString templ = R"({"metadata":{"labels":{"app":"x"}},)" + podSpec + "}";
    const QString alwaysTempl = R"({"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}})";
    const QString selector = R"("selector":{"matchLabels":{"app":"x"}})";
    const QStringList workload = {"Name", "Desired", "Current", "Ready", "Age", "Containers", "Images", "Selector"};
    const QStringList createdAt = {"Name", "Created At"};
    const QStringList binding = {"Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"};
    const QStringList webhooks = {"Name", "Webhooks", "Age"};

    const auto row = [](const char *name, const char *group, const char *version, const char *resource,
                        const char *kind, bool namespaced, const char *shortName, const QString &object,
                        const QStringList &columns) {
        QTest::newRow(name) << group << version << resource << kind << namespaced << shortName << object << columns;
    };
    // The types served before the descriptor table, for the same checks.
    row("configmaps", "", "v1", "configmaps", "ConfigMap", true, "cm", R"({"data":{"a":"1"}})",
        {"Name", "Data", "Age"});
    row("deployments", "apps", "v1", "deployments", "Deployment", true, "deploy",
        R"({"spec":{)" + selector + R"(,"template":)" + alwaysTempl + "}}",
        {"Name", "Ready", "Up-to-date", "Available", "Age", "Containers", "Images", "Selector"});
    // core/v1
    row("serviceaccounts", "", "v1", "serviceaccounts", "ServiceAccount", true, "sa", "{}", {"Name", "Secrets", "Age"});
    row("endpoints", "", "v1", "endpoints", "Endpoints", true, "ep",
        R"({"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"port":80}]}]})", {"Name", "Endpoints", "Age"});
    row("replicationcontrollers", "", "v1", "replicationcontrollers", "ReplicationController", true, "rc",
        R"({"spec":{"selector":{"app":"x"},"template":)" + alwaysTempl + "}}", workload);
    row("persistentvolumes", "", "v1", "persistentvolumes", "PersistentVolume", false, "pv",
        R"({"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp"}}})",
        {"Name", "Capacity", "Access Modes", "Reclaim Policy", "Status", "Claim", "StorageClass",
         "VolumeAttributesClass", "Reason", "Age", "VolumeMode"});
    row("podtemplates", "", "v1", "podtemplates", "PodTemplate", true, "", R"({"template":)" + templ + "}",
        {"Name", "Containers", "Images", "Pod Labels"});
    row("limitranges", "", "v1", "limitranges", "LimitRange", true, "limits",
        R"({"spec":{"limits":[{"type":"Container","default":{"cpu":"100m"}}]}})", createdAt);
    row("resourcequotas", "", "v1", "resourcequotas", "ResourceQuota", true, "quota",
        R"({"spec":{"hard":{"pods":"10"}}})", {"Name", "Age", "Request", "Limit"});
    // apps/v1
    row("replicasets", "apps", "v1", "replicasets", "ReplicaSet", true, "rs",
        R"({"spec":{)" + selector + R"(,"template":)" + alwaysTempl + "}}", workload);
    row("statefulsets", "apps", "v1", "statefulsets", "StatefulSet", true, "sts",
        R"({"spec":{"serviceName":"x",)" + selector + R"(,"template":)" + alwaysTempl + "}}",
        {"Name", "Ready", "Age", "Containers", "Images"});
    row("daemonsets", "apps", "v1", "daemonsets", "DaemonSet", true, "ds",
        R"({"spec":{)" + selector + R"(,"template":)" + alwaysTempl + "}}",
        {"Name", "Desired", "Current", "Ready", "Up-to-date", "Available", "Node Selector", "Age", "Containers",
         "Images", "Selector"});
    row("controllerrevisions", "apps", "v1", "controllerrevisions", "ControllerRevision", true, "",
        R"({"revision":1,"data":{"spec":{}}})", {"Name", "Controller", "Revision", "Age"});
    // batch/v1
    row("jobs", "batch", "v1", "jobs", "Job", true, "", R"({"spec":{"template":)" + templ + "}}",
        {"Name", "Status", "Completions", "Duration", "Age", "Containers", "Images", "Selector"});
    row("cronjobs", "batch", "v1", "cronjobs", "CronJob", true, "cj",
        R"({"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":)" + templ + "}}}}",
        {"Name", "Schedule", "Timezone", "Suspend", "Active", "Last Schedule", "Age", "Containers", "Images",
         "Selector"});
    // discovery.k8s.io/v1
    row("endpointslices", "discovery.k8s.io", "v1", "endpointslices", "EndpointSlice", true, "",
        R"({"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}],"ports":[{"port":80}]})",
        {"Name", "AddressType", "Ports", "Endpoints", "Age"});
    // rbac.authorization.k8s.io/v1
    row("roles", "rbac.authorization.k8s.io", "v1", "roles", "Role", true, "",
        R"({"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]})", createdAt);
    row("rolebindings", "rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", true, "",
        R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},)"
        R"("subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"alice"}]})",
        binding);
    row("clusterroles", "rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", false, "",
        R"({"rules":[{"nonResourceURLs":["/healthz"],"verbs":["get"]}]})", createdAt);
    row("clusterrolebindings", "rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding",
        false, "",
        R"({"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},)"
        R"("subjects":[{"kind":"ServiceAccount","name":"sa","namespace":"default"}]})",
        binding);
    // networking.k8s.io/v1
    row("ingresses", "networking.k8s.io", "v1", "ingresses", "Ingress", true, "ing",
        R"({"spec":{"rules":[{"host":"a.example.com","http":{"paths":[{"path":"/","pathType":"Prefix",)"
        R"("backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}})",
        {"Name", "Class", "Hosts", "Address", "Ports", "Age"});
    row("ingressclasses", "networking.k8s.io", "v1", "ingressclasses", "IngressClass", false, "",
        R"({"spec":{"controller":"example.com/ingress"}})", {"Name", "Controller", "Parameters", "Age"});
    row("networkpolicies", "networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", true, "netpol",
        R"({"spec":{"podSelector":{}}})", {"Name", "Pod-Selector", "Age"});
    // policy/v1
    row("poddisruptionbudgets", "policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, "pdb",
        R"({"spec":{"minAvailable":1,)" + selector + "}}",
        {"Name", "Min Available", "Max Unavailable", "Allowed Disruptions", "Age"});
    // autoscaling/v2
    row("horizontalpodautoscalers", "autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler",
        true, "hpa", R"({"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},)"
                     R"("maxReplicas":5}})",
        {"Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"});
    row("horizontalpodautoscalers v1", "autoscaling", "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler",
        true, "hpa", R"({"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},)"
                     R"("maxReplicas":5,"targetCPUUtilizationPercentage":60}})",
        {"Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"});
    // storage.k8s.io/v1, scheduling.k8s.io/v1
    row("storageclasses", "storage.k8s.io", "v1", "storageclasses", "StorageClass", false, "sc",
        R"({"provisioner":"example.com/disk"})",
        {"Name", "Provisioner", "ReclaimPolicy", "VolumeBindingMode", "AllowVolumeExpansion", "Age"});
    row("priorityclasses", "scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false, "pc",
        R"({"value":1000})", {"Name", "Value", "Global-Default", "Age", "PreemptionPolicy"});
    // admissionregistration.k8s.io/v1 and apiregistration.k8s.io/v1: stored only
    row("validatingwebhookconfigurations", "admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
        "ValidatingWebhookConfiguration", false, "", R"({"webhooks":[]})", webhooks);
    row("mutatingwebhookconfigurations", "admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
        "MutatingWebhookConfiguration", false, "", R"({"webhooks":[]})", webhooks);
    row("apiservices", "apiregistration.k8s.io", "v1", "apiservices", "APIService", false, "",
        R"({"spec":{"group":"example.com","version":"v1","groupPriorityMinimum":1000,"versionPriority":15}})",
        {"Name", "Service", "Available", "Age"});
}

void TestBuiltinTypes::testEveryType()
{
    QFETCH(QString, group);
    QFETCH(QString, version);
    QFETCH(QString, resource);
    QFETCH(QString, kind);
    QFETCH(bool, namespaced);
    QFETCH(QString, shortName);
    QFETCH(QString, object);
    QFETCH(QStringList, columns);
    Fixture fixture;
    const std::string gv = groupVersionPath(group.toStdString(), version.toStdString());
    const std::string apiVersion = group.isEmpty() ? version.toStdString() : (group + '/' + version).toStdString();
    // apiservices are named version.group
    const std::string name = kind == "APIService" ? "v1.example.com" : "sample";
    const std::string collection = gv + (namespaced ? "/namespaces/default/" : "/") + resource.toStdString();
    const std::string item = collection + '/' + name;

    // Discovery.
    const json resources = parse(fixture.call("GET", gv));
    const json *listed = findByName(resources["resources"], resource.toStdString());
    QVERIFY2(listed, "discovery does not list the resource");
    QCOMPARE((*listed)["kind"], kind.toStdString());
    QCOMPARE((*listed)["namespaced"], namespaced);
    if (!shortName.isEmpty())
        QVERIFY((*listed)["shortNames"].dump().find('"' + shortName.toStdString() + '"') != std::string::npos);
    const std::string verbs = (*listed)["verbs"].dump();
    for (const char *verb : {"create", "delete", "get", "list", "patch", "update", "watch"})
        QVERIFY2(verbs.find(verb) != std::string::npos, verb);

    // OpenAPI v3 has it, with a PATCH operation of its group/version/kind.
    const json openApi = parse(fixture.call("GET", "/openapi/v3" + gv));
    const std::string itemTemplate =
        gv + (namespaced ? "/namespaces/{namespace}/" : "/") + resource.toStdString() + "/{name}";
    const json &patch = openApi["paths"][itemTemplate]["patch"];
    QVERIFY2(patch.is_object(), itemTemplate.c_str());
    QCOMPARE(patch["x-kubernetes-group-version-kind"]["kind"], kind.toStdString());

    // Create, get, list.
    json body = json::parse(object.toStdString());
    body["apiVersion"] = apiVersion;
    body["kind"] = kind.toStdString();
    body["metadata"] = {{"name", name}};
    const ApiResponse created = fixture.call("POST", collection, body.dump());
    QVERIFY2(created.status == 201, created.body.c_str());
    const json stored = parse(created);
    QCOMPARE(stored["metadata"]["name"], name);
    QVERIFY(!stored["metadata"]["uid"].get<std::string>().empty());
    const ApiResponse got = fixture.call("GET", item);
    QCOMPARE(got.status, 200);
    QCOMPARE(parse(got)["metadata"]["resourceVersion"], stored["metadata"]["resourceVersion"]);
    const json list = parse(fixture.call("GET", collection));
    QCOMPARE(list["kind"], kind.toStdString() + "List");
    QCOMPARE(list["items"].size(), std::size_t(1));

    // A watch from the create's resourceVersion sees the update.
    const std::string createdVersion = stored["metadata"]["resourceVersion"];
    const ApiResponse watch = fixture.call("GET", collection + "?watch=1&resourceVersion=" + createdVersion);
    QCOMPARE(watch.status, 200);
    QVERIFY(watch.watch);

    // Update, then a stale update: the optimistic lock's 409, word for word.
    json updated = stored;
    updated["metadata"]["labels"] = {{"edited", "once"}};
    const ApiResponse put = fixture.call("PUT", item, updated.dump());
    QVERIFY2(put.status == 200, put.body.c_str());
    QVERIFY(parse(put)["metadata"]["resourceVersion"] != stored["metadata"]["resourceVersion"]);
    updated["metadata"]["labels"] = {{"edited", "twice"}};
    const ApiResponse stale = fixture.call("PUT", item, updated.dump());
    QCOMPARE(stale.status, 409);
    QCOMPARE(parse(stale)["message"], "Operation cannot be fulfilled on " + resource.toStdString() + (group.isEmpty() ? "" : '.' + group.toStdString())
                                          + " \"" + name + "\": the object has been modified; please apply your "
                                                           "changes to the latest version and try again");

    std::vector<json> events;
    watch.watch->attach([&events](const std::string &line) { events.push_back(json::parse(line)); }, [] {});
    QVERIFY(!events.empty());
    QCOMPARE(events.front()["type"], "MODIFIED");
    QCOMPARE(events.front()["object"]["metadata"]["labels"]["edited"], "once");

    // Merge and strategic merge patches.
    const ApiResponse merged = fixture.call("PATCH", item, R"({"metadata":{"annotations":{"a":"b"}}})",
                                            "application/merge-patch+json");
    QVERIFY2(merged.status == 200, merged.body.c_str());
    const ApiResponse strategic = fixture.call("PATCH", item, R"({"metadata":{"labels":{"s":"t"}}})",
                                               "application/strategic-merge-patch+json");
    QVERIFY2(strategic.status == 200, strategic.body.c_str());

    // The Table's columns, as kubectl asks for them.
    const ApiResponse table = fixture.call("GET", collection, {}, {}, {{"accept", TABLE_ACCEPT}});
    QCOMPARE(table.status, 200);
    const json tableJson = parse(table);
    QCOMPARE(tableJson["kind"], "Table");
    QStringList names;
    for (const json &column : tableJson["columnDefinitions"])
        names << QString::fromStdString(column["name"].get<std::string>());
    QCOMPARE(names, columns);
    QCOMPARE(tableJson["rows"].size(), std::size_t(1));
    QCOMPARE(tableJson["rows"][0]["cells"].size(), std::size_t(columns.size()));

    // Delete.
    const ApiResponse deleted = fixture.call("DELETE", item);
    QVERIFY2(deleted.status == 200, deleted.body.c_str());
    QCOMPARE(fixture.call("GET", item).status, 404);
}

// The rules clients depend on, each a request and the answer upstream gives.
void TestBuiltinTypes::testDeclaredRules_data()
{
    QTest::addColumn<QString>("collection");
    QTest::addColumn<QString>("object");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("expected"); // a substring of the message, or of the created object

    const QString templ = R"({"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"i"}]}})";
    QTest::newRow("replicaset without selector")
        << "/apis/apps/v1/namespaces/default/replicasets"
        << R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"r"},"spec":{"template":)" + templ + "}}"
        << 422 << "spec.selector: Required value";
    QTest::newRow("daemonset selector must match")
        << "/apis/apps/v1/namespaces/default/daemonsets"
        << R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"y"}},"template":)" + templ + "}}"
        << 422 << "`selector` does not match template `labels`";
    QTest::newRow("job restartPolicy defaults to Always, which a Job refuses")
        << "/apis/batch/v1/namespaces/default/jobs"
        << R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":)" + templ + "}}"
        << 422 << R"(spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\")";
    QTest::newRow("job gets a generated selector")
        << "/apis/batch/v1/namespaces/default/jobs"
        << R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}})"
        << 201 << R"("batch.kubernetes.io/job-name":"j")";
    QTest::newRow("cronjob schedule is parsed")
        << "/apis/batch/v1/namespaces/default/cronjobs"
        << R"({"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c"},"spec":{"schedule":"bad","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}}})"
        << 422 << R"(spec.schedule: Invalid value: \"bad\": expected exactly 5 fields, found 1: [bad])";
    QTest::newRow("cronjob defaults")
        << "/apis/batch/v1/namespaces/default/cronjobs"
        << R"({"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c"},"spec":{"schedule":"@hourly","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}}})"
        << 201 << R"("concurrencyPolicy":"Allow")";
    QTest::newRow("finalizer without a domain, core validation")
        << "/api/v1/namespaces/default/configmaps" << R"({"metadata":{"name":"f","finalizers":["kubernetes","a"]}})"
        << 422 << R"(metadata.finalizers[1]: Invalid value: \"a\": name is neither a standard finalizer name nor is it fully qualified)";
    QTest::newRow("finalizer without a domain, a Lease (apimachinery's checks)")
        << "/apis/coordination.k8s.io/v1/namespaces/default/leases"
        << R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","finalizers":["a"]}})"
        << 201 << R"("finalizers":["a"])";
    QTest::newRow("finalizer without a domain, a PodDisruptionBudget (no metadata checks)")
        << "/apis/policy/v1/namespaces/default/poddisruptionbudgets"
        << R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p","finalizers":["a"]},"spec":{}})"
        << 201 << R"("finalizers":["a"])";
    QTest::newRow("orphan and foregroundDeletion")
        << "/apis/coordination.k8s.io/v1/namespaces/default/leases"
        << R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","finalizers":["orphan","foregroundDeletion"]}})"
        << 422 << "finalizer orphan and foregroundDeletion cannot be both set";
    QTest::newRow("role rules need verbs and api groups")
        << "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles"
        << R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r"},"rules":[{"resources":["pods"]}]})"
        << 422 << "rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value";
    QTest::newRow("cluster role names may hold colons")
        << "/apis/rbac.authorization.k8s.io/v1/clusterroles"
        << R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"system:aggregate-to-view"},"rules":[]})"
        << 201 << R"("name":"system:aggregate-to-view")";
    QTest::newRow("cluster role binding refers to a ClusterRole")
        << "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"
        << R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"b"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"}})"
        << 422 << R"(roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\")";
    QTest::newRow("ingress path needs a pathType")
        << "/apis/networking.k8s.io/v1/namespaces/default/ingresses"
        << R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"i"},"spec":{"rules":[{"http":{"paths":[{"path":"/","backend":{"service":{"name":"s","port":{"number":80}}}}]}}]}})"
        << 422 << "spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified";
    QTest::newRow("priority class names with system- are reserved")
        << "/apis/scheduling.k8s.io/v1/priorityclasses"
        << R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"system-mine"},"value":5})"
        << 422 << "priority class names with 'system-' prefix are reserved";
    QTest::newRow("pdb takes one of min and max")
        << "/apis/policy/v1/namespaces/default/poddisruptionbudgets"
        << R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p"},"spec":{"minAvailable":1,"maxUnavailable":1}})"
        << 422 << "minAvailable and maxUnavailable cannot be both set";
    QTest::newRow("hpa defaults to 80% cpu")
        << "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers"
        << R"({"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}})"
        << 201 << R"("averageUtilization":80)";
    QTest::newRow("replication controller selector defaults from the template")
        << "/api/v1/namespaces/default/replicationcontrollers"
        << R"({"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"rc"},"spec":{"template":)" + templ + "}}"
        << 201 << R"("selector":{"app":"x"})";
    QTest::newRow("a user subject's api group is defaulted")
        << "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings"
        << R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"b"},"roleRef":{"kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"jane"}]})"
        << 201 << R"({"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"jane"})";
    QTest::newRow("replicas must be a number")
        << "/apis/apps/v1/namespaces/default/replicasets"
        << R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"r"},"spec":{"replicas":"3"}})"
        << 400 << "json: cannot unmarshal string into Go struct field ReplicaSetSpec.spec.replicas";
    QTest::newRow("a v1 cpu target must be a number")
        << "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers"
        << R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"targetCPUUtilizationPercentage":"50"}})"
        << 400 << "HorizontalPodAutoscalerSpec.spec.targetCPUUtilizationPercentage";
    QTest::newRow("job labels default from its template")
        << "/apis/batch/v1/namespaces/default/jobs"
        << R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":{"metadata":{"labels":{"app":"x"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}})"
        << 201 << R"("metadata":{"creationTimestamp")";
    QTest::newRow("the core group's APIService is named v1.")
        << "/apis/apiregistration.k8s.io/v1/apiservices"
        << R"({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1."},"spec":{"version":"v1","groupPriorityMinimum":18000,"versionPriority":1}})"
        << 201 << R"("name":"v1.")";
    QTest::newRow("an APIService's version priority stays within 1000")
        << "/apis/apiregistration.k8s.io/v1/apiservices"
        << R"({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.example.com"},"spec":{"group":"example.com","version":"v1","groupPriorityMinimum":100,"versionPriority":1001}})"
        << 422 << "spec.versionPriority: Invalid value: 1001: must be positive and less than 1000";
    QTest::newRow("storage class defaults")
        << "/apis/storage.k8s.io/v1/storageclasses"
        << R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s"},"provisioner":"p"})"
        << 201 << R"("reclaimPolicy":"Delete")";
}

void TestBuiltinTypes::testDeclaredRules()
{
    QFETCH(QString, collection);
    QFETCH(QString, object);
    QFETCH(int, status);
    QFETCH(QString, expected);
    Fixture fixture;
    const ApiResponse response = fixture.call("POST", collection.toStdString(), object.toStdString());
    QVERIFY2(response.status == status, response.body.c_str());
    QVERIFY2(response.body.find(expected.toStdString()) != std::string::npos, response.body.c_str());
}

// autoscaling/v1 HorizontalPodAutoscalers are autoscaling/v2 objects seen through the v1
// conversion: one object, two shapes, and what v1 cannot say survives a v1 client's update.
void TestBuiltinTypes::testVersionServedApartFromStorage()
{
    Fixture fixture;
    const std::string v1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
    const std::string v2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
    const ApiResponse created = fixture.call("POST", v1, R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
        "metadata":{"name":"web"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":4,
        "targetCPUUtilizationPercentage":60}})");
    QVERIFY2(created.status == 201, created.body.c_str());
    QCOMPARE(parse(created)["apiVersion"], "autoscaling/v1");
    QCOMPARE(parse(created)["spec"]["targetCPUUtilizationPercentage"], 60);
    QCOMPARE(parse(created)["status"], json::parse(R"({"currentReplicas":0,"desiredReplicas":0})"));

    // The v2 view, and a watch on v1 while v2 adds a memory metric.
    json stored = parse(fixture.call("GET", v2 + "/web"));
    QCOMPARE(stored["apiVersion"], "autoscaling/v2");
    QCOMPARE(stored["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], 60);
    QVERIFY(!stored["spec"].contains("targetCPUUtilizationPercentage"));
    const ApiResponse watch =
        fixture.call("GET", v1 + "?watch=1&resourceVersion=" + stored["metadata"]["resourceVersion"].get<std::string>());
    QVERIFY(watch.watch);
    const json memory = json::parse(R"({"type":"Resource","resource":{"name":"memory",
        "target":{"type":"AverageValue","averageValue":"500Mi"}}})");
    stored["spec"]["metrics"].push_back(memory);
    QCOMPARE(fixture.call("PUT", v2 + "/web", stored.dump()).status, 200);
    std::vector<json> events;
    watch.watch->attach([&events](const std::string &line) { events.push_back(json::parse(line)); }, [] {});
    QCOMPARE(events.size(), std::size_t(1));
    QCOMPARE(events[0]["object"]["apiVersion"], "autoscaling/v1");
    QVERIFY(!events[0]["object"]["spec"].contains("metrics"));

    // A v1 read-modify-write keeps the metric v1 cannot show.
    json viewed = parse(fixture.call("GET", v1 + "/web"));
    const std::string carried = viewed["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"];
    QVERIFY(carried.find("memory") != std::string::npos);
    viewed["spec"]["maxReplicas"] = 8;
    QCOMPARE(fixture.call("PUT", v1 + "/web", viewed.dump()).status, 200);
    const ApiResponse patched = fixture.call("PATCH", v1 + "/web", R"({"spec":{"targetCPUUtilizationPercentage":75}})",
                                             "application/merge-patch+json");
    QVERIFY2(patched.status == 200, patched.body.c_str());
    json after = parse(fixture.call("GET", v2 + "/web"));
    QCOMPARE(after["spec"]["maxReplicas"], 8);
    QCOMPARE(after["spec"]["metrics"].size(), std::size_t(2));
    QCOMPARE(after["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"], 75);
    QCOMPARE(after["spec"]["metrics"][1], memory);
    QVERIFY(!after["metadata"].contains("annotations"));

    // A body of the other version is refused, as the apiserver's decoder refuses it.
    after["metadata"].erase("resourceVersion");
    QCOMPARE(fixture.call("PUT", v1 + "/web", after.dump()).status, 400);
    // Both versions list the one object; the Table reads either.
    QCOMPARE(parse(fixture.call("GET", v1))["items"].size(), std::size_t(1));
    const json table = parse(fixture.call("GET", v1, {}, {}, {{"accept", TABLE_ACCEPT}}));
    QCOMPARE(table["rows"][0]["cells"][2], "cpu: <unknown>/75%, memory: <unknown>/500Mi");
}

// The v1 conversion parses client-written annotations: too deep or not JSON is dropped,
// and invalid UTF-8 is replaced, never thrown (a v1 watch must keep working).
void TestBuiltinTypes::testConversionSurvivesHostileAnnotations()
{
    Fixture fixture;
    const std::string v1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
    const std::string v2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    json body = json::parse(R"({"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"deep"},
        "spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}})");
    body["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"] = deep;
    const ApiResponse created = fixture.call("POST", v1, body.dump());
    QVERIFY2(created.status == 201, created.body.c_str());
    const ApiResponse watch = fixture.call("GET", v1 + "?watch=1&resourceVersion="
                                                      + parse(created)["metadata"]["resourceVersion"].get<std::string>());
    QVERIFY(watch.watch);
    // A v2 client's metric name with a byte that is not UTF-8: a YAML apply body is refused,
    // as go-yaml refuses it (it once passed through and was stored raw).
    const std::string yaml = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: deep}\n"
                             "spec:\n  metrics:\n  - type: Pods\n    pods:\n      metric: {name: \"bad\xff\"}\n"
                             "      target: {type: AverageValue, averageValue: \"1\"}\n";
    const ApiResponse applied = fixture.call("PATCH", v2 + "/deep?fieldManager=tester&force=true", yaml,
                                             "application/apply-patch+yaml");
    QVERIFY2(applied.status == 400, applied.body.c_str());
    QCOMPARE(fixture.call("GET", v1 + "/deep").status, 200);
    QCOMPARE(fixture.call("GET", v1, {}, {}, {{"accept", TABLE_ACCEPT}}).status, 200);
    std::vector<std::string> lines;
    watch.watch->attach([&lines](const std::string &line) { lines.push_back(line); }, [] {});
    QCOMPARE(lines.size(), std::size_t(0)); // the refused apply wrote nothing
}

// Re-sending the same spec with Go's zero values spelled out is no change of spec.
void TestBuiltinTypes::testUnchangedSpecKeepsTheGeneration()
{
    Fixture fixture;
    const std::string sets = "/apis/apps/v1/namespaces/default/statefulsets";
    const ApiResponse created = fixture.call("POST", sets, R"({"apiVersion":"apps/v1","kind":"StatefulSet",
        "metadata":{"name":"s"},"spec":{"selector":{"matchLabels":{"app":"x"}},
        "template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}})");
    QVERIFY2(created.status == 201, created.body.c_str());
    json resent = parse(created);
    resent["spec"]["template"]["metadata"]["creationTimestamp"] = nullptr;
    resent["spec"]["template"]["spec"]["containers"][0]["resources"] = json::object();
    const ApiResponse updated = fixture.call("PUT", sets + "/s", resent.dump());
    QVERIFY2(updated.status == 200, updated.body.c_str());
    QCOMPARE(parse(updated)["metadata"]["generation"], 1);
    resent = parse(updated);
    resent["spec"]["replicas"] = 3;
    QCOMPARE(parse(fixture.call("PUT", sets + "/s", resent.dump()))["metadata"]["generation"], 2);
}

void TestBuiltinTypes::testStatusWritesKeepTheSpec()
{
    Fixture fixture;
    const std::string sets = "/apis/apps/v1/namespaces/default/replicasets";
    const ApiResponse created = fixture.call("POST", sets, R"({"apiVersion":"apps/v1","kind":"ReplicaSet",
        "metadata":{"name":"r"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"x"}},
        "template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}})");
    QVERIFY2(created.status == 201, created.body.c_str());
    QCOMPARE(parse(created)["status"], json::parse(R"({"replicas":0})"));
    const ApiResponse status = fixture.call("PATCH", sets + "/r/status",
                                            R"({"spec":{"replicas":9},"status":{"replicas":2,"readyReplicas":1}})",
                                            "application/merge-patch+json");
    QVERIFY2(status.status == 200, status.body.c_str());
    QCOMPARE(parse(status)["spec"]["replicas"], 2);
    QCOMPARE(parse(status)["status"]["readyReplicas"], 1);
    QCOMPARE(parse(status)["metadata"]["generation"], 1);
    const ApiResponse negative = fixture.call("PATCH", sets + "/r/status", R"({"status":{"replicas":-1}})",
                                              "application/merge-patch+json");
    QCOMPARE(negative.status, 422);
    QVERIFY(negative.body.find("status.replicas: Invalid value: -1: must be greater than or equal to 0")
            != std::string::npos);
}

void TestBuiltinTypes::testPutCreatesRbacObjects()
{
    Fixture fixture;
    const ApiResponse created = fixture.call("PUT", "/apis/rbac.authorization.k8s.io/v1/clusterroles/reader",
                                             R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",
        "metadata":{"name":"reader"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]})");
    QCOMPARE(created.status, 201);
}

QTEST_GUILESS_MAIN(TestBuiltinTypes)
#include "TestBuiltinTypes.moc"
