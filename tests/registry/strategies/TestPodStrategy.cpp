// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StrategyTestSupport.h"
#include "registry/strategies/PodSpecValidation.h"
#include "registry/strategies/PodStatusStrategy.h"
#include "registry/strategies/PodStrategy.h"

using rvscope::model::Object;
using rvscope::registry::PodStatusStrategy;
using rvscope::registry::PodStrategy;
using rvscope::testing::causeOn;
using rvscope::testing::describe;
using rvscope::testing::objectFrom;

namespace {
const char *const WEB_POD = R"({"kind":"Pod","apiVersion":"v1",
    "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
    "spec":{"containers":[{"name":"web","image":"nginx:1.25"}]}})";

Object createdPod(const char *json = WEB_POD)
{
    Object pod = objectFrom(json);
    rvscope::testing::stampIdentity(pod);
    PodStrategy().prepareForCreate(pod);
    return pod;
}
} // namespace

class TestPodStrategy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testTypeProperties();
    void testCreateAppliesDefaultsAndPendingStatus();
    void testImagePullPolicyDefault_data();
    void testImagePullPolicyDefault();
    void testQosClass_data();
    void testQosClass();
    void testValidPodHasNoCauses();
    void testValidationErrors_data();
    void testValidationErrors();
    void testUpdateKeepsStatusAndReappliesDefaults();
    void testUpdateMayChangeImagesAndLabels();
    void testUpdateRejectsOtherSpecChanges();
    void testUpdateRejectsAddedContainer();
    void testActiveDeadlineSecondsMayOnlyDecrease();
    void testTolerationsMayOnlyBeAdded();
    void testSelectableFields();
    void testStatusStrategyKeepsSpec();
    void testStatusStrategyValidatesStatus();
};

void TestPodStrategy::testTypeProperties()
{
    const PodStrategy strategy;
    QVERIFY(strategy.namespaced());
    QVERIFY(strategy.returnDeletedObject());
    QVERIFY(!strategy.hasGeneration());
    QVERIFY(!strategy.allowCreateOnUpdate());
    QVERIFY(strategy.allowUnconditionalUpdate());
    QCOMPARE(strategy.extraFieldLabels().size(), std::size_t(8));
}

void TestPodStrategy::testCreateAppliesDefaultsAndPendingStatus()
{
    const Object pod = createdPod(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"containers":[{"name":"web","image":"nginx","ports":[{"containerPort":80}]}]},
        "status":{"phase":"Running","podIP":"10.0.0.1"}})");
    const nlohmann::json &spec = pod.json()["spec"];
    QCOMPARE(spec["restartPolicy"], nlohmann::json("Always"));
    QCOMPARE(spec["dnsPolicy"], nlohmann::json("ClusterFirst"));
    QCOMPARE(spec["schedulerName"], nlohmann::json("default-scheduler"));
    QCOMPARE(spec["terminationGracePeriodSeconds"], nlohmann::json(30));
    QCOMPARE(spec["enableServiceLinks"], nlohmann::json(true));
    QCOMPARE(spec["securityContext"], nlohmann::json::object());
    const nlohmann::json &container = spec["containers"][0];
    QCOMPARE(container["imagePullPolicy"], nlohmann::json("Always"));
    QCOMPARE(container["terminationMessagePath"], nlohmann::json("/dev/termination-log"));
    QCOMPARE(container["terminationMessagePolicy"], nlohmann::json("File"));
    QCOMPARE(container["resources"], nlohmann::json::object());
    QCOMPARE(container["ports"][0]["protocol"], nlohmann::json("TCP"));
    // The client's status is dropped: a new pod is Pending, with its QoS class computed.
    QCOMPARE(pod.json()["status"], nlohmann::json::parse(R"({"phase":"Pending","qosClass":"BestEffort"})"));
    QVERIFY(!pod.generation());
}

void TestPodStrategy::testImagePullPolicyDefault_data()
{
    QTest::addColumn<QString>("image");
    QTest::addColumn<QString>("policy");
    QTest::newRow("no tag") << "nginx" << "Always";
    QTest::newRow("latest") << "nginx:latest" << "Always";
    QTest::newRow("tag") << "nginx:1.25" << "IfNotPresent";
    QTest::newRow("registry port, no tag") << "localhost:5000/app" << "Always";
    QTest::newRow("registry port and tag") << "localhost:5000/app:v2" << "IfNotPresent";
    QTest::newRow("digest") << "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
                            << "IfNotPresent";
}

