// SPDX-License-Identifier: MIT
#include <QTest>

#include <string>

#include "registry/validation/FieldPath.h"

using rvscope::registry::FieldPath;

// field.Path rendering: what every field error built from a lazy path names.
class TestFieldPath final : public QObject {
    Q_OBJECT

private slots:
    void rootPrintsAsGiven();
    void childrenAndIndices();
    void siblingsShareTheirParent();
};

void TestFieldPath::rootPrintsAsGiven()
{
    QCOMPARE(FieldPath("spec").toString(), std::string("spec"));
    QCOMPARE(FieldPath("spec.template.spec").toString(), std::string("spec.template.spec"));
}

void TestFieldPath::childrenAndIndices()
{
    const FieldPath spec("spec.template.spec");
    const FieldPath containers = spec.child("containers");
    const FieldPath second = containers.index(1);
    const FieldPath ports = second.child("ports");
    QCOMPARE(containers.toString(), std::string("spec.template.spec.containers"));
    QCOMPARE(second.toString(), std::string("spec.template.spec.containers[1]"));
    const FieldPath port = ports.index(12);
    QCOMPARE(port.child("protocol").toString(), std::string("spec.template.spec.containers[1].ports[12].protocol"));
    // A list at the root, and a list of lists.
    const FieldPath root("m");
    const FieldPath outer = root.index(2);
    QCOMPARE(root.index(0).toString(), std::string("m[0]"));
    QCOMPARE(outer.index(3).toString(), std::string("m[2][3]"));
}

void TestFieldPath::siblingsShareTheirParent()
{
    const FieldPath meta("metadata");
    const FieldPath labels = meta.child("labels");
    const FieldPath annotations = meta.child("annotations");
    QCOMPARE(labels.toString(), std::string("metadata.labels"));
    QCOMPARE(annotations.toString(), std::string("metadata.annotations"));
    QCOMPARE(meta.toString(), std::string("metadata"));
}

QTEST_GUILESS_MAIN(TestFieldPath)
#include "TestFieldPath.moc"
