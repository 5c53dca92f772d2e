// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "StrategyTestSupport.h"
#include "registry/strategies/ServiceStrategy.h"

using rvscope::model::Object;
using rvscope::registry::ServiceStrategy;
using rvscope::registry::Strategy;
using rvscope::testing::causeOn;
using rvscope::testing::describe;
using rvscope::testing::objectFrom;

namespace {
const char *const WEB_SERVICE = R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"web","namespace":"default"},
    "spec":{"selector":{"app":"web"},"ports":[{"port":80}]}})";

Object createdService(const char *json = WEB_SERVICE, const std::string &uid = "uid-1")
{
    Object service = objectFrom(json);
    rvscope::testing::stampIdentity(service, uid);
    ServiceStrategy().prepareForCreate(service);
    return service;
}

std::vector<rvscope::model::StatusCause> validateSpec(const char *spec)
{
    Object service = objectFrom(R"({"metadata":{"name":"web","namespace":"default"}})");
    service.mutableJson()["spec"] = nlohmann::json::parse(spec);
    rvscope::testing::stampIdentity(service);
    ServiceStrategy().prepareForCreate(service);
    return ServiceStrategy().validate(service);
}
} // namespace

class TestServiceStrategy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testTypeProperties();
    void testCreateAppliesDefaultsAndAllocatesClusterIP();
    void testClusterIPsDifferPerService();
    void testClientChosenAndHeadlessClusterIPsAreKept();
    void testNodePortsAreAllocated();
    void testValidServiceHasNoCauses();
    void testValidationErrors_data();
    void testValidationErrors();
    void testUpdateCarriesAllocatedValuesOver();
    void testClusterIPIsImmutable();
    void testSelectableFields();
};

void TestServiceStrategy::testTypeProperties()
{
    const ServiceStrategy strategy;
    QVERIFY(strategy.namespaced());
    QVERIFY(strategy.allowCreateOnUpdate());
    QVERIFY(strategy.allowUnconditionalUpdate());
    QVERIFY(strategy.nameRule() == Strategy::NameRule::Dns1035Label);
    Object badName = createdService();
    badName.setName("1web");
    QVERIFY2(causeOn(strategy.validate(badName), "metadata.name"), qPrintable(describe(strategy.validate(badName))));
}

void TestServiceStrategy::testCreateAppliesDefaultsAndAllocatesClusterIP()
{
    const Object service = createdService(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"ports":[{"port":80},{"name":"https","port":443,"targetPort":"tls"}]},"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}})");
    const nlohmann::json &spec = service.json()["spec"];
    QCOMPARE(spec["type"], nlohmann::json("ClusterIP"));
    QCOMPARE(spec["sessionAffinity"], nlohmann::json("None"));
    QCOMPARE(spec["internalTrafficPolicy"], nlohmann::json("Cluster"));
    QVERIFY(!spec.contains("externalTrafficPolicy"));
    QCOMPARE(spec["ports"][0]["protocol"], nlohmann::json("TCP"));
    QCOMPARE(spec["ports"][0]["targetPort"], nlohmann::json(80));
    QCOMPARE(spec["ports"][1]["targetPort"], nlohmann::json("tls"));
    QVERIFY(!spec["ports"][0].contains("nodePort"));
    const std::string ip = spec["clusterIP"].get<std::string>();
    QVERIFY2(ip.rfind("10.", 0) == 0, ip.c_str());
    const int second = std::stoi(ip.substr(3, ip.find('.', 3) - 3));
    QVERIFY(second >= 96 && second <= 111); // 10.96.0.0/12
    QCOMPARE(spec["clusterIPs"], nlohmann::json::array({ip}));
    QCOMPARE(spec["ipFamilies"], nlohmann::json::parse(R"(["IPv4"])"));
    QCOMPARE(spec["ipFamilyPolicy"], nlohmann::json("SingleStack"));
    QCOMPARE(service.json()["status"], nlohmann::json::parse(R"({"loadBalancer":{}})"));
}

