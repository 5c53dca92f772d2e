// SPDX-License-Identifier: MIT
#include <QTest>

#include "AuthTestSupport.h"
#include "auth/Authorizer.h"
#include "model/Status.h"
#include "registry/selection/FieldSelector.h"

using nlohmann::json;
using rvscope::auth::Attributes;
using rvscope::auth::Authorizer;
using rvscope::auth::Decision;
using rvscope::auth::Policy;
using namespace rvscope::testing;

namespace {
Policy parsed(const char *text)
{
    auto policy = Policy::parse(text);
    if (!policy)
        qFatal("policy did not parse: %s", policy.error().message.c_str());
    return std::move(policy).value();
}

const char *const NODE_POLICY = R"({"rules":[
    {"groups":["system:nodes"],"verbs":["list","watch"],"resources":["pods"]},
    {"users":["admin"],"verbs":["*"],"resources":["*"],"subresources":["*"]}]})";
} // namespace

// The chain (node authorizer, then policy) and the 403 it produces, in the apiserver's words.
class TestAuthorizer final : public QObject {
    Q_OBJECT

private slots:
    void forbiddenMessages_data();
    void forbiddenMessages();
    void forbiddenBodyMatchesTheWireContract();
    void forbiddenEscapesLikeUpstream();
    void nodeAuthorizerComesFirst();
    void policyAllowsWhatTheNodeAuthorizerDoesNot();
    void denialCarriesTheNodeReason();
    void checkReturnsTheStatus();
    void generationFollowsGraphAndPolicy();
    void openWatchLosesAccessWhenItsPodGoes();
};

void TestAuthorizer::forbiddenMessages_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("subresource");
    QTest::addColumn<QString>("namespaceName");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("message");

    QTest::newRow("list in a namespace (wire contract)")
        << "system:anonymous" << "list" << "configmaps" << "" << "default" << "" << ""
        << R"(configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default")";
    QTest::newRow("named object with reason")
        << "system:node:n1" << "get" << "secrets" << "" << "default" << "s1" << "no relationship found between node 'n1' and this object"
        << R"(secrets "s1" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object)";
    QTest::newRow("group and subresource")
        << "alice" << "update" << "apps/deployments" << "scale" << "default" << "web" << ""
        << R"(deployments.apps "web" is forbidden: User "alice" cannot update resource "deployments/scale" in API group "apps" in the namespace "default")";
    QTest::newRow("cluster scope")
        << "bob" << "get" << "nodes" << "" << "" << "n2" << ""
        << R"(nodes "n2" is forbidden: User "bob" cannot get resource "nodes" in API group "" at the cluster scope)";
    QTest::newRow("list across namespaces")
        << "bob" << "watch" << "apps/deployments" << "" << "" << "" << ""
        << R"(deployments.apps is forbidden: User "bob" cannot watch resource "deployments" in API group "apps" at the cluster scope)";
    QTest::newRow("create in a namespace")
        << "bob" << "create" << "example.com/widgets" << "" << "team-a" << "" << ""
        << R"(widgets.example.com is forbidden: User "bob" cannot create resource "widgets" in API group "example.com" in the namespace "team-a")";
    QTest::newRow("two reasons") << "system:node:n1" << "get" << "secrets" << "" << "ns" << "s" << "first\nsecond"
                                 << "secrets \"s\" is forbidden: User \"system:node:n1\" cannot get resource \"secrets\" in API group \"\" in the namespace \"ns\": first\nsecond";
    QTest::newRow("quotes in names are Go-quoted")
        << "a\"b" << "get" << "configmaps" << "" << "default" << "x\\y" << ""
        << R"(configmaps "x\\y" is forbidden: User "a\"b" cannot get resource "configmaps" in API group "" in the namespace "default")";
}