void TestPodStrategy::testImagePullPolicyDefault()
{
    QFETCH(QString, image);
    QFETCH(QString, policy);
    Object pod = objectFrom(WEB_POD);
    pod.mutableJson()["spec"]["containers"][0]["image"] = image.toStdString();
    PodStrategy().prepareForCreate(pod);
    QCOMPARE(pod.json()["spec"]["containers"][0]["imagePullPolicy"], nlohmann::json(policy.toStdString()));
}

void TestPodStrategy::testQosClass_data()
{
    QTest::addColumn<QString>("resources");
    QTest::addColumn<QString>("qos");
    QTest::newRow("none") << "{}" << "BestEffort";
    QTest::newRow("requests only") << R"({"requests":{"cpu":"100m"}})" << "Burstable";
    QTest::newRow("limits equal requests") << R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1000m","memory":"1024Mi"}})"
                                           << "Guaranteed";
    // Requests default to limits, so limits alone are Guaranteed.
    QTest::newRow("limits only") << R"({"limits":{"cpu":"500m","memory":"256Mi"}})" << "Guaranteed";
    QTest::newRow("requests below limits") << R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1Gi"}})"
                                           << "Burstable";
}

void TestPodStrategy::testQosClass()
{
    QFETCH(QString, resources);
    QFETCH(QString, qos);
    Object pod = objectFrom(WEB_POD);
    pod.mutableJson()["spec"]["containers"][0]["resources"] = nlohmann::json::parse(resources.toStdString());
    PodStrategy().prepareForCreate(pod);
    QCOMPARE(pod.json()["status"]["qosClass"], nlohmann::json(qos.toStdString()));
}

void TestPodStrategy::testValidPodHasNoCauses()
{
    const auto causes = PodStrategy().validate(createdPod());
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestPodStrategy::testValidationErrors_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("message");
    QTest::newRow("no spec") << "null" << "spec.containers" << "FieldValueRequired" << "Required value";
    QTest::newRow("no containers") << R"({"containers":[]})" << "spec.containers" << "FieldValueRequired"
                                   << "Required value";
    QTest::newRow("unnamed") << R"({"containers":[{"image":"nginx"}]})" << "spec.containers[0].name"
                             << "FieldValueRequired" << "Required value";
    QTest::newRow("bad name") << R"({"containers":[{"name":"Web_1","image":"nginx"}]})" << "spec.containers[0].name"
                              << "FieldValueInvalid"
                              << "Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of lower case "
                                 "alphanumeric characters or '-', and must start and end with an alphanumeric "
                                 "character (e.g. 'my-name',  or '123-abc', regex used for validation is "
                                 "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    QTest::newRow("no image") << R"({"containers":[{"name":"web"}]})" << "spec.containers[0].image"
                              << "FieldValueRequired" << "Required value";
    QTest::newRow("duplicate") << R"({"containers":[{"name":"a","image":"x"},{"name":"a","image":"y"}]})"
                               << "spec.containers[1].name" << "FieldValueDuplicate" << "Duplicate value: \"a\"";
    QTest::newRow("init duplicates regular")
        << R"({"containers":[{"name":"a","image":"x"}],"initContainers":[{"name":"a","image":"y"}]})"
        << "spec.initContainers[0].name" << "FieldValueDuplicate" << "Duplicate value: \"a\"";
    QTest::newRow("restart policy") << R"({"restartPolicy":"Sometimes","containers":[{"name":"a","image":"x"}]})"
                                    << "spec.restartPolicy" << "FieldValueNotSupported"
                                    << "Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"";
    QTest::newRow("container port") << R"({"containers":[{"name":"a","image":"x","ports":[{"containerPort":70000}]}]})"
                                    << "spec.containers[0].ports[0].containerPort" << "FieldValueInvalid"
                                    << "Invalid value: 70000: must be between 1 and 65535, inclusive";
    QTest::newRow("deadline") << R"({"activeDeadlineSeconds":0,"containers":[{"name":"a","image":"x"}]})"
                              << "spec.activeDeadlineSeconds" << "FieldValueInvalid"
                              << "Invalid value: 0: must be between 1 and 2147483647, inclusive";
    QTest::newRow("containers not a list") << R"({"containers":{"name":"a"}})" << "spec.containers"
                                           << "FieldValueTypeInvalid"
                                           << "Invalid value: {\"name\":\"a\"}: must be an array";
}

