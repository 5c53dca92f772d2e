// SPDX-License-Identifier: MIT
// Every kubectl 1.32 imperative create command, as the real kubectl sent it in protobuf, decoded
// to the JSON the same command sends as JSON. The bodies are captured, not built: see
// capture_kubectl_bodies.py, which generated KubectlCreateBodies.h.
#include "KubectlCreateBodies.h"
#include "ProtobufTestSupport.h"

using namespace protobuf_test;

class TestProtobufKubectlCreate final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testRealKubectlBodies_data();
    void testRealKubectlBodies();
    void testEveryCapturedKindIsServed();
};

void TestProtobufKubectlCreate::testRealKubectlBodies_data()
{
    QTest::addColumn<QByteArray>("hex");
    QTest::addColumn<QByteArray>("expectedJson");
    for (const KubectlCreateBody &row : KUBECTL_CREATE_BODIES)
        QTest::newRow(row.command) << QByteArray(row.hex) << QByteArray(row.expectedJson);
}

void TestProtobufKubectlCreate::testRealKubectlBodies()
{
    QFETCH(QByteArray, hex);
    QFETCH(QByteArray, expectedJson);
    const QByteArray body = QByteArray::fromHex(hex);
    QCOMPARE(body.size() * 2, hex.size());
    compareDecoded(body.toStdString(), expectedJson.constData());
}

void TestProtobufKubectlCreate::testEveryCapturedKindIsServed()
{
    // The captures cover each kind the imperative commands send, not only a few of them.
    QSet<QString> kinds;
    for (const KubectlCreateBody &row : KUBECTL_CREATE_BODIES)
        kinds.insert(QString::fromStdString(nlohmann::json::parse(row.expectedJson).at("kind").get<std::string>()));
    const QSet<QString> expected{"Job", "CronJob", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding",
                                 "ServiceAccount", "ResourceQuota", "PriorityClass", "Ingress", "PodDisruptionBudget",
                                 "Service"};
    QCOMPARE(kinds, expected);
}

QTEST_GUILESS_MAIN(TestProtobufKubectlCreate)
#include "TestProtobufKubectlCreate.moc"
