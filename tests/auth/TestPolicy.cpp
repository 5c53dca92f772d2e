// SPDX-License-Identifier: MIT
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <random>

#include "AuthTestSupport.h"
#include "auth/Policy.h"
#include "model/Status.h"

using rvscope::auth::Attributes;
using rvscope::auth::Decision;
using rvscope::auth::Policy;
using namespace rvscope::testing;

namespace {
Policy parsed(const QString &text)
{
    auto policy = Policy::parse(text.toStdString());
    if (!policy)
        qFatal("policy did not parse: %s", policy.error().message.c_str());
    return std::move(policy).value();
}

const QString EXAMPLE = QStringLiteral(
    R"({"rules":[{"users":["alice"],"groups":["devs"],"verbs":["get","list","watch"],
                  "resources":["configmaps"],"namespaces":["default"],"names":["foo"]}]})");

// One rule for anyone, with `fields` (a JSON fragment) deciding what it grants.
QString anyoneMay(const QString &fields)
{
    return QString::fromUtf8(R"({"rules":[{"users":["*"],%1}]})").arg(fields);
}
} // namespace

// The policy file: strict parsing with messages that name the place, and rule matching with
// its wildcards and defaults.
class TestPolicy final : public QObject {
    Q_OBJECT

private slots:
    void authorizesResourceRequests_data();
    void authorizesResourceRequests();
    void authorizesNonResourceRequests_data();
    void authorizesNonResourceRequests();
    void reasonNamesTheFirstMatchingRule();
    void emptyPolicyAllowsNothing();
    void allowAllAllowsEverything();
    void rejectsMalformedPolicies_data();
    void rejectsMalformedPolicies();
    void reportsJsonSyntaxErrorsWithTheirPosition();
    void loadsFromDisk();
    void damagedPoliciesNeverCrash();
};

