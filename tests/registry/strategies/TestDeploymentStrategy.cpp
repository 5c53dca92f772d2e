// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StrategyTestSupport.h"
#include "model/StatusErrors.h"
#include "registry/strategies/DeploymentStatusStrategy.h"
#include "registry/strategies/DeploymentStrategy.h"
#include "registry/strategies/WorkloadScale.h"

using rvscope::model::Object;
using rvscope::registry::DeploymentStatusStrategy;
using rvscope::registry::DeploymentStrategy;
using rvscope::testing::causeOn;
using rvscope::testing::describe;
using rvscope::testing::objectFrom;

namespace {
const char *const WEB_DEPLOYMENT = R"({"kind":"Deployment","apiVersion":"apps/v1",
    "metadata":{"name":"web","namespace":"default","labels":{"team":"a"}},
    "spec":{"selector":{"matchLabels":{"app":"web"}},
            "template":{"metadata":{"labels":{"app":"web"}},
                        "spec":{"containers":[{"name":"web","image":"nginx:1.25"}]}}},
    "status":{"replicas":7}})";

Object createdDeployment(const char *json = WEB_DEPLOYMENT)
{
    Object deployment = objectFrom(json);
    rvscope::testing::stampIdentity(deployment);
    deployment.setGeneration(1);
    DeploymentStrategy().prepareForCreate(deployment);
    return deployment;
}

std::vector<rvscope::model::StatusCause> validateSpec(const char *spec)
{
    Object deployment = objectFrom(R"({"metadata":{"name":"web","namespace":"default"}})");
    deployment.mutableJson()["spec"] = nlohmann::json::parse(spec);
    DeploymentStrategy().prepareForCreate(deployment);
    return DeploymentStrategy().validate(deployment);
}
} // namespace

class TestDeploymentStrategy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testTypeProperties();
    void testCreateAppliesDefaultsAndClearsStatus();
    void testExplicitValuesAreNotDefaulted();
    void testValidDeploymentHasNoCauses();
    void testMissingSelector();
    void testEmptySelector();
    void testSelectorMustMatchTemplateLabels();
    void testTemplateContainersAreValidated();
    void testNegativeReplicas();
    void testRollingUpdateMayNotBeAllZero();
    void testTemplateRestartPolicyMustBeAlways();
    void testGenerationRules();
    void testUpdateKeepsStatus();
    void testSelectorIsImmutable();
    void testStatusStrategyKeepsSpecAndLabels();
    void testStatusValidation();
    void testScaleFromDeployment();
    void testScaleSelectorWithExpressions();
    void testScaleRoundTrip();
    void testScaleRejectsNegativeReplicas();
};

void TestDeploymentStrategy::testTypeProperties()
{
    const DeploymentStrategy strategy;
    QVERIFY(strategy.namespaced());
    QVERIFY(strategy.hasGeneration());
    QVERIFY(!strategy.returnDeletedObject());
    QVERIFY(strategy.extraFieldLabels().empty());
    QCOMPARE(strategy.selectableFields(createdDeployment()).size(), std::size_t(2));
}

void TestDeploymentStrategy::testCreateAppliesDefaultsAndClearsStatus()
{
    const Object deployment = createdDeployment();
    const nlohmann::json &spec = deployment.json()["spec"];
    QCOMPARE(spec["replicas"], nlohmann::json(1));
    QCOMPARE(spec["strategy"], nlohmann::json::parse(
                                   R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}})"));
    QCOMPARE(spec["revisionHistoryLimit"], nlohmann::json(10));
    QCOMPARE(spec["progressDeadlineSeconds"], nlohmann::json(600));
    const nlohmann::json &podSpec = spec["template"]["spec"];
    QCOMPARE(podSpec["restartPolicy"], nlohmann::json("Always"));
    QCOMPARE(podSpec["dnsPolicy"], nlohmann::json("ClusterFirst"));
    QCOMPARE(podSpec["terminationGracePeriodSeconds"], nlohmann::json(30));
    QCOMPARE(podSpec["containers"][0]["imagePullPolicy"], nlohmann::json("IfNotPresent"));
    // SetDefaults_Pod is not a template default.
    QVERIFY(!podSpec.contains("enableServiceLinks"));
    QCOMPARE(deployment.json()["status"], nlohmann::json::object());
}

