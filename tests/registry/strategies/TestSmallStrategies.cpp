// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StrategyTestSupport.h"
#include "registry/strategies/EventStrategy.h"
#include "registry/strategies/LeaseStrategy.h"
#include "registry/strategies/NodeStatusStrategy.h"
#include "registry/strategies/NodeStrategy.h"
#include "registry/strategies/PersistentVolumeClaimStatusStrategy.h"
#include "registry/strategies/PersistentVolumeClaimStrategy.h"

using rvscope::model::Object;
using rvscope::registry::EventStrategy;
using rvscope::registry::LeaseStrategy;
using rvscope::registry::NodeStatusStrategy;
using rvscope::registry::NodeStrategy;
using rvscope::registry::PersistentVolumeClaimStatusStrategy;
using rvscope::registry::PersistentVolumeClaimStrategy;
using rvscope::testing::causeOn;
using rvscope::testing::describe;
using rvscope::testing::objectFrom;

namespace {
const char *const NODE = R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-1"},
    "spec":{"podCIDR":"10.244.1.0/24"},
    "status":{"capacity":{"cpu":"4","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}})";

const char *const CLAIM = R"({"kind":"PersistentVolumeClaim","apiVersion":"v1",
    "metadata":{"name":"data","namespace":"default"},
    "spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}},
    "status":{"phase":"Bound"}})";

template <typename S>
Object created(const char *json)
{
    Object object = objectFrom(json);
    rvscope::testing::stampIdentity(object);
    S().prepareForCreate(object);
    return object;
}
} // namespace

class TestSmallStrategies final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testNodeIsClusterScopedAndKeepsStatusOnCreate();
    void testNodeUpdateKeepsStatus();
    void testNodeValidation();
    void testNodeSelectableFields();
    void testNodeStatusKeepsSpec();
    void testClaimCreate();
    void testClaimValidation();
    void testClaimUpdateRules();
    void testClaimSelectableFields();
    void testClaimStatusKeepsSpec();
    void testEventSelectableFields();
    void testEventNamespaceMustMatch();
    void testLease();
};

void TestSmallStrategies::testNodeIsClusterScopedAndKeepsStatusOnCreate()
{
    const NodeStrategy strategy;
    QVERIFY(!strategy.namespaced());
    QVERIFY(!strategy.allowCreateOnUpdate());
    const Object node = created<NodeStrategy>(NODE);
    QCOMPARE(node.json()["status"]["conditions"][0]["type"], nlohmann::json("Ready"));
    QCOMPARE(node.json()["status"]["allocatable"], node.json()["status"]["capacity"]);
    QCOMPARE(node.json()["spec"]["podCIDRs"], nlohmann::json::parse(R"(["10.244.1.0/24"])"));
    const auto causes = strategy.validate(node);
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestSmallStrategies::testNodeUpdateKeepsStatus()
{
    const Object old = created<NodeStrategy>(NODE);
    Object updated = old;
    updated.mutableJson()["status"] = {{"phase", "Gone"}};
    updated.mutableJson()["spec"]["unschedulable"] = true;
    NodeStrategy().prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["status"], old.json()["status"]);
    QCOMPARE(updated.json()["spec"]["unschedulable"], nlohmann::json(true));
    QVERIFY(NodeStrategy().validateUpdate(updated, old).empty());
}

void TestSmallStrategies::testNodeValidation()
{
    const Object old = created<NodeStrategy>(NODE);
    Object updated = old;
    updated.mutableJson()["spec"]["podCIDRs"] = nlohmann::json::parse(R"(["10.244.2.0/24"])");
    updated.mutableJson()["spec"]["taints"] = nlohmann::json::parse(R"([{"key":"dedicated","effect":"Sometimes"}])");
    const auto causes = NodeStrategy().validateUpdate(updated, old);
    RVSCOPE_EXPECT_CAUSE(causes, "spec.podCIDRs", "FieldValueForbidden",
                         "Forbidden: node updates may not change podCIDR except from \"\" to valid");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.taints[0].effect", "FieldValueNotSupported",
                         "Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\", "
                         "\"NoExecute\"");
}

void TestSmallStrategies::testNodeSelectableFields()
{
    Object node = created<NodeStrategy>(NODE);
    const auto fields = NodeStrategy().selectableFields(node);
    QCOMPARE(fields.at("metadata.name"), std::string("node-1"));
    QCOMPARE(fields.at("spec.unschedulable"), std::string("false"));
    node.mutableJson()["spec"]["unschedulable"] = true;
    QCOMPARE(NodeStrategy().selectableFields(node).at("spec.unschedulable"), std::string("true"));
    QCOMPARE(NodeStatusStrategy().selectableFields(node).at("spec.unschedulable"), std::string("true"));
}

