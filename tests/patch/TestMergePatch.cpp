// SPDX-License-Identifier: MIT
#include <QTest>

#include "PatchTestSupport.h"
#include "patch/MergePatch.h"

using nlohmann::json;
using rvscope::patch::applyMergePatch;
using rvscope::patch::applyMergePatchToObject;
using rvscope::patch::createMergePatch;
using rvscope::patch::test::parsed;

class TestMergePatch final : public QObject {
    Q_OBJECT

private slots:
    void rfc7386AppendixA_data();
    void rfc7386AppendixA();
    void kubernetesObjects_data();
    void kubernetesObjects();
    void objectPatchMustBeAnObject_data();
    void objectPatchMustBeAnObject();
    void objectPatchOnNonObjectStartsFromEmpty();
    void createMergePatch_data();
    void createMergePatch();
    void createMergePatchCannotExpressNullValues();
    void doesNotModifyInputs();
};

void TestMergePatch::rfc7386AppendixA_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("expected");

    // Every row of RFC 7386 appendix A, in order.
    QTest::newRow("1 replace member") << QByteArray(R"({"a":"b"})") << QByteArray(R"({"a":"c"})")
                                      << QByteArray(R"({"a":"c"})");
    QTest::newRow("2 add member") << QByteArray(R"({"a":"b"})") << QByteArray(R"({"b":"c"})")
                                  << QByteArray(R"({"a":"b","b":"c"})");
    QTest::newRow("3 delete member") << QByteArray(R"({"a":"b"})") << QByteArray(R"({"a":null})")
                                     << QByteArray(R"({})");
    QTest::newRow("4 delete one of two") << QByteArray(R"({"a":"b","b":"c"})") << QByteArray(R"({"a":null})")
                                         << QByteArray(R"({"b":"c"})");
    QTest::newRow("5 array replaced by string") << QByteArray(R"({"a":["b"]})") << QByteArray(R"({"a":"c"})")
                                                << QByteArray(R"({"a":"c"})");
    QTest::newRow("6 string replaced by array") << QByteArray(R"({"a":"c"})") << QByteArray(R"({"a":["b"]})")
                                                << QByteArray(R"({"a":["b"]})");
    QTest::newRow("7 nested merge with delete")
        << QByteArray(R"({"a":{"b":"c"}})") << QByteArray(R"({"a":{"b":"d","c":null}})")
        << QByteArray(R"({"a":{"b":"d"}})");
    QTest::newRow("8 array replaced whole") << QByteArray(R"({"a":[{"b":"c"}]})") << QByteArray(R"({"a":[1]})")
                                            << QByteArray(R"({"a":[1]})");
    QTest::newRow("9 array document") << QByteArray(R"(["a","b"])") << QByteArray(R"(["c","d"])")
                                      << QByteArray(R"(["c","d"])");
    QTest::newRow("10 object replaced by array") << QByteArray(R"({"a":"b"})") << QByteArray(R"(["c"])")
                                                 << QByteArray(R"(["c"])");
    QTest::newRow("11 null patch") << QByteArray(R"({"a":"foo"})") << QByteArray("null") << QByteArray("null");
    QTest::newRow("12 string patch") << QByteArray(R"({"a":"foo"})") << QByteArray(R"("bar")")
                                     << QByteArray(R"("bar")");
    QTest::newRow("13 existing null kept") << QByteArray(R"({"e":null})") << QByteArray(R"({"a":1})")
                                           << QByteArray(R"({"e":null,"a":1})");
    QTest::newRow("14 array target becomes object") << QByteArray(R"([1,2])")
                                                    << QByteArray(R"({"a":"b","c":null})")
                                                    << QByteArray(R"({"a":"b"})");
    QTest::newRow("15 nulls pruned in new members") << QByteArray(R"({})")
                                                    << QByteArray(R"({"a":{"bb":{"ccc":null}}})")
                                                    << QByteArray(R"({"a":{"bb":{}}})");
}

void TestMergePatch::rfc7386AppendixA()
{
    QFETCH(QByteArray, original);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);

    COMPARE_JSON(applyMergePatch(parsed(original), parsed(patch)), parsed(expected));
}