void TestServiceStrategy::testClusterIPsDifferPerService()
{
    const auto ipOf = [](const std::string &uid) {
        return createdService(WEB_SERVICE, uid).json()["spec"]["clusterIP"].get<std::string>();
    };
    QCOMPARE(ipOf("uid-1"), ipOf("uid-1"));
    QVERIFY(ipOf("uid-1") != ipOf("uid-2"));
}

void TestServiceStrategy::testClientChosenAndHeadlessClusterIPsAreKept()
{
    const Object chosen = createdService(R"({"metadata":{"name":"dns","namespace":"kube-system"},
        "spec":{"clusterIP":"10.96.0.10","ports":[{"port":53,"protocol":"UDP"}]}})");
    QCOMPARE(chosen.json()["spec"]["clusterIPs"], nlohmann::json::parse(R"(["10.96.0.10"])"));
    const Object headless = createdService(R"({"metadata":{"name":"db","namespace":"default"},
        "spec":{"clusterIP":"None","selector":{"app":"db"}}})");
    QCOMPARE(headless.json()["spec"]["clusterIP"], nlohmann::json("None"));
    const auto causes = ServiceStrategy().validate(headless);
    QVERIFY2(causes.empty(), qPrintable(describe(causes))); // headless services need no ports
    const Object external = createdService(R"({"metadata":{"name":"ext","namespace":"default"},
        "spec":{"type":"ExternalName","externalName":"example.com"}})");
    QVERIFY(!external.json()["spec"].contains("clusterIP"));
    QVERIFY(ServiceStrategy().validate(external).empty());
}

void TestServiceStrategy::testNodePortsAreAllocated()
{
    const Object service = createdService(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"type":"NodePort","ports":[{"name":"a","port":80},{"name":"b","port":81,"nodePort":30080}]}})");
    const nlohmann::json &spec = service.json()["spec"];
    const int nodePort = spec["ports"][0]["nodePort"].get<int>();
    QVERIFY(nodePort >= 30000 && nodePort <= 32767);
    QCOMPARE(spec["ports"][1]["nodePort"], nlohmann::json(30080));
    QCOMPARE(spec["externalTrafficPolicy"], nlohmann::json("Cluster"));
    QVERIFY(ServiceStrategy().validate(service).empty());
    const Object balancer = createdService(R"({"metadata":{"name":"lb","namespace":"default"},
        "spec":{"type":"LoadBalancer","ports":[{"port":80}]}})");
    QCOMPARE(balancer.json()["spec"]["allocateLoadBalancerNodePorts"], nlohmann::json(true));
}

void TestServiceStrategy::testValidServiceHasNoCauses()
{
    const auto causes = ServiceStrategy().validate(createdService());
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestServiceStrategy::testValidationErrors_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("message");
    QTest::newRow("no ports") << "{}" << "spec.ports" << "FieldValueRequired" << "Required value";
    QTest::newRow("port zero") << R"({"ports":[{"port":0}]})" << "spec.ports[0].port" << "FieldValueInvalid"
                               << "Invalid value: 0: must be between 1 and 65535, inclusive";
    QTest::newRow("port too big") << R"({"ports":[{"port":70000}]})" << "spec.ports[0].port" << "FieldValueInvalid"
                                  << "Invalid value: 70000: must be between 1 and 65535, inclusive";
    QTest::newRow("unnamed among several") << R"({"ports":[{"port":80},{"name":"b","port":81}]})"
                                           << "spec.ports[0].name" << "FieldValueRequired" << "Required value";
    QTest::newRow("duplicate names") << R"({"ports":[{"name":"a","port":80},{"name":"a","port":81}]})"
                                     << "spec.ports[1].name" << "FieldValueDuplicate" << "Duplicate value: \"a\"";
    QTest::newRow("duplicate port") << R"({"ports":[{"name":"a","port":80},{"name":"b","port":80}]})"
                                    << "spec.ports[1]" << "FieldValueDuplicate"
                                    << "Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", "
                                       "AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, "
                                       "IntVal:0, StrVal:\"\"}, NodePort:0}";
    QTest::newRow("protocol") << R"({"ports":[{"port":80,"protocol":"HTTP"}]})" << "spec.ports[0].protocol"
                              << "FieldValueNotSupported"
                              << "Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"";
    QTest::newRow("type") << R"({"type":"Magic","ports":[{"port":80}]})" << "spec.type" << "FieldValueNotSupported"
                          << "Unsupported value: \"Magic\": supported values: \"ClusterIP\", \"ExternalName\", "
                             "\"LoadBalancer\", \"NodePort\"";
    QTest::newRow("external name") << R"({"type":"ExternalName"})" << "spec.externalName" << "FieldValueRequired"
                                   << "Required value";
    QTest::newRow("cluster IP") << R"({"clusterIP":"10.96.0.300","ports":[{"port":80}]})" << "spec.clusterIPs[0]"
                                << "FieldValueInvalid"
                                << "Invalid value: \"10.96.0.300\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
    QTest::newRow("node port on ClusterIP") << R"({"ports":[{"port":80,"nodePort":30001}]})" << "spec.ports[0].nodePort"
                                            << "FieldValueForbidden"
                                            << "Forbidden: may not be used when `type` is 'ClusterIP'";
}

