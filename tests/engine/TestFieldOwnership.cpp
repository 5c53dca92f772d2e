// SPDX-License-Identifier: MIT
// The Objects panel's "who manages which field" lines, from an object's managedFields.
#include <QtTest/QtTest>

#include "engine/FieldOwnership.h"

class TestFieldOwnership final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testOneLinePerManager();
    void testNoneOrBroken();
};

void TestFieldOwnership::testOneLinePerManager()
{
    const QByteArray object = R"({"metadata":{"name":"c","managedFields":[
      {"manager":"alice","operation":"Apply","apiVersion":"v1","time":"2026-11-26T10:00:00Z","fieldsType":"FieldsV1",
       "fieldsV1":{"f:data":{"f:color":{},"f:owner":{}}}},
      {"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1",
       "fieldsV1":{"f:status":{"f:replicas":{}}},"subresource":"status"}]}})";
    const QStringList lines = rvscope::engine::fieldOwnership(object);
    QCOMPARE(lines, QStringList({QStringLiteral("alice (Apply): .data.color, .data.owner  at 2026-11-26T10:00:00Z"),
                                 QStringLiteral("kube-controller-manager (Update, /status): .status.replicas")}));
}

void TestFieldOwnership::testNoneOrBroken()
{
    QVERIFY(rvscope::engine::fieldOwnership(R"({"metadata":{"name":"c"}})").isEmpty());
    QVERIFY(rvscope::engine::fieldOwnership("not json").isEmpty());
    QVERIFY(rvscope::engine::fieldOwnership(R"({"metadata":{"managedFields":[{"manager":"x"}]}})").isEmpty());
}

QTEST_GUILESS_MAIN(TestFieldOwnership)
#include "TestFieldOwnership.moc"
