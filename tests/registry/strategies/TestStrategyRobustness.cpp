// SPDX-License-Identifier: MIT
#include <memory>

#include <QtTest/QtTest>

#include "StrategyTestSupport.h"
#include "registry/strategies/DeploymentStatusStrategy.h"
#include "registry/strategies/DeploymentStrategy.h"
#include "registry/strategies/EventStrategy.h"
#include "registry/strategies/LeaseStrategy.h"
#include "registry/strategies/NodeStatusStrategy.h"
#include "registry/strategies/NodeStrategy.h"
#include "registry/strategies/PersistentVolumeClaimStatusStrategy.h"
#include "registry/strategies/PersistentVolumeClaimStrategy.h"
#include "registry/strategies/PodStatusStrategy.h"
#include "registry/strategies/PodStrategy.h"
#include "registry/strategies/SecretStrategy.h"
#include "registry/strategies/ServiceStrategy.h"
#include "registry/strategies/WorkloadScale.h"

using namespace rvscope::registry;
using rvscope::model::Object;

// Client JSON of every wrong shape goes through every strategy entry point: nothing may
// throw (a nlohmann exception would end the test), and whatever is wrong is a field error.
class TestStrategyRobustness final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testMalformedObjects_data();
    void testMalformedObjects();
};

void TestStrategyRobustness::testMalformedObjects_data()
{
    QTest::addColumn<QString>("json");
    const char *const shapes[] = {
        R"({"metadata":{"name":"x","namespace":"default"}})",
        R"({"metadata":{"name":"x","namespace":"default"},"spec":"nope","status":7,"data":[1],"stringData":"s","type":5})",
        R"({"metadata":{"name":"x","namespace":"default"},"spec":{"containers":"c","initContainers":{},"template":[],
            "selector":"app=web","ports":{"a":1},"replicas":"3","strategy":"fast","taints":{},"accessModes":"RWO",
            "resources":[],"clusterIP":5,"clusterIPs":"x","type":["NodePort"],"tolerations":"t","activeDeadlineSeconds":"1"}})",
        R"({"metadata":{"name":"x","namespace":"default"},"spec":{"containers":[5,null,"x",{"name":7,"image":[],
            "ports":[{"containerPort":"80","hostPort":-1,"protocol":3}],"resources":{"limits":"x","requests":[]},
            "env":[{"valueFrom":{"fieldRef":"x"}}],"livenessProbe":{"httpGet":"x"}}],"volumes":[1,{"name":"v"}]},
            "stringData":{"a":1,"b":"ok"},"data":{"k":null,"bad key":"%%"},"immutable":"yes"})",
        R"({"metadata":{"name":"x","namespace":"default"},"spec":{"selector":{"matchLabels":[],"matchExpressions":{}},
            "template":{"metadata":{"labels":"x"},"spec":{"containers":[{"name":"a","image":"b"}]}},
            "ports":[null,{"port":99999999999999999999,"targetPort":[],"nodePort":"x"}],
            "resources":{"requests":{"storage":"lots"}},"leaseDurationSeconds":1.5,"podCIDRs":"x"}})",
        R"({"metadata":"broken","spec":null,"status":null,"involvedObject":"x","source":[]})",
        R"({"metadata":{"name":"x","namespace":"default","labels":{"a":1},"annotations":[],"ownerReferences":"x"}})",
    };
    int row = 0;
    for (const char *shape : shapes)
        QTest::newRow(QByteArray::number(row++).constData()) << QString::fromUtf8(shape);
}

void TestStrategyRobustness::testMalformedObjects()
{
    QFETCH(QString, json);
    const std::vector<std::shared_ptr<const Strategy>> strategies = {
        std::make_shared<PodStrategy>(),          std::make_shared<PodStatusStrategy>(),
        std::make_shared<SecretStrategy>(),       std::make_shared<DeploymentStrategy>(),
        std::make_shared<DeploymentStatusStrategy>(), std::make_shared<NodeStrategy>(),
        std::make_shared<NodeStatusStrategy>(),   std::make_shared<PersistentVolumeClaimStrategy>(),
        std::make_shared<PersistentVolumeClaimStatusStrategy>(), std::make_shared<ServiceStrategy>(),
        std::make_shared<EventStrategy>(),        std::make_shared<LeaseStrategy>(),
    };
    const Object input = rvscope::testing::objectFrom(json.toUtf8().constData());
    const Object valid = rvscope::testing::objectFrom(R"({"metadata":{"name":"x","namespace":"default","uid":"u"}})");
    for (const auto &strategy : strategies) {
        Object created = input;
        strategy->prepareForCreate(created);
        (void)strategy->validate(created);
        (void)strategy->selectableFields(created);
        for (const Object &old : {valid, input, created}) {
            Object updated = input;
            strategy->prepareForUpdate(updated, old);
            (void)strategy->validateUpdate(updated, old);
            (void)strategy->generationChanged(updated, old);
        }
    }
    auto scale = scaleOf(input);
    if (scale)
        (void)applyScale(*scale, input);
    (void)applyScale(input, input);
}

QTEST_GUILESS_MAIN(TestStrategyRobustness)
#include "TestStrategyRobustness.moc"
