// SPDX-License-Identifier: MIT
#include <QTest>

#include <random>

#include "AuthTestSupport.h"
#include "auth/NodeAuthorizer.h"
#include "auth/NodeGraph.h"
#include "auth/PodReferences.h"
#include "registry/selection/FieldSelector.h"

using nlohmann::json;
using rvscope::auth::Attributes;
using rvscope::auth::Decision;
using rvscope::auth::NodeAuthorizer;
using rvscope::auth::NodeGraph;
using rvscope::auth::NodeObjectType;
using rvscope::auth::PodReferences;
using namespace rvscope::testing;

namespace {
bool nodeMay(const NodeGraph &graph, const QString &nodeName, const QString &verb, const QString &resource,
             const QString &namespaceName, const QString &name)
{
    return NodeAuthorizer(graph).authorize(request(node(nodeName), verb, resource, namespaceName, name)).allowed();
}

bool mayReadSecret(const NodeGraph &graph, const QString &nodeName, const QString &name, const QString &ns = QStringLiteral("default"))
{
    return nodeMay(graph, nodeName, QStringLiteral("get"), QStringLiteral("secrets"), ns, name);
}

QStringList sorted(const std::set<std::string> &names)
{
    QStringList list;
    for (const std::string &name : names)
        list << QString::fromStdString(name);
    return list;
}

// A pod spec that uses every kind of reference the graph follows.
json everyReference()
{
    return json::parse(R"({
      "imagePullSecrets": [{"name": "pull"}],
      "initContainers": [{"name": "init", "env": [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "init-env", "key": "k"}}}],
                          "envFrom": [{"configMapRef": {"name": "init-cm"}}]}],
      "containers": [{"name": "app",
                      "env": [{"name": "B", "valueFrom": {"secretKeyRef": {"name": "env-secret", "key": "k"}}},
                              {"name": "C", "valueFrom": {"configMapKeyRef": {"name": "env-cm", "key": "k"}}},
                              {"name": "D", "value": "plain"},
                              {"name": "E", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                      "envFrom": [{"secretRef": {"name": "envfrom-secret"}}, {"configMapRef": {"name": "envfrom-cm"}}]}],
      "ephemeralContainers": [{"name": "debug", "envFrom": [{"secretRef": {"name": "debug-secret"}}]}],
      "volumes": [
        {"name": "v1", "secret": {"secretName": "volume-secret"}},
        {"name": "v2", "configMap": {"name": "volume-cm"}},
        {"name": "v3", "projected": {"sources": [{"secret": {"name": "projected-secret"}}, {"configMap": {"name": "projected-cm"}},
                                                 {"serviceAccountToken": {"path": "token"}}]}},
        {"name": "v4", "persistentVolumeClaim": {"claimName": "data"}},
        {"name": "v5", "csi": {"driver": "x", "nodePublishSecretRef": {"name": "csi-secret"}}},
        {"name": "v6", "azureFile": {"secretName": "azure-secret", "shareName": "s"}},
        {"name": "v7", "rbd": {"secretRef": {"name": "rbd-secret"}}},
        {"name": "v8", "flexVolume": {"driver": "d", "secretRef": {"name": "flex-secret"}}},
        {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
        {"name": "v9", "emptyDir": {}}
      ]})");
}
} // namespace

// The node authorizer and its pod graph: a kubelet reads what its pods use, and loses it
// when they go.
class TestNodeAuthorizer final : public QObject {
    Q_OBJECT

private slots:
    void identifiesNodes_data();
    void identifiesNodes();
    void followsEveryReference();
    void toleratesHostilePods_data();
    void toleratesHostilePods();
    void allowsReadsOfReferencedObjects_data();
    void allowsReadsOfReferencedObjects();
    void singleObjectListAndWatchThroughFieldSelector_data();
    void singleObjectListAndWatchThroughFieldSelector();
    void readsItsOwnNodeOnly_data();
    void readsItsOwnNodeOnly();
    void hasNoOpinionOnOthers();
    void podMovingNodesMovesAccess();
    void podDeletionRemovesAccess();
    void unbindingRemovesAccess();
    void sharedSecretStaysUntilEveryPodIsGone();
    void sameSecretTwiceInOnePodCountsOnce();
    void generationCountsOnlyEdgeChanges();
    void clearForgetsEverything();
    void graphAgreesWithRecomputationUnderRandomEvents();
};

