// SPDX-License-Identifier: MIT
// Strategic merge patches that must be refused, with the status code and upstream's text.
#include <QTest>

#include "PatchTestSupport.h"
#include "patch/StrategicMergePatch.h"

using nlohmann::json;
using rvscope::patch::applyStrategicMergePatch;
using rvscope::patch::test::parsed;

class TestStrategicMergeErrors final : public QObject {
    Q_OBJECT

private slots:
    void rejectsMalformedPatchesWith400_data();
    void rejectsMalformedPatchesWith400();
    void rejectsListOfListsWith422();
    void rejectsNonObjectOriginal();
};

void TestStrategicMergeErrors::rejectsMalformedPatchesWith400_data()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("messageStart");

    const QByteArray pod = R"({"metadata":{"finalizers":["a"]},"spec":{"containers":[{"name":"a"},{"name":"b"}],)"
                           R"("volumes":[{"name":"v","emptyDir":{}}]}})";
    QTest::newRow("patch is an array") << QByteArray("Pod") << pod << QByteArray(R"([{"op":"add"}])")
                                       << QByteArray("json: cannot unmarshal array into Go value of type "
                                                     "map[string]interface {}");
    QTest::newRow("patch is a string") << QByteArray("Pod") << pod << QByteArray(R"("x")")
                                       << QByteArray("json: cannot unmarshal string into Go value");
    QTest::newRow("patch is null") << QByteArray("Pod") << pod << QByteArray("null")
                                   << QByteArray("json: cannot unmarshal null");
    QTest::newRow("unknown $patch in a map") << QByteArray("Pod") << pod
                                             << QByteArray(R"({"metadata":{"$patch":"merge"}})")
                                             << QByteArray("unknown patch type: \"merge\" in map: ");
    QTest::newRow("$patch that is not a string") << QByteArray("Pod") << pod
                                                 << QByteArray(R"({"metadata":{"$patch":1}})")
                                                 << QByteArray("unknown patch type: 1");
    QTest::newRow("unknown $patch in a list element")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"containers":[{"name":"a","$patch":"remove"}]}})")
        << QByteArray("unknown patch type: \"remove\"");
    QTest::newRow("$patch merge in a list")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"containers":[{"$patch":"merge"}]}})")
        << QByteArray("merging lists cannot yet be specified in the patch");
    QTest::newRow("$patch delete without the merge key")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"containers":[{"$patch":"delete","image":"x"}]}})")
        << QByteArray("map: ");
    QTest::newRow("upstream: missing merge key should error out")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"containers":[{"image":"x"}]}})")
        << QByteArray("map: {\"image\":\"x\"} does not contain declared merge key: name");
    QTest::newRow("a live element without the merge key")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"image":"nameless"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"a"}]}})") << QByteArray("map: ");
    QTest::newRow("$patch replace list with an element lacking the key")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"containers":[{"$patch":"replace"},{"image":"x"}]}})")
        << QByteArray("map: ");
    QTest::newRow("element types differ")
        << QByteArray("Pod") << pod << QByteArray(R"({"metadata":{"finalizers":["b",1]}})")
        << QByteArray("list element types are not identical");
    QTest::newRow("element types differ between live and patch")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"containers":["c"]}})")
        << QByteArray("list element types are not identical");
    QTest::newRow("a keyed merge list of primitives")
        << QByteArray("Pod") << QByteArray(R"({"spec":{}})") << QByteArray(R"({"spec":{"containers":["c"]}})")
        << QByteArray("list spec.containers merges on \"name\"");
    QTest::newRow("maps in a primitive merge list")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{}})") << QByteArray(R"({"metadata":{"finalizers":[{"a":1}]}})")
        << QByteArray("cannot merge lists without merge key for metadata.finalizers");
    QTest::newRow("$retainKeys that is not a list")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"volumes":[{"name":"v","$retainKeys":"name"}]}})")
        << QByteArray("invalid patch format of retainKeys");
    QTest::newRow("a patch member missing from $retainKeys")
        << QByteArray("Deployment") << QByteArray(R"({"spec":{"strategy":{"type":"RollingUpdate"}}})")
        << QByteArray(R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate","rollingUpdate":{}}}})")
        << QByteArray("invalid patch format of retainKeys");
    QTest::newRow("$setElementOrder that is not a list")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"$setElementOrder/containers":{"name":"a"}}})")
        << QByteArray("invalid patch format of setElementOrder list");
    QTest::newRow("$setElementOrder without /")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"$setElementOrder":[{"name":"a"}]}})")
        << QByteArray("invalid patch format of setElementOrder list");
    QTest::newRow("$setElementOrder with another prefix")
        << QByteArray("Pod") << pod << QByteArray(R"({"spec":{"$setElementOrderX/containers":[{"name":"a"}]}})")
        << QByteArray("invalid patch format of setElementOrder list");
    QTest::newRow("upstream: $setElementOrder order must match the patch list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"3"},{"name":"2"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"1"},{"name":"2"},{"name":"3"}],)"
                      R"("containers":[{"name":"3","image":"3"},{"name":"1","image":"1"}]}})")
        << QByteArray("the order in patch list:");
    QTest::newRow("upstream: $setElementOrder int order must match the patch list")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{"finalizers":["1","3","2"]}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["1","2","3"],"finalizers":["3","1"]}})")
        << QByteArray("the order in patch list:");
    QTest::newRow("$setElementOrder contradicting a list replaced whole")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"tolerations":[{"key":"a"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/tolerations":[{"key":"c"},{"key":"b"}],)"
                      R"("tolerations":[{"key":"b"},{"key":"c"}]}})")
        << QByteArray("the order in patch list:");
    QTest::newRow("$setElementOrder missing a patch element")
        << QByteArray("Pod") << pod
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"c"}]}})")
        << QByteArray("the order in patch list:");
    QTest::newRow("$setElementOrder entry without the merge key")
        << QByteArray("Pod") << pod
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"image":"a"}],"containers":[{"name":"a"}]}})")
        << QByteArray("map: ");
    QTest::newRow("$setElementOrder on a live value that is not a list")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{"finalizers":"a"}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["a"]}})")
        << QByteArray("invalid patch format of setElementOrder list");
    QTest::newRow("$deleteFromPrimitiveList that is not a list")
        << QByteArray("Pod") << pod << QByteArray(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}})")
        << QByteArray("invalid patch format of primitive list");
    QTest::newRow("$deleteFromPrimitiveList without /")
        << QByteArray("Pod") << pod << QByteArray(R"({"metadata":{"$deleteFromPrimitiveList":["a"]}})")
        << QByteArray("invalid patch format of primitive list");
    QTest::newRow("an error deep inside a new member")
        << QByteArray("Deployment") << QByteArray(R"({"spec":{}})")
        << QByteArray(R"({"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"value":"1"}]}]}}}})")
        << QByteArray("map: {\"value\":\"1\"} does not contain declared merge key: name");
}