void TestDeploymentStrategy::testExplicitValuesAreNotDefaulted()
{
    Object deployment = objectFrom(WEB_DEPLOYMENT);
    deployment.mutableJson()["spec"]["replicas"] = 0;
    deployment.mutableJson()["spec"]["strategy"] = {{"type", "Recreate"}};
    DeploymentStrategy().prepareForCreate(deployment);
    QCOMPARE(deployment.json()["spec"]["replicas"], nlohmann::json(0));
    QCOMPARE(deployment.json()["spec"]["strategy"], nlohmann::json::parse(R"({"type":"Recreate"})"));
    QVERIFY(DeploymentStrategy().validate(deployment).empty());
}

void TestDeploymentStrategy::testValidDeploymentHasNoCauses()
{
    const auto causes = DeploymentStrategy().validate(createdDeployment());
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestDeploymentStrategy::testMissingSelector()
{
    const auto causes = validateSpec(R"({"template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"web","image":"nginx"}]}}})");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.selector", "FieldValueRequired", "Required value");
    // A nil selector selects nothing, so upstream also reports the template labels.
    RVSCOPE_EXPECT_CAUSE(causes, "spec.template.metadata.labels", "FieldValueInvalid",
                         "Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`");
}

void TestDeploymentStrategy::testEmptySelector()
{
    const auto causes = validateSpec(R"({"selector":{"matchLabels":{}},"template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"web","image":"nginx"}]}}})");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.selector", "FieldValueInvalid",
                         "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, "
                         "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment");
    QVERIFY2(!causeOn(causes, "spec.template.metadata.labels"), qPrintable(describe(causes)));
}

void TestDeploymentStrategy::testSelectorMustMatchTemplateLabels()
{
    const auto causes = validateSpec(R"({"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"api","tier":"back"}},
        "spec":{"containers":[{"name":"web","image":"nginx"}]}}})");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.template.metadata.labels", "FieldValueInvalid",
                         "Invalid value: map[string]string{\"app\":\"api\", \"tier\":\"back\"}: "
                         "`selector` does not match template `labels`");
    const auto expressions = validateSpec(R"({"selector":{"matchExpressions":[{"key":"tier","operator":"In","values":["front"]}]},
        "template":{"metadata":{"labels":{"tier":"back"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}})");
    QVERIFY2(causeOn(expressions, "spec.template.metadata.labels"), qPrintable(describe(expressions)));
    const auto bad = validateSpec(R"({"selector":{"matchExpressions":[{"key":"tier","operator":"In"}]},
        "template":{"metadata":{"labels":{"tier":"back"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}})");
    RVSCOPE_EXPECT_CAUSE(bad, "spec.selector.matchExpressions[0].values", "FieldValueRequired",
                         "Required value: must be specified when `operator` is 'In' or 'NotIn'");
}

void TestDeploymentStrategy::testTemplateContainersAreValidated()
{
    const auto causes = validateSpec(R"({"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"image":"nginx"},{"name":"b"},{"name":"b","image":"x"}]}}})");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.template.spec.containers[0].name", "FieldValueRequired", "Required value");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.template.spec.containers[1].image", "FieldValueRequired", "Required value");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.template.spec.containers[2].name", "FieldValueDuplicate", "Duplicate value: \"b\"");
    const auto none = validateSpec(R"({"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}}}})");
    RVSCOPE_EXPECT_CAUSE(none, "spec.template.spec.containers", "FieldValueRequired", "Required value");
}

void TestDeploymentStrategy::testNegativeReplicas()
{
    Object deployment = createdDeployment();
    deployment.mutableJson()["spec"]["replicas"] = -1;
    RVSCOPE_EXPECT_CAUSE(DeploymentStrategy().validate(deployment), "spec.replicas", "FieldValueInvalid",
                         "Invalid value: -1: must be greater than or equal to 0");
}

void TestDeploymentStrategy::testRollingUpdateMayNotBeAllZero()
{
    Object deployment = objectFrom(WEB_DEPLOYMENT);
    deployment.mutableJson()["spec"]["strategy"] = {{"rollingUpdate", {{"maxUnavailable", 0}, {"maxSurge", "0%"}}}};
    DeploymentStrategy().prepareForCreate(deployment);
    RVSCOPE_EXPECT_CAUSE(DeploymentStrategy().validate(deployment), "spec.strategy.rollingUpdate.maxUnavailable",
                         "FieldValueInvalid",
                         "Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0");
    deployment.mutableJson()["spec"]["strategy"]["rollingUpdate"]["maxSurge"] = "a lot";
    RVSCOPE_EXPECT_CAUSE(DeploymentStrategy().validate(deployment), "spec.strategy.rollingUpdate.maxSurge",
                         "FieldValueInvalid",
                         "Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"a lot\"}: a valid percent string "
                         "must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
                         "validation is '[0-9]+%')");
}