void TestServiceStrategy::testValidationErrors()
{
    QFETCH(QString, spec);
    QFETCH(QString, field);
    QFETCH(QString, type);
    QFETCH(QString, message);
    RVSCOPE_EXPECT_CAUSE(validateSpec(spec.toUtf8().constData()), field.toStdString(), type.toStdString(),
                         message.toStdString());
}

void TestServiceStrategy::testUpdateCarriesAllocatedValuesOver()
{
    Object old = createdService(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"type":"NodePort","ports":[{"name":"http","port":80}]}})");
    old.mutableJson()["status"] = {{"loadBalancer", {{"ingress", {{{"ip", "1.2.3.4"}}}}}}};
    // kubectl replace of the original manifest: no clusterIP, no nodePort.
    Object updated = objectFrom(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"type":"NodePort","ports":[{"name":"http","port":80}]}})");
    rvscope::testing::stampIdentity(updated);
    ServiceStrategy().prepareForUpdate(updated, old);
    QCOMPARE(updated.json()["spec"], old.json()["spec"]);
    QCOMPARE(updated.json()["status"], old.json()["status"]);
    const auto causes = ServiceStrategy().validateUpdate(updated, old);
    QVERIFY2(causes.empty(), qPrintable(describe(causes)));
}

void TestServiceStrategy::testClusterIPIsImmutable()
{
    const Object old = createdService(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"clusterIP":"10.96.0.20","ports":[{"port":80}]}})");
    Object updated = old;
    updated.mutableJson()["spec"]["clusterIP"] = "10.96.0.99"; // an old client: only the singular field
    ServiceStrategy().prepareForUpdate(updated, old);
    RVSCOPE_EXPECT_CAUSE(ServiceStrategy().validateUpdate(updated, old), "spec.clusterIPs[0]", "FieldValueInvalid",
                         "Invalid value: []string{\"10.96.0.99\"}: may not change once set");
    Object unchanged = old;
    unchanged.mutableJson()["spec"]["ports"][0]["port"] = 8080;
    unchanged.mutableJson()["spec"]["ports"][0]["targetPort"] = 8080;
    ServiceStrategy().prepareForUpdate(unchanged, old);
    QVERIFY(ServiceStrategy().validateUpdate(unchanged, old).empty());
}

void TestServiceStrategy::testSelectableFields()
{
    const Object service = createdService(R"({"metadata":{"name":"web","namespace":"default"},
        "spec":{"clusterIP":"10.96.0.20","ports":[{"port":80}]}})");
    const std::map<std::string, std::string> expected = {{"metadata.name", "web"},
                                                         {"metadata.namespace", "default"},
                                                         {"spec.clusterIP", "10.96.0.20"},
                                                         {"spec.type", "ClusterIP"}};
    QCOMPARE(ServiceStrategy().selectableFields(service), expected);
}

QTEST_GUILESS_MAIN(TestServiceStrategy)
#include "TestServiceStrategy.moc"