void TestAuthorizer::forbiddenMessages()
{
    QFETCH(QString, user);
    QFETCH(QString, verb);
    QFETCH(QString, resource);
    QFETCH(QString, subresource);
    QFETCH(QString, namespaceName);
    QFETCH(QString, name);
    QFETCH(QString, reason);
    QFETCH(QString, message);

    const Attributes attributes = request(rvscope::testing::user(user), verb, resource, namespaceName, name, subresource);
    const rvscope::model::Status status = Authorizer::forbidden(attributes, reason.toStdString());
    QCOMPARE(status.code, 403);
    QCOMPARE(QString::fromStdString(status.reason), QStringLiteral("Forbidden"));
    QCOMPARE(QString::fromStdString(status.message), message);
    QCOMPARE(QString::fromStdString(status.details.name), name);
    QCOMPARE(status.details.group, attributes.groupResource().group);
    QCOMPARE(status.details.kind, attributes.groupResource().resource);
}

void TestAuthorizer::forbiddenBodyMatchesTheWireContract()
{
    const Authorizer authorizer;
    const auto status = authorizer.check(request(rvscope::auth::UserInfo::anonymous(), QStringLiteral("list"), QStringLiteral("configmaps"), QStringLiteral("default")));
    QVERIFY(status.has_value());
    json body = status->toJson();
    QCOMPARE(body.value("kind", ""), std::string("Status"));
    QCOMPARE(body.value("status", ""), std::string("Failure"));
    QCOMPARE(body.value("code", 0), 403);
    QCOMPARE(body.value("reason", ""), std::string("Forbidden"));
    QCOMPARE(body.value("message", ""),
             std::string(R"(configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default")"));
    QCOMPARE(body["details"].dump(), std::string(R"({"kind":"configmaps"})"));

    // Non-resource requests: no resource, no details.
    const auto path = authorizer.check(pathRequest(rvscope::auth::UserInfo::anonymous(), QStringLiteral("get"), QStringLiteral("/apis")));
    QVERIFY(path.has_value());
    QCOMPARE(path->message, std::string(R"(forbidden: User "system:anonymous" cannot get path "/apis")"));
    QVERIFY(path->details.empty());
}

void TestAuthorizer::forbiddenEscapesLikeUpstream()
{
    // responsewriters.Forbidden escapes &, < and > in its part of the message, not in the
    // resource and name prefix nor in the reason.
    const Attributes attributes = request(user(QStringLiteral("<script>&")), QStringLiteral("get"), QStringLiteral("configmaps"),
                                          QStringLiteral("default"), QStringLiteral("a<b"));
    QCOMPARE(Authorizer::forbidden(attributes, "x<y").message,
             std::string(R"(configmaps "a<b" is forbidden: User "&lt;script&gt;&amp;" cannot get resource "configmaps" in API group "" in the namespace "default": x<y)"));
}

void TestAuthorizer::nodeAuthorizerComesFirst()
{
    Authorizer authorizer; // a policy with no rules
    authorizer.nodeGraph().podUpdated(podWithSecret("default", "p", "n1", "s1"));
    const auto result = authorizer.authorize(request(node(QStringLiteral("n1")), QStringLiteral("get"), QStringLiteral("secrets"), QStringLiteral("default"), QStringLiteral("s1")));
    QCOMPARE(result.decision, Decision::Allow);
    QVERIFY(!authorizer.check(request(node(QStringLiteral("n1")), QStringLiteral("get"), QStringLiteral("nodes"), {}, QStringLiteral("n1"))).has_value());
}

void TestAuthorizer::policyAllowsWhatTheNodeAuthorizerDoesNot()
{
    Authorizer authorizer(parsed(NODE_POLICY));
    // The node authorizer has no opinion on pods: the policy lets nodes list them.
    const auto pods = authorizer.authorize(request(node(QStringLiteral("n1")), QStringLiteral("watch"), QStringLiteral("pods")));
    QCOMPARE(pods.decision, Decision::Allow);
    QCOMPARE(pods.reason, std::string("allowed by policy rules[0]"));
    // It declines a secret its pods do not use; the admin rule still applies to admin.
    QVERIFY(authorizer.authorize(request(user(QStringLiteral("admin")), QStringLiteral("delete"), QStringLiteral("secrets"), QStringLiteral("default"), QStringLiteral("s1"))).allowed());
    // A node-named user without the system:nodes group gets no node rules at all.
    const auto impostor = authorizer.authorize(request(user(QStringLiteral("system:node:n1")), QStringLiteral("watch"), QStringLiteral("pods")));
    QCOMPARE(impostor.decision, Decision::Deny);
    QCOMPARE(impostor.reason, std::string());
}

void TestAuthorizer::denialCarriesTheNodeReason()
{
    Authorizer authorizer(parsed(NODE_POLICY));
    const Attributes attributes = request(node(QStringLiteral("n1")), QStringLiteral("get"), QStringLiteral("secrets"), QStringLiteral("default"), QStringLiteral("s1"));
    const auto result = authorizer.authorize(attributes);
    QCOMPARE(result.decision, Decision::Deny);
    QCOMPARE(result.reason, std::string("no relationship found between node 'n1' and this object"));
    const auto status = authorizer.check(attributes);
    QVERIFY(status.has_value());
    QCOMPARE(status->message,
             std::string(R"(secrets "s1" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object)"));
}

void TestAuthorizer::checkReturnsTheStatus()
{
    Authorizer authorizer(parsed(R"({"rules":[{"users":["alice"],"verbs":["get"],"resources":["configmaps"],"namespaces":["default"]}]})"));
    const auto alice = user(QStringLiteral("alice"), {QStringLiteral("system:authenticated")});
    QVERIFY(!authorizer.check(request(alice, QStringLiteral("get"), QStringLiteral("configmaps"), QStringLiteral("default"), QStringLiteral("c"))).has_value());
    const auto denied = authorizer.check(request(alice, QStringLiteral("get"), QStringLiteral("configmaps"), QStringLiteral("prod"), QStringLiteral("c")));
    QVERIFY(denied.has_value());
    QCOMPARE(denied->code, 403);
    QCOMPARE(denied->message, std::string(R"(configmaps "c" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "prod")"));
}

void TestAuthorizer::generationFollowsGraphAndPolicy()
{
    Authorizer authorizer;
    QCOMPARE(authorizer.generation(), std::uint64_t(0));
    authorizer.nodeGraph().podUpdated(podWithSecret("default", "p", "n1", "s1"));
    QCOMPARE(authorizer.generation(), std::uint64_t(1));
    authorizer.setPolicy(Policy::allowAll());
    QCOMPARE(authorizer.generation(), std::uint64_t(2));
    QCOMPARE(authorizer.policy().rules().size(), std::size_t(2));
    authorizer.nodeGraph().podDeleted("default", "p");
    QCOMPARE(authorizer.generation(), std::uint64_t(3));
    // Reloading the same policy still counts: the server re-checks after every reload.
    authorizer.setPolicy(Policy::allowAll());
    QCOMPARE(authorizer.generation(), std::uint64_t(4));
}

void TestAuthorizer::openWatchLosesAccessWhenItsPodGoes()
{
    // The kubelet story: a node watches a secret by name; the pod that uses it is deleted;
    // the generation moves, the re-check denies, and the watch is closed with this 403.
    Authorizer authorizer(parsed(NODE_POLICY));
    authorizer.nodeGraph().podUpdated(podWithSecret("default", "web", "n1", "db-password"));
    Attributes watch = request(node(QStringLiteral("n1")), QStringLiteral("watch"), QStringLiteral("secrets"), QStringLiteral("default"));
    rvscope::auth::applyFieldSelectorName(watch, *rvscope::registry::FieldSelector::parse("metadata.name=db-password"));
    QVERIFY(!authorizer.check(watch).has_value());
    const auto authorizedAt = authorizer.generation();

    authorizer.nodeGraph().podUpdated(podWithSecret("default", "web", "n1", "db-password")); // a status update
    QCOMPARE(authorizer.generation(), authorizedAt);

    authorizer.nodeGraph().podDeleted("default", "web");
    QVERIFY(authorizer.generation() != authorizedAt);
    const auto status = authorizer.check(watch);
    QVERIFY(status.has_value());
    QCOMPARE(status->message,
             std::string(R"(secrets "db-password" is forbidden: User "system:node:n1" cannot watch resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object)"));
}

QTEST_GUILESS_MAIN(TestAuthorizer)
#include "TestAuthorizer.moc"