void TestDeploymentStrategy::testTemplateRestartPolicyMustBeAlways()
{
    Object deployment = objectFrom(WEB_DEPLOYMENT);
    deployment.mutableJson()["spec"]["template"]["spec"]["restartPolicy"] = "Never";
    DeploymentStrategy().prepareForCreate(deployment);
    RVSCOPE_EXPECT_CAUSE(DeploymentStrategy().validate(deployment), "spec.template.spec.restartPolicy",
                         "FieldValueNotSupported", "Unsupported value: \"Never\": supported values: \"Always\"");
}

void TestDeploymentStrategy::testGenerationRules()
{
    const DeploymentStrategy strategy;
    const Object old = createdDeployment();
    Object scaled = old;
    scaled.mutableJson()["spec"]["replicas"] = 3;
    QVERIFY(strategy.generationChanged(scaled, old));
    Object annotated = old;
    annotated.setAnnotations({{"kubernetes.io/change-cause", "x"}});
    QVERIFY(strategy.generationChanged(annotated, old));
    Object labelled = old;
    labelled.setLabels({{"team", "b"}});
    QVERIFY(!strategy.generationChanged(labelled, old));
    Object statusOnly = old;
    statusOnly.mutableJson()["status"] = {{"replicas", 3}};
    QVERIFY(!strategy.generationChanged(statusOnly, old));
    // A PUT of the original manifest re-applies the defaults: no spec change.
    Object replaced = objectFrom(WEB_DEPLOYMENT);
    strategy.prepareForUpdate(replaced, old);
    QVERIFY(!strategy.generationChanged(replaced, old));
}

void TestDeploymentStrategy::testUpdateKeepsStatus()
{
    Object old = createdDeployment();
    old.mutableJson()["status"] = {{"replicas", 1}, {"observedGeneration", 1}};
    Object updated = objectFrom(WEB_DEPLOYMENT);
    rvscope::testing::stampIdentity(updated); // the Store carries uid and creationTimestamp over
    DeploymentStrategy().prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["status"], old.json()["status"]);
    QVERIFY(DeploymentStrategy().validateUpdate(updated, old).empty());
}

void TestDeploymentStrategy::testSelectorIsImmutable()
{
    const Object old = createdDeployment();
    Object updated = old;
    updated.mutableJson()["spec"]["selector"]["matchLabels"]["app"] = "api";
    updated.mutableJson()["spec"]["template"]["metadata"]["labels"]["app"] = "api";
    DeploymentStrategy().prepareForUpdate(updated, old);
    const auto causes = DeploymentStrategy().validateUpdate(updated, old);
    RVSCOPE_EXPECT_CAUSE(causes, "spec.selector", "FieldValueInvalid",
                         "Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"api\"}, "
                         "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
    QCOMPARE(causes.size(), std::size_t(1));
}

void TestDeploymentStrategy::testStatusStrategyKeepsSpecAndLabels()
{
    const Object old = createdDeployment();
    Object updated = old;
    updated.mutableJson()["spec"]["replicas"] = 9;
    updated.setLabels({{"team", "z"}});
    updated.setAnnotations({{"note", "status writers may annotate"}});
    updated.mutableJson()["status"] = {{"replicas", 1}, {"readyReplicas", 1}};
    const DeploymentStatusStrategy strategy;
    strategy.prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["spec"], old.json()["spec"]);
    QCOMPARE(updated.labels(), old.labels());
    QCOMPARE(updated.annotations().at("note"), std::string("status writers may annotate"));
    QCOMPARE(updated.json()["status"]["readyReplicas"], nlohmann::json(1));
    QVERIFY(strategy.hasGeneration());
    QVERIFY(!strategy.generationChanged(updated, old));
    QVERIFY(strategy.validateUpdate(updated, old).empty());
}