void TestNodeAuthorizer::identifiesNodes_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("groups");
    QTest::addColumn<bool>("isNode");
    QTest::addColumn<QString>("nodeName");

    QTest::newRow("node") << "system:node:n1" << QStringList{"system:nodes"} << true << "n1";
    QTest::newRow("node with more groups") << "system:node:n1" << QStringList{"system:authenticated", "system:nodes"} << true << "n1";
    QTest::newRow("no node name") << "system:node:" << QStringList{"system:nodes"} << true << "";
    QTest::newRow("not in system:nodes") << "system:node:n1" << QStringList{"system:authenticated"} << false << "";
    QTest::newRow("in system:nodes, wrong name") << "alice" << QStringList{"system:nodes"} << false << "";
    QTest::newRow("prefix case matters") << "System:Node:n1" << QStringList{"system:nodes"} << false << "";
    QTest::newRow("group case matters") << "system:node:n1" << QStringList{"system:Nodes"} << false << "";
}

void TestNodeAuthorizer::identifiesNodes()
{
    QFETCH(QString, name);
    QFETCH(QStringList, groups);
    QFETCH(bool, isNode);
    QFETCH(QString, nodeName);

    const auto identified = NodeAuthorizer::nodeName(user(name, groups));
    QCOMPARE(identified.has_value(), isNode);
    if (isNode)
        QCOMPARE(QString::fromStdString(*identified), nodeName);

    // A node without a name is told so; it is never allowed anything.
    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "p", "", "s"));
    const auto result = NodeAuthorizer(graph).authorize(request(user(name, groups), QStringLiteral("get"), QStringLiteral("secrets"), QStringLiteral("default"), QStringLiteral("s")));
    QCOMPARE(result.decision, Decision::NoOpinion);
    if (isNode && nodeName.isEmpty())
        QCOMPARE(result.reason, std::string("unknown node for user \"system:node:\""));
}

void TestNodeAuthorizer::followsEveryReference()
{
    const PodReferences refs = PodReferences::of(pod("default", "web", "n1", everyReference()));
    QCOMPARE(sorted(refs.secrets), (QStringList{"azure-secret", "csi-secret", "debug-secret", "env-secret", "envfrom-secret",
                                                "flex-secret", "init-env", "projected-secret", "pull", "rbd-secret", "volume-secret"}));
    QCOMPARE(sorted(refs.configMaps), (QStringList{"env-cm", "envfrom-cm", "init-cm", "projected-cm", "volume-cm"}));
    QCOMPARE(sorted(refs.persistentVolumeClaims), (QStringList{"data", "web-scratch"}));

    NodeGraph graph;
    graph.podUpdated(pod("default", "web", "n1", everyReference()));
    for (const std::string &secret : refs.secrets)
        QVERIFY2(graph.hasRelationship("n1", NodeObjectType::Secret, "default", secret), secret.c_str());
    for (const std::string &configMap : refs.configMaps)
        QVERIFY2(graph.hasRelationship("n1", NodeObjectType::ConfigMap, "default", configMap), configMap.c_str());
    QVERIFY(graph.hasRelationship("n1", NodeObjectType::PersistentVolumeClaim, "default", "web-scratch"));
    // Types do not mix: a configmap named like a secret is not readable as that secret.
    QVERIFY(!graph.hasRelationship("n1", NodeObjectType::Secret, "default", "volume-cm"));
    QVERIFY(!graph.hasRelationship("n1", NodeObjectType::ConfigMap, "default", "volume-secret"));
    QCOMPARE(graph.edgeCount(), refs.secrets.size() + refs.configMaps.size() + refs.persistentVolumeClaims.size());
}