void TestSmallStrategies::testNodeStatusKeepsSpec()
{
    const Object old = created<NodeStrategy>(NODE);
    Object updated = old;
    updated.mutableJson()["spec"]["unschedulable"] = true;
    updated.mutableJson()["status"]["conditions"][0]["status"] = "False";
    const NodeStatusStrategy strategy;
    QVERIFY(!strategy.namespaced());
    strategy.prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["spec"], old.json()["spec"]);
    QCOMPARE(updated.json()["status"]["conditions"][0]["status"], nlohmann::json("False"));
    QVERIFY(strategy.validateUpdate(updated, old).empty());
}

void TestSmallStrategies::testClaimCreate()
{
    const Object claim = created<PersistentVolumeClaimStrategy>(CLAIM);
    QCOMPARE(claim.json()["status"], nlohmann::json::parse(R"({"phase":"Pending"})"));
    QCOMPARE(claim.json()["spec"]["volumeMode"], nlohmann::json("Filesystem"));
    const auto causes = PersistentVolumeClaimStrategy().validate(claim);
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
    QVERIFY(PersistentVolumeClaimStrategy().namespaced());
}

void TestSmallStrategies::testClaimValidation()
{
    const Object empty = created<PersistentVolumeClaimStrategy>(
        R"({"metadata":{"name":"data","namespace":"default"},"spec":{}})");
    const auto causes = PersistentVolumeClaimStrategy().validate(empty);
    RVSCOPE_EXPECT_CAUSE(causes, "spec.accessModes", "FieldValueRequired",
                         "Required value: at least 1 access mode is required");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.resources[storage]", "FieldValueRequired", "Required value");
    const Object bad = created<PersistentVolumeClaimStrategy>(R"({"metadata":{"name":"data","namespace":"default"},
        "spec":{"accessModes":["ReadWriteSometimes"],"resources":{"requests":{"storage":"0"}}}})");
    const auto badCauses = PersistentVolumeClaimStrategy().validate(bad);
    RVSCOPE_EXPECT_CAUSE(badCauses, "spec.accessModes", "FieldValueNotSupported",
                         "Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", "
                         "\"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"");
    RVSCOPE_EXPECT_CAUSE(badCauses, "spec.resources[storage]", "FieldValueInvalid",
                         "Invalid value: \"0\": must be greater than zero");
}

void TestSmallStrategies::testClaimUpdateRules()
{
    const PersistentVolumeClaimStrategy strategy;
    const Object pending = created<PersistentVolumeClaimStrategy>(CLAIM);
    Object resized = pending;
    resized.mutableJson()["spec"]["resources"]["requests"]["storage"] = "2Gi";
    strategy.prepareForUpdate(resized, pending);
    const auto unbound = strategy.validateUpdate(resized, pending);
    const auto *forbidden = causeOn(unbound, "spec");
    QVERIFY2(forbidden, qPrintable(describe(unbound)));
    QCOMPARE(forbidden->type, std::string("FieldValueForbidden"));
    QVERIFY(forbidden->message.rfind("Forbidden: spec is immutable after creation except resources.requests for bound "
                                     "claims\n",
                                     0)
            == 0);

    Object bound = pending;
    bound.mutableJson()["status"]["phase"] = "Bound";
    Object grown = bound;
    grown.mutableJson()["spec"]["resources"]["requests"]["storage"] = "2Gi";
    grown.mutableJson()["spec"]["volumeName"] = "pv-1"; // the binder may set it once
    strategy.prepareForUpdate(grown, bound);
    const auto grownCauses = strategy.validateUpdate(grown, bound);
    QVERIFY2(grownCauses.empty(), qPrintable(describe(grownCauses)));

    Object shrunk = bound;
    shrunk.mutableJson()["spec"]["resources"]["requests"]["storage"] = "512Mi";
    strategy.prepareForUpdate(shrunk, bound);
    RVSCOPE_EXPECT_CAUSE(strategy.validateUpdate(shrunk, bound), "spec.resources.requests.storage", "FieldValueForbidden",
                         "Forbidden: field can not be less than previous value");

    Object remoded = bound;
    remoded.mutableJson()["spec"]["accessModes"] = nlohmann::json::parse(R"(["ReadWriteMany"])");
    strategy.prepareForUpdate(remoded, bound);
    QVERIFY(causeOn(strategy.validateUpdate(remoded, bound), "spec"));
}

void TestSmallStrategies::testClaimSelectableFields()
{
    const Object claim = created<PersistentVolumeClaimStrategy>(CLAIM);
    const std::map<std::string, std::string> expected = {
        {"metadata.name", "data"}, {"metadata.namespace", "default"}, {"name", "data"}};
    QCOMPARE(PersistentVolumeClaimStrategy().selectableFields(claim), expected);
}