void TestPolicy::authorizesResourceRequests_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QStringList>("groups");
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("subresource");
    QTest::addColumn<QString>("namespaceName");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("allowed");

    const QStringList none;
    // The example rule of the brief.
    QTest::newRow("user, verb, resource, namespace, name") << EXAMPLE << "alice" << none << "get" << "configmaps" << "" << "default" << "foo" << true;
    QTest::newRow("watch by name") << EXAMPLE << "alice" << none << "watch" << "configmaps" << "" << "default" << "foo" << true;
    QTest::newRow("group member") << EXAMPLE << "carol" << QStringList{"devs"} << "get" << "configmaps" << "" << "default" << "foo" << true;
    QTest::newRow("other user") << EXAMPLE << "bob" << QStringList{"ops"} << "get" << "configmaps" << "" << "default" << "foo" << false;
    QTest::newRow("group named like the user") << EXAMPLE << "bob" << QStringList{"alice"} << "get" << "configmaps" << "" << "default" << "foo" << false;
    QTest::newRow("user named like the group") << EXAMPLE << "devs" << none << "get" << "configmaps" << "" << "default" << "foo" << false;
    QTest::newRow("other verb") << EXAMPLE << "alice" << none << "delete" << "configmaps" << "" << "default" << "foo" << false;
    QTest::newRow("other name") << EXAMPLE << "alice" << none << "get" << "configmaps" << "" << "default" << "bar" << false;
    QTest::newRow("list of all is not a named object") << EXAMPLE << "alice" << none << "list" << "configmaps" << "" << "default" << "" << false;
    QTest::newRow("other namespace") << EXAMPLE << "alice" << none << "get" << "configmaps" << "" << "kube-system" << "foo" << false;
    QTest::newRow("all namespaces is not default") << EXAMPLE << "alice" << none << "get" << "configmaps" << "" << "" << "foo" << false;
    QTest::newRow("other resource") << EXAMPLE << "alice" << none << "get" << "secrets" << "" << "default" << "foo" << false;
    QTest::newRow("same plural in another group") << EXAMPLE << "alice" << none << "get" << "example.com/configmaps" << "" << "default" << "foo" << false;
    QTest::newRow("subresource not granted by default") << EXAMPLE << "alice" << none << "get" << "configmaps" << "status" << "default" << "foo" << false;
    QTest::newRow("names are case sensitive") << EXAMPLE << "Alice" << none << "get" << "configmaps" << "" << "default" << "foo" << false;

    // Subjects.
    const QString everyone = QString::fromUtf8(R"({"rules":[{"users":["*"],"verbs":["get"],"resources":["pods"]}]})");
    QTest::newRow("users * includes anonymous") << everyone << "system:anonymous" << QStringList{"system:unauthenticated"} << "get" << "pods" << "" << "default" << "p" << true;
    QTest::newRow("users * includes a user without groups") << everyone << "x" << none << "get" << "pods" << "" << "" << "" << true;
    const QString anyGroup = QString::fromUtf8(R"({"rules":[{"groups":["*"],"verbs":["get"],"resources":["pods"]}]})");
    QTest::newRow("groups * includes a user without groups") << anyGroup << "x" << none << "get" << "pods" << "" << "ns" << "" << true;
    const QString authenticated = QString::fromUtf8(R"({"rules":[{"groups":["system:authenticated"],"verbs":["get"],"resources":["pods"]}]})");
    QTest::newRow("authenticated group") << authenticated << "alice" << QStringList{"system:authenticated"} << "get" << "pods" << "" << "ns" << "p" << true;
    QTest::newRow("anonymous is not authenticated") << authenticated << "system:anonymous" << QStringList{"system:unauthenticated"} << "get" << "pods" << "" << "ns" << "p" << false;

    // Verbs.
    const QString allVerbs = anyoneMay(QString::fromUtf8(R"("verbs":["*"],"resources":["pods"])"));
    QTest::newRow("verbs *: delete") << allVerbs << "u" << none << "delete" << "pods" << "" << "ns" << "p" << true;
    QTest::newRow("verbs *: deletecollection") << allVerbs << "u" << none << "deletecollection" << "pods" << "" << "ns" << "" << true;

    // Resources.
    const QString allResources = anyoneMay(QString::fromUtf8(R"("verbs":["get"],"resources":["*"])"));
    QTest::newRow("resources *: core") << allResources << "u" << none << "get" << "configmaps" << "" << "ns" << "c" << true;
    QTest::newRow("resources *: apps") << allResources << "u" << none << "get" << "apps/deployments" << "" << "ns" << "d" << true;
    QTest::newRow("resources *: not subresources") << allResources << "u" << none << "get" << "pods" << "log" << "ns" << "p" << false;
    const QString appsAll = anyoneMay(QString::fromUtf8(R"("verbs":["get"],"resources":["apps/*"])"));
    QTest::newRow("apps/*: deployments") << appsAll << "u" << none << "get" << "apps/deployments" << "" << "ns" << "d" << true;
    QTest::newRow("apps/*: not batch") << appsAll << "u" << none << "get" << "batch/jobs" << "" << "ns" << "j" << false;
    QTest::newRow("apps/*: not core") << appsAll << "u" << none << "get" << "configmaps" << "" << "ns" << "c" << false;
    QTest::newRow("apps/*: not a group that starts with apps") << appsAll << "u" << none << "get" << "apps.example.com/things" << "" << "ns" << "c" << false;
    const QString anyGroupDeployments = anyoneMay(QString::fromUtf8(R"("verbs":["get"],"resources":["*/deployments"])"));
    QTest::newRow("*/deployments: apps") << anyGroupDeployments << "u" << none << "get" << "apps/deployments" << "" << "ns" << "d" << true;
    QTest::newRow("*/deployments: core group too") << anyGroupDeployments << "u" << none << "get" << "deployments" << "" << "ns" << "d" << true;
    QTest::newRow("*/deployments: not replicasets") << anyGroupDeployments << "u" << none << "get" << "apps/replicasets" << "" << "ns" << "d" << false;
    const QString appsDeployments = anyoneMay(QString::fromUtf8(R"("verbs":["get"],"resources":["apps/deployments"])"));
    QTest::newRow("apps/deployments: not core deployments") << appsDeployments << "u" << none << "get" << "deployments" << "" << "ns" << "d" << false;
    QTest::newRow("apps/deployments: not extensions") << appsDeployments << "u" << none << "get" << "extensions/deployments" << "" << "ns" << "d" << false;

    // Subresources.
    const QString scaleOnly = anyoneMay(QString::fromUtf8(R"("verbs":["update"],"resources":["apps/deployments"],"subresources":["scale"])"));
    QTest::newRow("scale only: scale") << scaleOnly << "u" << none << "update" << "apps/deployments" << "scale" << "ns" << "d" << true;
    QTest::newRow("scale only: not the deployment") << scaleOnly << "u" << none << "update" << "apps/deployments" << "" << "ns" << "d" << false;
    QTest::newRow("scale only: not status") << scaleOnly << "u" << none << "update" << "apps/deployments" << "status" << "ns" << "d" << false;
    const QString mainAndStatus = anyoneMay(QString::fromUtf8(R"("verbs":["get"],"resources":["pods"],"subresources":["","status"])"));
    QTest::newRow("main and status: main") << mainAndStatus << "u" << none << "get" << "pods" << "" << "ns" << "p" << true;
    QTest::newRow("main and status: status") << mainAndStatus << "u" << none << "get" << "pods" << "status" << "ns" << "p" << true;
    QTest::newRow("main and status: not log") << mainAndStatus << "u" << none << "get" << "pods" << "log" << "ns" << "p" << false;
    const QString allSubresources = anyoneMay(QString::fromUtf8(R"("verbs":["get"],"resources":["pods"],"subresources":["*"])"));
    QTest::newRow("subresources *: log") << allSubresources << "u" << none << "get" << "pods" << "log" << "ns" << "p" << true;
    QTest::newRow("subresources *: main") << allSubresources << "u" << none << "get" << "pods" << "" << "ns" << "p" << true;

    // Namespaces.
    const QString anyNamespace = anyoneMay(QString::fromUtf8(R"("verbs":["list"],"resources":["pods"])"));
    QTest::newRow("namespaces absent: one namespace") << anyNamespace << "u" << none << "list" << "pods" << "" << "ns" << "" << true;
    QTest::newRow("namespaces absent: all namespaces") << anyNamespace << "u" << none << "list" << "pods" << "" << "" << "" << true;
    const QString starNamespace = anyoneMay(QString::fromUtf8(R"("verbs":["list"],"resources":["*"],"namespaces":["*"])"));
    QTest::newRow("namespaces *: cluster scope") << starNamespace << "u" << none << "list" << "nodes" << "" << "" << "" << true;
    const QString clusterScope = anyoneMay(QString::fromUtf8(R"("verbs":["list"],"resources":["*"],"namespaces":[""])"));
    QTest::newRow("namespaces empty string: cluster scope") << clusterScope << "u" << none << "list" << "nodes" << "" << "" << "" << true;
    QTest::newRow("namespaces empty string: not a namespace") << clusterScope << "u" << none << "list" << "pods" << "" << "ns" << "" << false;
    const QString twoNamespaces = anyoneMay(QString::fromUtf8(R"("verbs":["list"],"resources":["pods"],"namespaces":["a","b"])"));
    QTest::newRow("two namespaces: b") << twoNamespaces << "u" << none << "list" << "pods" << "" << "b" << "" << true;
    QTest::newRow("two namespaces: not all namespaces") << twoNamespaces << "u" << none << "list" << "pods" << "" << "" << "" << false;

    // Names.
    const QString starName = anyoneMay(QString::fromUtf8(R"("verbs":["list","get"],"resources":["pods"],"names":["*"])"));
    QTest::newRow("names *: a list") << starName << "u" << none << "list" << "pods" << "" << "ns" << "" << true;
    QTest::newRow("names *: a name") << starName << "u" << none << "get" << "pods" << "" << "ns" << "p" << true;
    const QString twoNames = anyoneMay(QString::fromUtf8(R"("verbs":["watch"],"resources":["secrets"],"names":["a","b"])"));
    QTest::newRow("two names: b") << twoNames << "u" << none << "watch" << "secrets" << "" << "ns" << "b" << true;
    QTest::newRow("two names: not c") << twoNames << "u" << none << "watch" << "secrets" << "" << "ns" << "c" << false;
    QTest::newRow("two names: not a prefix") << twoNames << "u" << none << "watch" << "secrets" << "" << "ns" << "ab" << false;
}