void TestNodeAuthorizer::toleratesHostilePods_data()
{
    QTest::addColumn<QString>("podJson");
    QTest::addColumn<int>("edges");

    QTest::newRow("not an object") << R"([1,2,3])" << 0;
    QTest::newRow("null") << "null" << 0;
    QTest::newRow("no metadata") << R"({"spec":{"nodeName":"n1","imagePullSecrets":[{"name":"s"}]}})" << 0;
    QTest::newRow("name not a string") << R"({"metadata":{"namespace":"default","name":7},"spec":{"nodeName":"n1","imagePullSecrets":[{"name":"s"}]}})" << 0;
    QTest::newRow("nodeName not a string") << R"({"metadata":{"namespace":"default","name":"p"},"spec":{"nodeName":["n1"],"imagePullSecrets":[{"name":"s"}]}})" << 0;
    QTest::newRow("spec an array") << R"({"metadata":{"namespace":"default","name":"p"},"spec":[]})" << 0;
    QTest::newRow("volumes a string") << R"({"metadata":{"namespace":"default","name":"p"},"spec":{"nodeName":"n1","volumes":"secret"}})" << 0;
    QTest::newRow("wrong types everywhere")
        << R"({"metadata":{"namespace":"default","name":"p"},"spec":{"nodeName":"n1",
              "imagePullSecrets":[null,"s",{"name":5},{"name":""}],
              "containers":[5,{"env":{"name":"x"}},{"env":[null,{"valueFrom":"x"},{"valueFrom":{"secretKeyRef":[]}}],"envFrom":[{"secretRef":{"name":null}}]}],
              "volumes":[null,{"secret":{"secretName":{"x":1}}},{"projected":{"sources":{"secret":{"name":"s"}}}},{"name":3,"ephemeral":{}},
                         {"persistentVolumeClaim":{"claimName":""}},{"configMap":"c"}]}})" << 0;
    QTest::newRow("valid next to invalid")
        << R"({"metadata":{"namespace":"default","name":"p"},"spec":{"nodeName":"n1",
              "imagePullSecrets":[{"name":5},{"name":"good"}],"volumes":[7,{"configMap":{"name":"cm"}}]}})" << 2;
}

void TestNodeAuthorizer::toleratesHostilePods()
{
    QFETCH(QString, podJson);
    QFETCH(int, edges);

    NodeGraph graph;
    const json parsed = json::parse(podJson.toStdString());
    graph.podUpdated(parsed);
    QCOMPARE(graph.edgeCount(), std::size_t(edges));
    QCOMPARE(graph.generation(), std::uint64_t(edges > 0 ? 1 : 0));
}

