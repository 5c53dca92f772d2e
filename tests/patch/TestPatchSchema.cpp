// SPDX-License-Identifier: MIT
#include <QTest>

#include "patch/PatchSchema.h"

using rvscope::patch::FieldPatchMeta;
using rvscope::patch::findFieldPatchMeta;
using rvscope::patch::supportsStrategicMerge;

class TestPatchSchema final : public QObject {
    Q_OBJECT

private slots:
    void supportsStrategicMerge_data();
    void supportsStrategicMerge();
    void fieldPatchMeta_data();
    void fieldPatchMeta();
    void fieldsWithoutStrategy_data();
    void fieldsWithoutStrategy();
};

void TestPatchSchema::supportsStrategicMerge_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<bool>("supported");

    for (const char *kind : {"Namespace", "ConfigMap", "Secret", "Pod", "Node", "PersistentVolumeClaim", "Service",
                             "Event", "Deployment", "Lease", "CustomResourceDefinition", "Scale"})
        QTest::newRow(kind) << QByteArray(kind) << true;
    for (const char *kind : {"Widget", "CronTab", "", "pod", "configmap", "ConfigMapList", "Deployment ", "apps/v1"})
        QTest::newRow(qPrintable(QStringLiteral("not: '%1'").arg(QString::fromLatin1(kind))))
            << QByteArray(kind) << false;
}

void TestPatchSchema::supportsStrategicMerge()
{
    QFETCH(QByteArray, kind);
    QFETCH(bool, supported);
    QCOMPARE(::supportsStrategicMerge(kind.toStdString()), supported);
}

void TestPatchSchema::fieldPatchMeta_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<bool>("mergeList");
    QTest::addColumn<bool>("retainKeys");
    QTest::addColumn<QByteArray>("mergeKey");

    // Wire contract section 4.3, row by row, for Pod and for the Deployment's pod template.
    for (const char *kind : {"Pod", "Deployment"}) {
        const QByteArray spec = QByteArray(kind) == "Pod" ? "spec." : "spec.template.spec.";
        const auto row = [&](const QByteArray &path, bool merge, bool retain, const QByteArray &key) {
            QTest::newRow(QByteArray(kind + QByteArray(" ") + path).constData())
                << QByteArray(kind) << path << merge << retain << key;
        };
        row(spec + "containers", true, false, "name");
        row(spec + "initContainers", true, false, "name");
        row(spec + "ephemeralContainers", true, false, "name");
        row(spec + "volumes", true, true, "name");
        row(spec + "imagePullSecrets", true, false, "name");
        row(spec + "schedulingGates", true, false, "name");
        row(spec + "hostAliases", true, false, "ip");
        row(spec + "topologySpreadConstraints", true, false, "topologyKey");
        row(spec + "resourceClaims", true, true, "name");
        for (const char *containers : {"containers.", "initContainers.", "ephemeralContainers."}) {
            row(spec + containers + "env", true, false, "name");
            row(spec + containers + "ports", true, false, "containerPort");
            row(spec + containers + "volumeMounts", true, false, "mountPath");
            row(spec + containers + "volumeDevices", true, false, "devicePath");
        }
    }
    const auto row = [](const char *kind, const char *path, bool merge, bool retain, const char *key) {
        QTest::newRow((QByteArray(kind) + ' ' + path).constData())
            << QByteArray(kind) << QByteArray(path) << merge << retain << QByteArray(key);
    };
    for (const char *kind : {"Namespace", "ConfigMap", "Secret", "Pod", "Node", "PersistentVolumeClaim", "Service",
                             "Event", "Deployment", "Lease", "CustomResourceDefinition", "Scale"}) {
        row(kind, "metadata.finalizers", true, false, "");
        row(kind, "metadata.ownerReferences", true, false, "uid");
    }
    row("Deployment", "spec.template.metadata.finalizers", true, false, "");
    row("Deployment", "spec.template.metadata.ownerReferences", true, false, "uid");
    row("Deployment", "spec.strategy", false, true, "");
    row("Deployment", "status.conditions", true, false, "type");
    row("Pod", "status.conditions", true, false, "type");
    row("Pod", "status.podIPs", true, false, "ip");
    row("Pod", "status.hostIPs", true, false, "ip");
    row("Namespace", "status.conditions", true, false, "type");
    row("Node", "status.conditions", true, false, "type");
    row("Node", "status.addresses", true, false, "type");
    row("Service", "spec.ports", true, false, "port");
}

void TestPatchSchema::fieldPatchMeta()
{
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, path);
    QFETCH(bool, mergeList);
    QFETCH(bool, retainKeys);
    QFETCH(QByteArray, mergeKey);

    const std::optional<FieldPatchMeta> meta = findFieldPatchMeta(kind.toStdString(), path.toStdString());
    QVERIFY(meta.has_value());
    QCOMPARE(meta->mergeList, mergeList);
    QCOMPARE(meta->retainKeys, retainKeys);
    QCOMPARE(QByteArray::fromStdString(std::string(meta->mergeKey)), mergeKey);
}

void TestPatchSchema::fieldsWithoutStrategy_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("path");

    QTest::newRow("tolerations") << QByteArray("Pod") << QByteArray("spec.tolerations");
    QTest::newRow("command") << QByteArray("Pod") << QByteArray("spec.containers.command");
    QTest::newRow("args") << QByteArray("Pod") << QByteArray("spec.containers.args");
    QTest::newRow("envFrom") << QByteArray("Pod") << QByteArray("spec.containers.envFrom");
    QTest::newRow("a struct on the way") << QByteArray("Pod") << QByteArray("spec");
    QTest::newRow("the root") << QByteArray("Pod") << QByteArray("");
    QTest::newRow("ConfigMap data") << QByteArray("ConfigMap") << QByteArray("data");
    QTest::newRow("Secret data") << QByteArray("Secret") << QByteArray("data");
    QTest::newRow("labels") << QByteArray("Pod") << QByteArray("metadata.labels");
    QTest::newRow("Deployment selector") << QByteArray("Deployment") << QByteArray("spec.selector");
    QTest::newRow("pod spec path on a Deployment") << QByteArray("Deployment") << QByteArray("spec.containers");
    QTest::newRow("template path on a Pod") << QByteArray("Pod") << QByteArray("spec.template.spec.containers");
    QTest::newRow("containers under metadata") << QByteArray("Pod") << QByteArray("metadata.containers");
    QTest::newRow("below a leaf") << QByteArray("Pod") << QByteArray("metadata.finalizers.x");
    QTest::newRow("a trailing dot") << QByteArray("Pod") << QByteArray("spec.containers.");
    QTest::newRow("unknown kind") << QByteArray("Widget") << QByteArray("metadata.finalizers");
    QTest::newRow("ConfigMap has no spec") << QByteArray("ConfigMap") << QByteArray("spec.containers");
    QTest::newRow("Service status is not in the table") << QByteArray("Service") << QByteArray("status.conditions");
}

void TestPatchSchema::fieldsWithoutStrategy()
{
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, path);
    QVERIFY(!findFieldPatchMeta(kind.toStdString(), path.toStdString()).has_value());
}

QTEST_GUILESS_MAIN(TestPatchSchema)
#include "TestPatchSchema.moc"