void TestPolicy::authorizesResourceRequests()
{
    QFETCH(QString, policy);
    QFETCH(QString, user);
    QFETCH(QStringList, groups);
    QFETCH(QString, verb);
    QFETCH(QString, resource);
    QFETCH(QString, subresource);
    QFETCH(QString, namespaceName);
    QFETCH(QString, name);
    QFETCH(bool, allowed);

    const auto result = parsed(policy).authorize(request(rvscope::testing::user(user, groups), verb, resource, namespaceName, name, subresource));
    QCOMPARE(result.allowed(), allowed);
    QCOMPARE(result.decision, allowed ? Decision::Allow : Decision::NoOpinion);
    if (!allowed)
        QCOMPARE(result.reason, std::string()); // like RBAC: the 403 message stays upstream's
}

void TestPolicy::authorizesNonResourceRequests_data()
{
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("allowed");

    QTest::newRow("exact path") << "get" << "/api" << true;
    QTest::newRow("exact path is not a prefix") << "get" << "/api/v1" << false;
    QTest::newRow("prefix") << "get" << "/apis/apps/v1" << true;
    QTest::newRow("prefix includes its slash") << "get" << "/apis/" << true;
    QTest::newRow("prefix needs its slash") << "get" << "/apis" << false;
    QTest::newRow("another verb") << "post" << "/api" << false;
    QTest::newRow("unlisted path") << "get" << "/healthz" << false;
    QTest::newRow("head by * verb") << "head" << "/version" << true;
}