void TestPodStrategy::testValidationErrors()
{
    QFETCH(QString, spec);
    QFETCH(QString, field);
    QFETCH(QString, type);
    QFETCH(QString, message);
    Object pod = objectFrom(R"({"metadata":{"name":"web","namespace":"default"}})");
    pod.mutableJson()["spec"] = nlohmann::json::parse(spec.toStdString());
    PodStrategy().prepareForCreate(pod);
    const auto causes = PodStrategy().validate(pod);
    RVSCOPE_EXPECT_CAUSE(causes, field.toStdString(), type.toStdString(), message.toStdString());
}

void TestPodStrategy::testUpdateKeepsStatusAndReappliesDefaults()
{
    Object old = createdPod();
    old.mutableJson()["status"] = {{"phase", "Running"}, {"qosClass", "BestEffort"}, {"podIP", "10.1.2.3"}};
    // A PUT of the original manifest: no defaults, a made-up status.
    Object updated = objectFrom(WEB_POD);
    updated.mutableJson()["status"] = {{"phase", "Failed"}};
    rvscope::testing::stampIdentity(updated);
    PodStrategy().prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["status"], old.json()["status"]);
    QCOMPARE(updated.json()["spec"], old.json()["spec"]);
    const auto causes = PodStrategy().validateUpdate(updated, old);
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestPodStrategy::testUpdateMayChangeImagesAndLabels()
{
    const Object old = createdPod();
    Object updated = old;
    updated.mutableJson()["spec"]["containers"][0]["image"] = "nginx:1.27";
    updated.setLabels({{"app", "web"}, {"track", "canary"}});
    PodStrategy().prepareForUpdate(updated, old);
    const auto causes = PodStrategy().validateUpdate(updated, old);
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestPodStrategy::testUpdateRejectsOtherSpecChanges()
{
    const Object old = createdPod();
    Object updated = old;
    updated.mutableJson()["spec"]["restartPolicy"] = "Never";
    PodStrategy().prepareForUpdate(updated, old);
    const auto causes = PodStrategy().validateUpdate(updated, old);
    const auto *cause = causeOn(causes, "spec");
    QVERIFY2(cause, qPrintable(describe(causes)));
    QCOMPARE(cause->type, std::string("FieldValueForbidden"));
    const std::string expected = std::string("Forbidden: pod updates may not change fields other than "
                                             "`spec.containers[*].image`,`spec.initContainers[*].image`,"
                                             "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to "
                                             "existing tolerations),`spec.terminationGracePeriodSeconds` (allow it "
                                             "to be set to 1 if it was previously negative)\n");
    QCOMPARE(cause->message.substr(0, expected.size()), expected);
    QVERIFY(cause->message.find("RestartPolicy: \"Never\"") != std::string::npos);
    QVERIFY(cause->message.find("RestartPolicy: \"Always\"") != std::string::npos);
}

void TestPodStrategy::testUpdateRejectsAddedContainer()
{
    const Object old = createdPod();
    Object updated = old;
    updated.mutableJson()["spec"]["containers"].push_back({{"name", "side"}, {"image", "busybox"}});
    PodStrategy().prepareForUpdate(updated, old);
    const auto causes = PodStrategy().validateUpdate(updated, old);
    RVSCOPE_EXPECT_CAUSE(causes, "spec.containers", "FieldValueForbidden",
                         "Forbidden: pod updates may not add or remove containers");
    QVERIFY2(!causeOn(causes, "spec"), qPrintable(describe(causes)));
}

void TestPodStrategy::testActiveDeadlineSecondsMayOnlyDecrease()
{
    Object old = createdPod();
    old.mutableJson()["spec"]["activeDeadlineSeconds"] = 100;
    Object lower = old;
    lower.mutableJson()["spec"]["activeDeadlineSeconds"] = 50;
    QVERIFY(PodStrategy().validateUpdate(lower, old).empty());
    Object higher = old;
    higher.mutableJson()["spec"]["activeDeadlineSeconds"] = 200;
    RVSCOPE_EXPECT_CAUSE(PodStrategy().validateUpdate(higher, old), "spec.activeDeadlineSeconds", "FieldValueInvalid",
                         "Invalid value: 200: must be less than or equal to previous value");
    Object removed = old;
    removed.mutableJson()["spec"].erase("activeDeadlineSeconds");
    RVSCOPE_EXPECT_CAUSE(PodStrategy().validateUpdate(removed, old), "spec.activeDeadlineSeconds", "FieldValueInvalid",
                         "Invalid value: \"null\": must not update from a positive integer to nil value");
}

void TestPodStrategy::testTolerationsMayOnlyBeAdded()
{
    Object old = createdPod();
    old.mutableJson()["spec"]["tolerations"] = nlohmann::json::parse(R"([{"key":"a","operator":"Exists"}])");
    Object added = old;
    added.mutableJson()["spec"]["tolerations"].push_back({{"key", "b"}, {"operator", "Exists"}});
    const auto addedCauses = PodStrategy().validateUpdate(added, old);
    QVERIFY2(addedCauses.empty(), qPrintable(describe(addedCauses)));
    Object removed = old;
    removed.mutableJson()["spec"]["tolerations"] = nlohmann::json::array();
    RVSCOPE_EXPECT_CAUSE(PodStrategy().validateUpdate(removed, old), "spec.tolerations", "FieldValueForbidden",
                         "Forbidden: existing toleration can not be modified except its tolerationSeconds");
}

void TestPodStrategy::testSelectableFields()
{
    const auto fresh = PodStrategy().selectableFields(createdPod());
    const std::map<std::string, std::string> expected = {
        {"metadata.name", "web"},         {"metadata.namespace", "default"},
        {"spec.nodeName", ""},            {"spec.restartPolicy", "Always"},
        {"spec.schedulerName", "default-scheduler"}, {"spec.serviceAccountName", ""},
        {"spec.hostNetwork", "false"},    {"status.phase", "Pending"},
        {"status.podIP", ""},             {"status.nominatedNodeName", ""}};
    QCOMPARE(fresh, expected);

    Object running = createdPod();
    running.mutableJson()["spec"]["nodeName"] = "node-1";
    running.mutableJson()["spec"]["hostNetwork"] = true;
    running.mutableJson()["status"] = nlohmann::json::parse(
        R"({"phase":"Running","podIP":"10.0.0.9","podIPs":[{"ip":"10.0.0.7"}],"nominatedNodeName":"node-2"})");
    const auto fields = PodStrategy().selectableFields(running);
    QCOMPARE(fields.at("spec.nodeName"), std::string("node-1"));
    QCOMPARE(fields.at("spec.hostNetwork"), std::string("true"));
    QCOMPARE(fields.at("status.phase"), std::string("Running"));
    QCOMPARE(fields.at("status.podIP"), std::string("10.0.0.7"));
    QCOMPARE(fields.at("status.nominatedNodeName"), std::string("node-2"));
    for (const std::string &label : PodStrategy().extraFieldLabels())
        QVERIFY(fields.count(label));
}

void TestPodStrategy::testStatusStrategyKeepsSpec()
{
    Object old = createdPod();
    old.mutableJson()["metadata"]["ownerReferences"] = nlohmann::json::parse(R"([{"uid":"rs-1","name":"rs"}])");
    Object updated = old;
    updated.mutableJson()["spec"]["containers"][0]["image"] = "evil";
    updated.mutableJson()["metadata"].erase("ownerReferences");
    updated.setLabels({{"app", "web"}, {"ready", "yes"}});
    updated.mutableJson()["status"] = {{"phase", "Running"}, {"podIP", "10.0.0.5"}};
    const PodStatusStrategy strategy;
    strategy.prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["spec"], old.json()["spec"]);
    QCOMPARE(updated.json()["metadata"]["ownerReferences"], old.json()["metadata"]["ownerReferences"]);
    QCOMPARE(updated.labels().at("ready"), std::string("yes"));
    QCOMPARE(updated.json()["status"]["phase"], nlohmann::json("Running"));
    // The QoS class the client left out is taken from the stored pod.
    QCOMPARE(updated.json()["status"]["qosClass"], nlohmann::json("BestEffort"));
    const auto causes = strategy.validateUpdate(updated, old);
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
    QVERIFY(strategy.namespaced());
    QCOMPARE(strategy.selectableFields(updated).at("status.podIP"), std::string("10.0.0.5"));
}

void TestPodStrategy::testStatusStrategyValidatesStatus()
{
    const Object old = createdPod();
    Object updated = old;
    updated.mutableJson()["status"]["qosClass"] = "Guaranteed";
    updated.mutableJson()["status"]["nominatedNodeName"] = "Bad_Node";
    const PodStatusStrategy strategy;
    strategy.prepareForUpdate(updated, old);
    const auto causes = strategy.validateUpdate(updated, old);
    RVSCOPE_EXPECT_CAUSE(causes, "status.qosClass", "FieldValueInvalid", "Invalid value: \"Guaranteed\": field is immutable");
    QVERIFY2(causeOn(causes, "status.nominatedNodeName"), qPrintable(describe(causes)));
}

QTEST_GUILESS_MAIN(TestPodStrategy)
#include "TestPodStrategy.moc"