void TestNodeAuthorizer::allowsReadsOfReferencedObjects_data()
{
    QTest::addColumn<QString>("nodeName");
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("subresource");
    QTest::addColumn<QString>("namespaceName");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<QString>("reason");

    const QString noRelationship = QStringLiteral("no relationship found between node 'n1' and this object");
    QTest::newRow("get secret") << "n1" << "get" << "secrets" << "" << "default" << "env-secret" << true << "";
    QTest::newRow("watch secret by name") << "n1" << "watch" << "secrets" << "" << "default" << "volume-secret" << true << "";
    QTest::newRow("list secret by name") << "n1" << "list" << "secrets" << "" << "default" << "pull" << true << "";
    QTest::newRow("get configmap") << "n1" << "get" << "configmaps" << "" << "default" << "volume-cm" << true << "";
    QTest::newRow("watch configmap") << "n1" << "watch" << "configmaps" << "" << "default" << "projected-cm" << true << "";
    QTest::newRow("get claim") << "n1" << "get" << "persistentvolumeclaims" << "" << "default" << "data" << true << "";
    QTest::newRow("watch claim") << "n1" << "watch" << "persistentvolumeclaims" << "" << "default" << "web-scratch" << true << "";
    QTest::newRow("unreferenced secret") << "n1" << "get" << "secrets" << "" << "default" << "other" << false << noRelationship;
    QTest::newRow("same name, other namespace") << "n1" << "get" << "secrets" << "" << "kube-system" << "env-secret" << false << noRelationship;
    QTest::newRow("secret name as configmap") << "n1" << "get" << "configmaps" << "" << "default" << "env-secret" << false << noRelationship;
    QTest::newRow("other node") << "n2" << "get" << "secrets" << "" << "default" << "env-secret" << false
                                << "no relationship found between node 'n2' and this object";
    QTest::newRow("list of all secrets") << "n1" << "list" << "secrets" << "" << "default" << "" << false << "No Object name found";
    QTest::newRow("watch of all configmaps") << "n1" << "watch" << "configmaps" << "" << "default" << "" << false << "No Object name found";
    QTest::newRow("across namespaces") << "n1" << "list" << "secrets" << "" << "" << "" << false << "can only read namespaced object of this type";
    QTest::newRow("update") << "n1" << "update" << "secrets" << "" << "default" << "env-secret" << false << "can only read resources of this type";
    QTest::newRow("delete") << "n1" << "delete" << "configmaps" << "" << "default" << "volume-cm" << false << "can only read resources of this type";
    QTest::newRow("create") << "n1" << "create" << "secrets" << "" << "default" << "" << false << "can only read resources of this type";
    QTest::newRow("subresource") << "n1" << "get" << "persistentvolumeclaims" << "status" << "default" << "data" << false << "cannot read subresource";
    QTest::newRow("secrets of another group") << "n1" << "get" << "example.com/secrets" << "" << "default" << "env-secret" << false << "";
}

void TestNodeAuthorizer::allowsReadsOfReferencedObjects()
{
    QFETCH(QString, nodeName);
    QFETCH(QString, verb);
    QFETCH(QString, resource);
    QFETCH(QString, subresource);
    QFETCH(QString, namespaceName);
    QFETCH(QString, name);
    QFETCH(bool, allowed);
    QFETCH(QString, reason);

    NodeGraph graph;
    graph.podUpdated(pod("default", "web", "n1", everyReference()));
    const auto result = NodeAuthorizer(graph).authorize(request(node(nodeName), verb, resource, namespaceName, name, subresource));
    QCOMPARE(result.decision, allowed ? Decision::Allow : Decision::NoOpinion);
    QCOMPARE(QString::fromStdString(result.reason), reason);
}

void TestNodeAuthorizer::singleObjectListAndWatchThroughFieldSelector_data()
{
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("fieldSelector");
    QTest::addColumn<QString>("name"); // the name the request is authorized for
    QTest::addColumn<bool>("allowed");

    QTest::newRow("watch metadata.name=") << "watch" << "metadata.name=s1" << "s1" << true;
    QTest::newRow("list metadata.name==") << "list" << "metadata.name==s1" << "s1" << true;
    QTest::newRow("with another term") << "watch" << "metadata.namespace=default,metadata.name=s1" << "s1" << true;
    QTest::newRow("unreferenced name") << "watch" << "metadata.name=s2" << "s2" << false;
    QTest::newRow("not-equals is not a name") << "watch" << "metadata.name!=s2" << "" << false;
    QTest::newRow("other field") << "list" << "type=Opaque" << "" << false;
    QTest::newRow("no selector") << "watch" << "" << "" << false;
    QTest::newRow("not a path segment") << "list" << "metadata.name=a/b" << "" << false;
    QTest::newRow("dot dot") << "list" << "metadata.name=.." << "" << false;
    QTest::newRow("percent") << "list" << "metadata.name=s%31" << "" << false;
    QTest::newRow("get keeps its own name") << "get" << "metadata.name=other" << "s1" << true;
}