void TestPolicy::authorizesNonResourceRequests()
{
    QFETCH(QString, verb);
    QFETCH(QString, path);
    QFETCH(bool, allowed);

    const Policy policy = parsed(QString::fromUtf8(R"({"rules":[
        {"groups":["system:authenticated"],"verbs":["get"],"nonResourceURLs":["/api","/apis/*"]},
        {"users":["*"],"verbs":["*"],"nonResourceURLs":["/version"]},
        {"users":["*"],"verbs":["*"],"resources":["*"],"subresources":["*"]}]})"));
    const auto result = policy.authorize(pathRequest(user(QStringLiteral("alice"), {QStringLiteral("system:authenticated")}), verb, path));
    QCOMPARE(result.allowed(), allowed);
}

void TestPolicy::reasonNamesTheFirstMatchingRule()
{
    const Policy policy = parsed(QString::fromUtf8(R"({"rules":[
        {"users":["bob"],"verbs":["*"],"resources":["*"]},
        {"users":["alice"],"verbs":["get"],"resources":["pods"]},
        {"users":["*"],"verbs":["get"],"resources":["pods"]}]})"));
    QCOMPARE(policy.rules().size(), std::size_t(3));
    const auto result = policy.authorize(request(user(QStringLiteral("alice")), QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("ns"), QStringLiteral("p")));
    QCOMPARE(result.decision, Decision::Allow);
    QCOMPARE(result.reason, std::string("allowed by policy rules[1]"));
    // A resource rule never covers a path, nor a path rule a resource.
    QVERIFY(!policy.authorize(pathRequest(user(QStringLiteral("bob")), QStringLiteral("get"), QStringLiteral("/api"))).allowed());
}

void TestPolicy::emptyPolicyAllowsNothing()
{
    for (const Policy &policy : {Policy(), parsed(QString::fromUtf8(R"({"rules":[]})"))}) {
        QVERIFY(policy.rules().empty());
        const auto result = policy.authorize(request(user(QStringLiteral("admin"), {QStringLiteral("system:masters")}), QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("ns"), QStringLiteral("p")));
        QCOMPARE(result.decision, Decision::NoOpinion);
        QVERIFY(!policy.authorize(pathRequest(user(QStringLiteral("admin")), QStringLiteral("get"), QStringLiteral("/api"))).allowed());
    }
}