void TestMergePatch::kubernetesObjects_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray configMap = R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "resourceVersion":"17","creationTimestamp":"2024-01-02T03:04:05Z",
                    "labels":{"app":"demo"},"finalizers":["a/one"]},
        "data":{"s":"1","t":"2"}})json";

    // `kubectl label cm foo env=prod` sends this merge patch (wire contract 4.4).
    QTest::newRow("kubectl label") << configMap << QByteArray(R"({"metadata":{"labels":{"env":"prod"}}})")
                                   << QByteArray(R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "resourceVersion":"17","creationTimestamp":"2024-01-02T03:04:05Z",
                    "labels":{"app":"demo","env":"prod"},"finalizers":["a/one"]},
        "data":{"s":"1","t":"2"}})json");
    // `kubectl label cm foo app-` removes the label with null.
    QTest::newRow("kubectl label removal") << configMap << QByteArray(R"({"metadata":{"labels":{"app":null}}})")
                                           << QByteArray(R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "resourceVersion":"17","creationTimestamp":"2024-01-02T03:04:05Z",
                    "labels":{},"finalizers":["a/one"]},
        "data":{"s":"1","t":"2"}})json");
    // `kubectl patch --type=merge`: a finalizers list is replaced, not merged, unlike SMP.
    QTest::newRow("lists are replaced, finalizers included")
        << configMap << QByteArray(R"({"metadata":{"finalizers":["b/two"]},"data":{"s":"3"}})")
        << QByteArray(R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "resourceVersion":"17","creationTimestamp":"2024-01-02T03:04:05Z",
                    "labels":{"app":"demo"},"finalizers":["b/two"]},
        "data":{"s":"3","t":"2"}})json");
    // A resourceVersion set to null makes the update unconditional (wire contract 4.2).
    QTest::newRow("resourceVersion null") << configMap
                                          << QByteArray(R"({"metadata":{"resourceVersion":null}})")
                                          << QByteArray(R"json({"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"foo","namespace":"default","uid":"0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
                    "creationTimestamp":"2024-01-02T03:04:05Z",
                    "labels":{"app":"demo"},"finalizers":["a/one"]},
        "data":{"s":"1","t":"2"}})json");
    // `kubectl scale deploy web --replicas=3` patches the Scale subresource with this body.
    QTest::newRow("kubectl scale")
        << QByteArray(R"json({"kind":"Scale","apiVersion":"autoscaling/v1",
            "metadata":{"name":"web","namespace":"default","resourceVersion":"40"},
            "spec":{"replicas":1},"status":{"replicas":1,"selector":"app=web"}})json")
        << QByteArray(R"({"spec":{"replicas":3}})")
        << QByteArray(R"json({"kind":"Scale","apiVersion":"autoscaling/v1",
            "metadata":{"name":"web","namespace":"default","resourceVersion":"40"},
            "spec":{"replicas":3},"status":{"replicas":1,"selector":"app=web"}})json");
}

void TestMergePatch::kubernetesObjects()
{
    QFETCH(QByteArray, original);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);

    const rvscope::model::Result<json> result = applyMergePatchToObject(parsed(original), parsed(patch));
    QVERIFY(result.ok());
    COMPARE_JSON(*result, parsed(expected));
    COMPARE_JSON(applyMergePatch(parsed(original), parsed(patch)), parsed(expected));
}

void TestMergePatch::objectPatchMustBeAnObject_data()
{
    QTest::addColumn<QByteArray>("patch");
    QTest::newRow("null") << QByteArray("null");
    QTest::newRow("array") << QByteArray(R"([{"op":"add","path":"/a","value":1}])");
    QTest::newRow("string") << QByteArray(R"("data")");
    QTest::newRow("number") << QByteArray("3");
    QTest::newRow("boolean") << QByteArray("true");
}

void TestMergePatch::objectPatchMustBeAnObject()
{
    QFETCH(QByteArray, patch);
    const rvscope::model::Result<json> result =
        applyMergePatchToObject(parsed(R"({"kind":"ConfigMap","data":{"a":"1"}})"), parsed(patch));
    VERIFY_STATUS(result, 400, "BadRequest");
    QCOMPARE(QByteArray::fromStdString(result.error().message), QByteArray("Invalid JSON Patch"));
}

void TestMergePatch::objectPatchOnNonObjectStartsFromEmpty()
{
    const rvscope::model::Result<json> result =
        applyMergePatchToObject(parsed("[1]"), parsed(R"({"a":{"b":null,"c":1}})"));
    QVERIFY(result.ok());
    COMPARE_JSON(*result, parsed(R"({"a":{"c":1}})"));
}