void TestDeploymentStrategy::testStatusValidation()
{
    const Object old = createdDeployment();
    Object updated = old;
    updated.mutableJson()["status"] = {{"replicas", 1}, {"readyReplicas", 2}, {"availableReplicas", -1}};
    const auto causes = DeploymentStatusStrategy().validateUpdate(updated, old);
    RVSCOPE_EXPECT_CAUSE(causes, "status.readyReplicas", "FieldValueInvalid",
                         "Invalid value: 2: cannot be greater than status.replicas");
    RVSCOPE_EXPECT_CAUSE(causes, "status.availableReplicas", "FieldValueInvalid",
                         "Invalid value: -1: must be greater than or equal to 0");
}

void TestDeploymentStrategy::testScaleFromDeployment()
{
    Object deployment = createdDeployment();
    deployment.setResourceVersion("42");
    deployment.mutableJson()["spec"]["replicas"] = 3;
    deployment.mutableJson()["status"] = {{"replicas", 2}};
    auto scale = rvscope::registry::scaleOf(deployment);
    QVERIFY(scale);
    QCOMPARE(scale->json(), nlohmann::json::parse(R"({"kind":"Scale","apiVersion":"autoscaling/v1",
        "metadata":{"name":"web","namespace":"default","uid":"uid-1","resourceVersion":"42",
                    "creationTimestamp":"2026-11-21T10:00:00Z"},
        "spec":{"replicas":3},"status":{"replicas":2,"selector":"app=web"}})"));

    Object idle = createdDeployment();
    idle.mutableJson()["spec"]["replicas"] = 0;
    auto idleScale = rvscope::registry::scaleOf(idle);
    QVERIFY(idleScale);
    QCOMPARE(idleScale->json()["spec"], nlohmann::json::object()); // autoscaling/v1 omits 0
    QCOMPARE(idleScale->json()["status"]["replicas"], nlohmann::json(0));
}

void TestDeploymentStrategy::testScaleSelectorWithExpressions()
{
    Object deployment = createdDeployment();
    deployment.mutableJson()["spec"]["selector"] = nlohmann::json::parse(
        R"({"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["b","a"]},
           {"key":"canary","operator":"DoesNotExist"}]})");
    auto scale = rvscope::registry::scaleOf(deployment);
    QVERIFY(scale);
    // Requirements sorted by key, In values sorted, as labels.Selector.String() prints them.
    QCOMPARE(scale->json()["status"]["selector"].dump(), std::string("\"app=web,!canary,tier in (a,b)\""));
}

void TestDeploymentStrategy::testScaleRoundTrip()
{
    Object deployment = createdDeployment();
    deployment.setResourceVersion("42");
    Object scale = rvscope::registry::scaleOf(deployment).value();
    scale.mutableJson()["spec"]["replicas"] = 5;
    auto applied = rvscope::registry::applyScale(scale, deployment);
    QVERIFY(applied);
    QCOMPARE(applied->json()["spec"]["replicas"], nlohmann::json(5));
    QCOMPARE(applied->resourceVersion(), std::string("42"));
    QCOMPARE(rvscope::registry::scaleOf(*applied)->json()["spec"]["replicas"], nlohmann::json(5));
    // The Scale's resourceVersion is the precondition: a stale or absent one is carried over.
    scale.setResourceVersion("7");
    QCOMPARE(rvscope::registry::applyScale(scale, deployment)->resourceVersion(), std::string("7"));
    scale.setResourceVersion("");
    QCOMPARE(rvscope::registry::applyScale(scale, deployment)->resourceVersion(), std::string());
    // Everything but spec.replicas is the deployment's.
    QCOMPARE(applied->json()["spec"]["template"], deployment.json()["spec"]["template"]);
}

void TestDeploymentStrategy::testScaleRejectsNegativeReplicas()
{
    const Object deployment = createdDeployment();
    Object scale = rvscope::registry::scaleOf(deployment).value();
    scale.mutableJson()["spec"]["replicas"] = -1;
    auto applied = rvscope::registry::applyScale(scale, deployment);
    QVERIFY(!applied);
    QCOMPARE(applied.error().code, 422);
    QCOMPARE(applied.error().message,
             std::string("Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than "
                         "or equal to 0"));
    QCOMPARE(applied.error().details.kind, std::string("Scale"));
    QCOMPARE(applied.error().details.group, std::string("autoscaling"));
}

QTEST_GUILESS_MAIN(TestDeploymentStrategy)
#include "TestDeploymentStrategy.moc"