void TestPolicy::allowAllAllowsEverything()
{
    const Policy policy = Policy::allowAll();
    const auto anonymous = rvscope::auth::UserInfo::anonymous();
    QVERIFY(policy.authorize(request(anonymous, QStringLiteral("delete"), QStringLiteral("apps/deployments"), QStringLiteral("ns"), QStringLiteral("d"), QStringLiteral("scale"))).allowed());
    QVERIFY(policy.authorize(request(anonymous, QStringLiteral("list"), QStringLiteral("nodes"))).allowed());
    QVERIFY(policy.authorize(request(user(QStringLiteral("x")), QStringLiteral("create"), QStringLiteral("configmaps"), QStringLiteral("ns"))).allowed());
    QVERIFY(policy.authorize(pathRequest(anonymous, QStringLiteral("get"), QStringLiteral("/openapi/v2"))).allowed());
}

void TestPolicy::rejectsMalformedPolicies_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("message");

    QTest::newRow("array document") << "[]" << R"(policy: must be a JSON object with "rules", not array)";
    QTest::newRow("no rules") << "{}" << R"(policy: missing "rules")";
    QTest::newRow("rules not a list") << R"({"rules":{}})" << "policy rules: must be a list of rules";
    QTest::newRow("unknown top-level key") << R"({"rules":[],"rule":[]})" << R"(policy: unknown key "rule" (expected "rules"))";
    QTest::newRow("rule not an object") << R"({"rules":[1]})" << "policy rules[0]: must be an object, not number";
    QTest::newRow("unknown rule key") << R"({"rules":[{"users":["a"],"verbs":["get"],"resource":["pods"]}]})"
                                      << R"(policy rules[0]: unknown key "resource" (expected one of users, groups, verbs, resources, subresources, namespaces, names, nonResourceURLs))";
    QTest::newRow("no subject") << R"({"rules":[{"verbs":["get"],"resources":["pods"]}]})"
                                << R"(policy rules[0]: has no subject: give "users", "groups" or both)";
    QTest::newRow("no verbs") << R"({"rules":[{"users":["a"],"resources":["pods"]}]})" << R"(policy rules[0]: has no "verbs")";
    QTest::newRow("verbs a string") << R"({"rules":[{"users":["a"],"verbs":"get","resources":["pods"]}]})"
                                    << "policy rules[0].verbs: must be a list of strings";
    QTest::newRow("verbs empty") << R"({"rules":[{"users":["a"],"verbs":[],"resources":["pods"]}]})"
                                 << "policy rules[0].verbs: must not be empty (leave it out to use the default)";
    QTest::newRow("unknown verb") << R"({"rules":[{"users":["a"],"verbs":["get","gets"],"resources":["pods"]}]})"
                                  << R"(policy rules[0].verbs[1]: unknown verb "gets" (expected *, get, list, watch, create, update, patch, delete, deletecollection))";
    QTest::newRow("verbs in upper case") << R"({"rules":[{"users":["a"],"verbs":["GET"],"resources":["pods"]}]})"
                                         << R"(policy rules[0].verbs[0]: unknown verb "GET" (expected *, get, list, watch, create, update, patch, delete, deletecollection))";
    QTest::newRow("resource verb on a path") << R"({"rules":[{"users":["a"],"verbs":["list"],"nonResourceURLs":["/api"]}]})"
                                             << R"(policy rules[0].verbs[0]: unknown verb "list" (expected *, get, head, post, put, patch, delete, options))";
    QTest::newRow("number in a list") << R"({"rules":[{"users":[1],"verbs":["get"],"resources":["pods"]}]})"
                                      << "policy rules[0].users[0]: must be a string, not number";
    QTest::newRow("null in a list") << R"({"rules":[{"users":["a"],"groups":[null],"verbs":["get"],"resources":["pods"]}]})"
                                    << "policy rules[0].groups[0]: must be a string, not null";
    QTest::newRow("empty user") << R"({"rules":[{"users":[""],"verbs":["get"],"resources":["pods"]}]})"
                                << "policy rules[0].users[0]: must not be empty";
    QTest::newRow("empty name") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["pods"],"names":[""]}]})"
                                << "policy rules[0].names[0]: must not be empty";
    QTest::newRow("empty namespaces list") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["pods"],"namespaces":[]}]})"
                                           << "policy rules[0].namespaces: must not be empty (leave it out to use the default)";
    QTest::newRow("wildcard inside a user") << R"({"rules":[{"users":["system:serviceaccount:*"],"verbs":["get"],"resources":["pods"]}]})"
                                            << R"(policy rules[0].users[0]: "system:serviceaccount:*": '*' is a wildcard only on its own)";
    QTest::newRow("wildcard inside a name") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["pods"],"names":["web-*"]}]})"
                                            << R"(policy rules[0].names[0]: "web-*": '*' is a wildcard only on its own)";
    QTest::newRow("wildcard inside a resource") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["config*"]}]})"
                                                << R"(policy rules[0].resources[0]: "config*": '*' is a wildcard only on its own)";
    QTest::newRow("wildcard inside a group") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["*.k8s.io/*"]}]})"
                                             << R"(policy rules[0].resources[0]: "*.k8s.io/*": '*' is a wildcard only on its own)";
    QTest::newRow("a kind, not a resource") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["ConfigMap"]}]})"
                                            << R"(policy rules[0].resources[0]: "ConfigMap": expected a lower-case resource plural such as "configmaps" or "apps/deployments", not a kind)";
    QTest::newRow("core prefix") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["core/pods"]}]})"
                                 << R"(policy rules[0].resources[0]: "core/pods": the core group has no prefix; write "pods")";
    QTest::newRow("subresource in the resource") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["apps/deployments/scale"]}]})"
                                                 << R"(policy rules[0].resources[0]: "apps/deployments/scale": expected "<plural>" or "<group>/<plural>"; name subresources in "subresources")";
    QTest::newRow("empty resource after the group") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["apps/"]}]})"
                                                    << R"(policy rules[0].resources[0]: "apps/": empty group or resource)";
    QTest::newRow("empty group before the resource") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["/pods"]}]})"
                                                     << R"(policy rules[0].resources[0]: "/pods": empty group or resource)";
    QTest::newRow("both kinds of rule") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["pods"],"nonResourceURLs":["/api"]}]})"
                                        << R"(policy rules[0]: has both "resources" and "nonResourceURLs"; split it into two rules)";
    QTest::newRow("neither kind of rule") << R"({"rules":[{"users":["a"],"verbs":["get"]}]})"
                                          << R"(policy rules[0]: has neither "resources" nor "nonResourceURLs")";
    QTest::newRow("namespaces on a path rule") << R"({"rules":[{"users":["a"],"verbs":["get"],"nonResourceURLs":["/api"],"namespaces":["x"]}]})"
                                               << R"(policy rules[0]: has "namespaces", which does not apply to "nonResourceURLs")";
    QTest::newRow("wildcard inside a path") << R"({"rules":[{"users":["a"],"verbs":["get"],"nonResourceURLs":["/apis/*/v1"]}]})"
                                            << R"(policy rules[0].nonResourceURLs[0]: "/apis/*/v1": '*' may only end a path prefix)";
    QTest::newRow("relative path") << R"({"rules":[{"users":["a"],"verbs":["get"],"nonResourceURLs":["api"]}]})"
                                   << R"(policy rules[0].nonResourceURLs[0]: "api": a path starts with '/')";
    QTest::newRow("duplicate key") << R"({"rules":[{"users":["a"],"verbs":["get"],"verbs":["*"],"resources":["pods"]}]})"
                                   << R"(policy: the key "verbs" appears twice in one object)";
    QTest::newRow("second rule reported by index") << R"({"rules":[{"users":["a"],"verbs":["get"],"resources":["pods"]},{"users":["a"],"verbs":["get"],"resources":["Pods"]}]})"
                                                   << R"(policy rules[1].resources[0]: "Pods": expected a lower-case resource plural such as "configmaps" or "apps/deployments", not a kind)";
}

void TestPolicy::rejectsMalformedPolicies()
{
    QFETCH(QString, policy);
    QFETCH(QString, message);

    const auto result = Policy::parse(policy.toStdString());
    QVERIFY(!result.ok());
    QCOMPARE(result.error().code, 400);
    QCOMPARE(QString::fromStdString(result.error().reason), QStringLiteral("BadRequest"));
    QCOMPARE(QString::fromStdString(result.error().message), message);
}

void TestPolicy::reportsJsonSyntaxErrorsWithTheirPosition()
{
    // The rest of the text is nlohmann's and varies between its versions.
    for (const auto &[text, prefix] : {std::pair{R"({"rules":[)", "policy: invalid JSON: parse error at line 1, column 11: "},
                                       std::pair{"{\n  \"rules\": [,]}", "policy: invalid JSON: parse error at line 2, column 13: "},
                                       std::pair{"", "policy: invalid JSON: parse error at line 1, column 1: "}}) {
        const auto result = Policy::parse(text);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, 400);
        QVERIFY2(result.error().message.starts_with(prefix), result.error().message.c_str());
    }
}

void TestPolicy::loadsFromDisk()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("policy.json")).toStdString();
    std::ofstream(path) << EXAMPLE.toStdString();
    const auto policy = Policy::load(path);
    QVERIFY2(policy.ok(), policy.ok() ? "" : policy.error().message.c_str());
    QCOMPARE(policy->rules().size(), std::size_t(1));

    std::ofstream(path) << "{}";
    const auto broken = Policy::load(path);
    QVERIFY(!broken.ok());
    QCOMPARE(QString::fromStdString(broken.error().message), QString::fromStdString("policy file \"" + path + "\": missing \"rules\""));

    QCOMPARE(QString::fromStdString(Policy::load(dir.path().toStdString()).error().message),
             QStringLiteral("unable to read policy file \"%1\": is a directory").arg(dir.path()));

    const auto missing = Policy::load("/nonexistent/rvscope/policy.json");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, 400);
    QVERIFY(missing.error().message.starts_with("unable to read policy file \"/nonexistent/rvscope/policy.json\": "));
}

void TestPolicy::damagedPoliciesNeverCrash()
{
    // Every truncation, every single deleted character and random replacements of a valid
    // policy: a policy or a 400, and a policy that still parses still authorizes.
    const std::string valid = QString::fromUtf8(R"({"rules":[{"users":["alice"],"groups":["devs"],"verbs":["get","list"],
        "resources":["configmaps","apps/*","*/deployments"],"subresources":["","status"],"namespaces":["default",""],
        "names":["foo"]},{"groups":["*"],"verbs":["get"],"nonResourceURLs":["/api","/apis/*"]}]})").toStdString();
    std::vector<std::string> damaged;
    for (std::size_t i = 0; i < valid.size(); ++i) {
        damaged.push_back(valid.substr(0, i));
        damaged.push_back(valid.substr(0, i) + valid.substr(i + 1));
    }
    std::mt19937 random(11);
    const std::string replacements = "*/\"[]{},:x \\";
    for (int round = 0; round < 3000; ++round) {
        std::string text = valid;
        for (int edits = 0; edits < 3; ++edits)
            text[std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random)] =
                replacements[std::uniform_int_distribution<std::size_t>(0, replacements.size() - 1)(random)];
        damaged.push_back(std::move(text));
    }
    const auto attributes = request(user(QStringLiteral("alice"), {QStringLiteral("devs")}), QStringLiteral("get"),
                                    QStringLiteral("apps/deployments"), QStringLiteral("default"), QStringLiteral("foo"));
    for (const std::string &text : damaged) {
        const auto policy = Policy::parse(text);
        if (!policy.ok()) {
            QCOMPARE(policy.error().code, 400);
            QVERIFY2(policy.error().message.starts_with("policy"), policy.error().message.c_str());
            continue;
        }
        (void)policy->authorize(attributes);
    }
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "TestPolicy.moc"