void TestNodeAuthorizer::singleObjectListAndWatchThroughFieldSelector()
{
    QFETCH(QString, verb);
    QFETCH(QString, fieldSelector);
    QFETCH(QString, name);
    QFETCH(bool, allowed);

    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "p", "n1", "s1"));
    // A get names its object in the URL; a list or watch does not.
    Attributes attributes = request(node(QStringLiteral("n1")), verb, QStringLiteral("secrets"), QStringLiteral("default"),
                                    verb == QStringLiteral("get") ? QStringLiteral("s1") : QString());
    const auto selector = rvscope::registry::FieldSelector::parse(fieldSelector.toStdString());
    QVERIFY(selector.ok());
    rvscope::auth::applyFieldSelectorName(attributes, *selector);
    QCOMPARE(QString::fromStdString(attributes.name), name);
    QCOMPARE(NodeAuthorizer(graph).authorize(attributes).allowed(), allowed);
}

void TestNodeAuthorizer::readsItsOwnNodeOnly_data()
{
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("subresource");
    QTest::addColumn<bool>("allowed");

    QTest::newRow("get own") << "get" << "n1" << "" << true;
    QTest::newRow("watch own") << "watch" << "n1" << "" << true;
    QTest::newRow("list own") << "list" << "n1" << "" << true;
    QTest::newRow("get another") << "get" << "n2" << "" << false;
    QTest::newRow("list all") << "list" << "" << "" << false;
    QTest::newRow("update own") << "update" << "n1" << "" << false;
    QTest::newRow("delete own") << "delete" << "n1" << "" << false;
    QTest::newRow("own status") << "get" << "n1" << "status" << false;
}

void TestNodeAuthorizer::readsItsOwnNodeOnly()
{
    QFETCH(QString, verb);
    QFETCH(QString, name);
    QFETCH(QString, subresource);
    QFETCH(bool, allowed);

    NodeGraph graph;
    const auto result = NodeAuthorizer(graph).authorize(request(node(QStringLiteral("n1")), verb, QStringLiteral("nodes"), {}, name, subresource));
    QCOMPARE(result.decision, allowed ? Decision::Allow : Decision::NoOpinion);
    if (!allowed)
        QCOMPARE(result.reason, std::string("node 'n1' can only read its own Node object"));
}

void TestNodeAuthorizer::hasNoOpinionOnOthers()
{
    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "p", "n1", "s1"));
    const NodeAuthorizer authorizer(graph);
    // Not nodes: silence, even for a user named like a node but outside system:nodes.
    for (const auto &who : {user(QStringLiteral("alice"), {QStringLiteral("system:authenticated")}),
                            user(QStringLiteral("system:node:n1"), {QStringLiteral("system:authenticated")}),
                            rvscope::auth::UserInfo::anonymous()}) {
        const auto result = authorizer.authorize(request(who, QStringLiteral("get"), QStringLiteral("secrets"), QStringLiteral("default"), QStringLiteral("s1")));
        QCOMPARE(result.decision, Decision::NoOpinion);
        QCOMPARE(result.reason, std::string());
    }
    // Resources outside the graph, and paths, are for the policy to decide.
    for (const QString &resource : {QStringLiteral("pods"), QStringLiteral("apps/deployments"), QStringLiteral("services")}) {
        const auto result = authorizer.authorize(request(node(QStringLiteral("n1")), QStringLiteral("list"), resource, QStringLiteral("default")));
        QCOMPARE(result.decision, Decision::NoOpinion);
        QCOMPARE(result.reason, std::string());
    }
    QCOMPARE(authorizer.authorize(pathRequest(node(QStringLiteral("n1")), QStringLiteral("get"), QStringLiteral("/api"))).decision, Decision::NoOpinion);
}

void TestNodeAuthorizer::podMovingNodesMovesAccess()
{
    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "p", "n1", "s1"));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n2"), QStringLiteral("s1")));
    const auto before = graph.generation();

    graph.podUpdated(podWithSecret("default", "p", "n2", "s1"));
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n2"), QStringLiteral("s1")));
    QVERIFY(graph.generation() > before);
    QCOMPARE(graph.podCount(), std::size_t(1));
    QCOMPARE(graph.edgeCount(), std::size_t(1));
}