void TestStrategicMergeErrors::rejectsMalformedPatchesWith400()
{
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, original);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, messageStart);

    const rvscope::model::Result<json> result =
        applyStrategicMergePatch(parsed(original), parsed(patch), kind.toStdString());
    VERIFY_STATUS(result, 400, "BadRequest");
    const QByteArray message = QByteArray::fromStdString(result.error().message);
    QVERIFY2(message.startsWith(messageStart), message.constData());
}

void TestStrategicMergeErrors::rejectsListOfListsWith422()
{
    for (const char *patch : {R"({"metadata":{"finalizers":[["a"]]}})", R"({"spec":{"containers":[["a"]]}})"}) {
        const rvscope::model::Result<json> result = applyStrategicMergePatch(
            parsed(R"({"metadata":{"finalizers":["x"]},"spec":{"containers":[{"name":"a"}]}})"), parsed(patch),
            "Pod");
        VERIFY_STATUS(result, 422, "Invalid");
        QCOMPARE(QByteArray::fromStdString(result.error().message),
                 QByteArray("the server rejected our request due to an error in our request"));
    }
    // A list of lists in a list without merge strategy is replaced like any value.
    const rvscope::model::Result<json> replaced =
        applyStrategicMergePatch(parsed(R"({"spec":{"tolerations":[]}})"),
                                 parsed(R"({"spec":{"tolerations":[["a"]]}})"), "Pod");
    QVERIFY(replaced.ok());
    COMPARE_JSON(*replaced, parsed(R"({"spec":{"tolerations":[["a"]]}})"));
}

void TestStrategicMergeErrors::rejectsNonObjectOriginal()
{
    const rvscope::model::Result<json> result = applyStrategicMergePatch(parsed("[1]"), parsed("{}"), "Pod");
    VERIFY_STATUS(result, 500, "InternalError");
}

QTEST_GUILESS_MAIN(TestStrategicMergeErrors)
#include "TestStrategicMergeErrors.moc"