void TestMergePatch::createMergePatch_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QByteArray>("modified");
    QTest::addColumn<QByteArray>("expectedPatch");

    QTest::newRow("identical objects give {}") << QByteArray(R"({"a":{"b":[1]}})")
                                               << QByteArray(R"({"a":{"b":[1]}})") << QByteArray("{}");
    QTest::newRow("changed scalar") << QByteArray(R"({"a":1,"b":2})") << QByteArray(R"({"a":1,"b":3})")
                                    << QByteArray(R"({"b":3})");
    QTest::newRow("removed member becomes null") << QByteArray(R"({"a":1,"b":2})") << QByteArray(R"({"a":1})")
                                                 << QByteArray(R"({"b":null})");
    QTest::newRow("added member") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1,"c":{"d":true}})")
                                  << QByteArray(R"({"c":{"d":true}})");
    QTest::newRow("nested change only") << QByteArray(R"({"m":{"x":1,"y":2,"z":{"q":1}}})")
                                        << QByteArray(R"({"m":{"x":1,"y":5,"z":{"q":1}}})")
                                        << QByteArray(R"({"m":{"y":5}})");
    QTest::newRow("changed array sent whole") << QByteArray(R"({"l":[1,2,3]})") << QByteArray(R"({"l":[1,2]})")
                                              << QByteArray(R"({"l":[1,2]})");
    QTest::newRow("object replaced by scalar") << QByteArray(R"({"a":{"b":1}})") << QByteArray(R"({"a":"x"})")
                                               << QByteArray(R"({"a":"x"})");
    QTest::newRow("scalar replaced by object") << QByteArray(R"({"a":"x"})") << QByteArray(R"({"a":{"b":1}})")
                                               << QByteArray(R"({"a":{"b":1}})");
    QTest::newRow("number type change 1 -> 1.5") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1.5})")
                                                 << QByteArray(R"({"a":1.5})");
    QTest::newRow("non-object modified is the patch") << QByteArray(R"({"a":1})") << QByteArray("[1]")
                                                      << QByteArray("[1]");
    QTest::newRow("non-object original") << QByteArray(R"("x")") << QByteArray(R"({"a":1})")
                                         << QByteArray(R"({"a":1})");
    QTest::newRow("label edit on a ConfigMap")
        << QByteArray(R"json({"metadata":{"name":"foo","labels":{"app":"demo","tier":"x"}},"data":{"a":"1"}})json")
        << QByteArray(R"json({"metadata":{"name":"foo","labels":{"app":"demo","env":"prod"}},"data":{"a":"1"}})json")
        << QByteArray(R"({"metadata":{"labels":{"env":"prod","tier":null}}})");
}

void TestMergePatch::createMergePatch()
{
    QFETCH(QByteArray, original);
    QFETCH(QByteArray, modified);
    QFETCH(QByteArray, expectedPatch);

    const json patch = ::createMergePatch(parsed(original), parsed(modified));
    COMPARE_JSON(patch, parsed(expectedPatch));
    // The defining property: applying the patch to the original yields the modified document.
    COMPARE_JSON(applyMergePatch(parsed(original), patch), parsed(modified));
}

void TestMergePatch::createMergePatchCannotExpressNullValues()
{
    // RFC 7386 uses null for deletion, so a member whose new value is null comes out deleted.
    const json original = parsed(R"({"a":1,"b":2})");
    const json modified = parsed(R"({"a":null,"b":2})");
    const json patch = ::createMergePatch(original, modified);
    COMPARE_JSON(patch, parsed(R"({"a":null})"));
    COMPARE_JSON(applyMergePatch(original, patch), parsed(R"({"b":2})"));
}

void TestMergePatch::doesNotModifyInputs()
{
    const json original = parsed(R"({"a":{"b":1},"c":[1]})");
    const json patch = parsed(R"({"a":{"b":null,"d":2},"c":null})");
    COMPARE_JSON(applyMergePatch(original, patch), parsed(R"({"a":{"d":2}})"));
    COMPARE_JSON(original, parsed(R"({"a":{"b":1},"c":[1]})"));
    COMPARE_JSON(patch, parsed(R"({"a":{"b":null,"d":2},"c":null})"));
}

QTEST_GUILESS_MAIN(TestMergePatch)
#include "TestMergePatch.moc"