void TestNodeAuthorizer::podDeletionRemovesAccess()
{
    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "p", "n1", "s1"));
    graph.podUpdated(podWithSecret("other", "p", "n1", "s1"));
    const auto before = graph.generation();

    graph.podDeleted("default", "p");
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1"), QStringLiteral("other")));
    QCOMPARE(graph.generation(), before + 1);

    // Deleting what is not there changes nothing.
    graph.podDeleted("default", "p");
    graph.podDeleted("nowhere", "ghost");
    QCOMPARE(graph.generation(), before + 1);
    QCOMPARE(graph.podCount(), std::size_t(1));
}

void TestNodeAuthorizer::unbindingRemovesAccess()
{
    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "p", "", "s1"));
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    QCOMPARE(graph.podCount(), std::size_t(0));
    QCOMPARE(graph.generation(), std::uint64_t(0));

    graph.podUpdated(podWithSecret("default", "p", "n1", "s1")); // scheduled
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    graph.podUpdated(podWithSecret("default", "p", "", "s1")); // unbound again
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    QCOMPARE(graph.podCount(), std::size_t(0));
    QCOMPARE(graph.edgeCount(), std::size_t(0));
    QCOMPARE(graph.generation(), std::uint64_t(2));
}

void TestNodeAuthorizer::sharedSecretStaysUntilEveryPodIsGone()
{
    NodeGraph graph;
    graph.podUpdated(podWithSecret("default", "a", "n1", "shared"));
    graph.podUpdated(pod("default", "b", "n1", {{"imagePullSecrets", json::array({{{"name", "shared"}}})}}));
    graph.podUpdated(podWithSecret("default", "c", "n1", "shared"));
    QCOMPARE(graph.edgeCount(), std::size_t(1));
    const auto generation = graph.generation();

    graph.podDeleted("default", "a");
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("shared")));
    graph.podUpdated(podWithSecret("default", "c", "n2", "shared")); // c moves away
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("shared")));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n2"), QStringLiteral("shared")));
    graph.podUpdated(pod("default", "b", "n1")); // b stops using it
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("shared")));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n2"), QStringLiteral("shared")));
    graph.podDeleted("default", "c");
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n2"), QStringLiteral("shared")));
    QCOMPARE(graph.edgeCount(), std::size_t(0));
    // Deleting a (n1 keeps it via b) changed no edge; c's move added n2; b's update removed
    // n1; c's deletion removed n2.
    QCOMPARE(graph.generation(), generation + 3);
}

void TestNodeAuthorizer::sameSecretTwiceInOnePodCountsOnce()
{
    NodeGraph graph;
    graph.podUpdated(pod("default", "p", "n1",
                         {{"imagePullSecrets", json::array({{{"name", "s"}}, {{"name", "s"}}})},
                          {"volumes", json::array({{{"name", "v"}, {"secret", {{"secretName", "s"}}}}})}}));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s")));
    graph.podDeleted("default", "p");
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s")));
    QCOMPARE(graph.edgeCount(), std::size_t(0));
}

void TestNodeAuthorizer::generationCountsOnlyEdgeChanges()
{
    NodeGraph graph;
    json p = podWithSecret("default", "p", "n1", "s1");
    graph.podUpdated(p);
    QCOMPARE(graph.generation(), std::uint64_t(1));

    // Status, labels, resourceVersion: the same references.
    p["metadata"]["labels"] = {{"app", "web"}};
    p["metadata"]["resourceVersion"] = "42";
    p["status"] = {{"phase", "Running"}};
    graph.podUpdated(p);
    QCOMPARE(graph.generation(), std::uint64_t(1));

    // A pod with no references comes and goes, and moves: no edge changes.
    graph.podUpdated(pod("default", "plain", "n1"));
    graph.podUpdated(pod("default", "plain", "n2"));
    graph.podDeleted("default", "plain");
    QCOMPARE(graph.generation(), std::uint64_t(1));

    // A second reference is an edge more.
    p["spec"]["imagePullSecrets"] = json::array({{{"name", "pull"}}});
    graph.podUpdated(p);
    QCOMPARE(graph.generation(), std::uint64_t(2));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("pull")));
}