void TestSmallStrategies::testClaimStatusKeepsSpec()
{
    const Object old = created<PersistentVolumeClaimStrategy>(CLAIM);
    Object updated = old;
    updated.mutableJson()["spec"]["resources"]["requests"]["storage"] = "5Gi";
    updated.mutableJson()["status"] = {{"phase", "Bound"}, {"capacity", {{"storage", "1Gi"}}}};
    const PersistentVolumeClaimStatusStrategy strategy;
    strategy.prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["spec"], old.json()["spec"]);
    QCOMPARE(updated.json()["status"]["phase"], nlohmann::json("Bound"));
    QVERIFY(strategy.validateUpdate(updated, old).empty());
    QCOMPARE(strategy.selectableFields(updated).at("name"), std::string("data"));
}

void TestSmallStrategies::testEventSelectableFields()
{
    const Object event = created<EventStrategy>(R"({"kind":"Event","apiVersion":"v1",
        "metadata":{"name":"web.1","namespace":"default"},
        "involvedObject":{"kind":"Pod","namespace":"default","name":"web","uid":"u-9","apiVersion":"v1",
                          "resourceVersion":"12","fieldPath":"spec.containers{web}"},
        "reason":"Pulled","type":"Normal","reportingComponent":"kubelet","source":{"component":"kubelet-x"}})");
    const std::map<std::string, std::string> expected = {
        {"metadata.name", "web.1"},
        {"metadata.namespace", "default"},
        {"involvedObject.kind", "Pod"},
        {"involvedObject.namespace", "default"},
        {"involvedObject.name", "web"},
        {"involvedObject.uid", "u-9"},
        {"involvedObject.apiVersion", "v1"},
        {"involvedObject.resourceVersion", "12"},
        {"involvedObject.fieldPath", "spec.containers{web}"},
        {"reason", "Pulled"},
        {"reportingComponent", "kubelet"},
        {"source", "kubelet-x"},
        {"type", "Normal"}};
    QCOMPARE(EventStrategy().selectableFields(event), expected);
    QCOMPARE(EventStrategy().extraFieldLabels().size(), std::size_t(11));
    QVERIFY(EventStrategy().validate(event).empty());

    Object withoutSource = event;
    withoutSource.mutableJson().erase("source");
    QCOMPARE(EventStrategy().selectableFields(withoutSource).at("source"), std::string("kubelet"));
    QVERIFY(EventStrategy().allowCreateOnUpdate());
}

void TestSmallStrategies::testEventNamespaceMustMatch()
{
    const Object event = created<EventStrategy>(R"({"metadata":{"name":"e","namespace":"default"},
        "involvedObject":{"kind":"Pod","namespace":"other","name":"web"}})");
    RVSCOPE_EXPECT_CAUSE(EventStrategy().validate(event), "involvedObject.namespace", "FieldValueInvalid",
                         "Invalid value: \"other\": does not match event.namespace");
    // Events about cluster-scoped objects live in "default".
    const Object nodeEvent = created<EventStrategy>(R"({"metadata":{"name":"e","namespace":"default"},
        "involvedObject":{"kind":"Node","name":"node-1"}})");
    QVERIFY(EventStrategy().validate(nodeEvent).empty());
}

void TestSmallStrategies::testLease()
{
    const LeaseStrategy strategy;
    QVERIFY(strategy.namespaced());
    QVERIFY(strategy.allowCreateOnUpdate());
    QVERIFY(!strategy.allowUnconditionalUpdate());
    const Object good = created<LeaseStrategy>(R"({"metadata":{"name":"leader","namespace":"kube-system"},
        "spec":{"holderIdentity":"a","leaseDurationSeconds":15}})");
    QVERIFY(strategy.validate(good).empty());
    const Object zero = created<LeaseStrategy>(R"({"metadata":{"name":"leader","namespace":"kube-system"},
        "spec":{"leaseDurationSeconds":0,"leaseTransitions":-1}})");
    const auto causes = strategy.validate(zero);
    RVSCOPE_EXPECT_CAUSE(causes, "spec.leaseDurationSeconds", "FieldValueInvalid",
                         "Invalid value: 0: must be greater than 0");
    RVSCOPE_EXPECT_CAUSE(causes, "spec.leaseTransitions", "FieldValueInvalid",
                         "Invalid value: -1: must be greater than or equal to 0");
    const Object unset = created<LeaseStrategy>(R"({"metadata":{"name":"leader","namespace":"kube-system"},"spec":{}})");
    QVERIFY(strategy.validate(unset).empty());
}

QTEST_GUILESS_MAIN(TestSmallStrategies)
#include "TestSmallStrategies.moc"