void TestNodeAuthorizer::clearForgetsEverything()
{
    NodeGraph graph;
    graph.clear();
    QCOMPARE(graph.generation(), std::uint64_t(0));
    graph.podUpdated(podWithSecret("default", "p", "n1", "s1"));
    graph.clear();
    QCOMPARE(graph.generation(), std::uint64_t(2));
    QCOMPARE(graph.podCount(), std::size_t(0));
    QVERIFY(!mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
    // A relist brings it back.
    graph.podUpdated(podWithSecret("default", "p", "n1", "s1"));
    QVERIFY(mayReadSecret(graph, QStringLiteral("n1"), QStringLiteral("s1")));
}

void TestNodeAuthorizer::graphAgreesWithRecomputationUnderRandomEvents()
{
    // Pods are created, changed, moved, unbound and deleted at random; after every event the
    // graph must answer exactly what recomputing from the live pods answers, and its
    // generation must move exactly when that answer changed somewhere.
    const std::vector<std::string> nodes = {"", "n1", "n2", "n3"};
    const std::vector<std::string> secrets = {"s1", "s2", "s3", "s4"};
    const std::vector<std::string> podNames = {"a", "b", "c", "d", "e", "f"};
    struct LivePod final {
        std::string node;
        std::set<std::string> secrets;
    };
    std::map<std::string, LivePod> live; // pod name -> what it is now (namespace "default")
    const auto expected = [&](const std::string &nodeName, const std::string &secret) {
        for (const auto &[name, livePod] : live)
            if (!livePod.node.empty() && livePod.node == nodeName && livePod.secrets.contains(secret))
                return true;
        return false;
    };
    const auto snapshot = [&](const NodeGraph &graph) {
        std::vector<bool> answers;
        for (const std::string &nodeName : nodes)
            for (const std::string &secret : secrets)
                answers.push_back(graph.hasRelationship(nodeName, NodeObjectType::Secret, "default", secret));
        return answers;
    };

    std::mt19937 random(3);
    const auto pick = [&](const auto &list) { return list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(random)]; };
    NodeGraph graph;
    for (int event = 0; event < 4000; ++event) {
        const auto before = snapshot(graph);
        const auto generation = graph.generation();
        const std::string name = pick(podNames);
        if (std::uniform_int_distribution<int>(0, 4)(random) == 0) {
            graph.podDeleted("default", name);
            live.erase(name);
        } else {
            LivePod next{pick(nodes), {}};
            json spec = json::object();
            // Each secret through a different field, sometimes twice.
            for (const std::string &secret : secrets) {
                const int how = std::uniform_int_distribution<int>(0, 4)(random);
                if (how == 0)
                    spec["imagePullSecrets"].push_back({{"name", secret}});
                else if (how == 1)
                    spec["volumes"].push_back({{"name", secret}, {"secret", {{"secretName", secret}}}});
                else if (how == 2)
                    spec["containers"].push_back({{"name", secret}, {"envFrom", json::array({{{"secretRef", {{"name", secret}}}}})}});
                else if (how == 3) {
                    spec["imagePullSecrets"].push_back({{"name", secret}});
                    spec["volumes"].push_back({{"name", secret + "-again"}, {"secret", {{"secretName", secret}}}});
                }
                if (how != 4 && !next.node.empty())
                    next.secrets.insert(secret);
            }
            graph.podUpdated(pod("default", name, next.node, spec));
            if (next.node.empty())
                live.erase(name);
            else
                live[name] = std::move(next);
        }
        for (const std::string &nodeName : nodes)
            for (const std::string &secret : secrets)
                QCOMPARE(graph.hasRelationship(nodeName, NodeObjectType::Secret, "default", secret), expected(nodeName, secret));
        QCOMPARE(graph.generation() != generation, snapshot(graph) != before);
        QCOMPARE(graph.podCount(), live.size());
    }
}

QTEST_GUILESS_MAIN(TestNodeAuthorizer)
#include "TestNodeAuthorizer.moc"
