// SPDX-License-Identifier: MIT
#include <functional>

#include <QTest>

#include "PatchTestSupport.h"
#include "patch/StrategicMergePatch.h"

using nlohmann::json;
using rvscope::patch::applyStrategicMergePatch;
using rvscope::patch::test::parsed;

// Vectors marked "upstream" are k8s.io/apimachinery strategicpatch patch_test.go cases, moved
// onto real fields (mergingList -> containers, mergingIntList -> finalizers).
class TestStrategicMergePatch final : public QObject {
    Q_OBJECT

private slots:
    void mergesMapsLikeMergePatch_data();
    void mergesMapsLikeMergePatch();
    void mergesListsBySchema_data();
    void mergesListsBySchema();
    void appliesPatchDirectives_data();
    void appliesPatchDirectives();
    void appliesRetainKeys_data();
    void appliesRetainKeys();
    void appliesSetElementOrder_data();
    void appliesSetElementOrder();
    void appliesDeleteFromPrimitiveList_data();
    void appliesDeleteFromPrimitiveList();
    void doesNotModifyInputs();


private:
    static void addColumns();
};

void TestStrategicMergePatch::addColumns()
{
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<QByteArray>("expected");
}

namespace {
void verifyPatch()
{
    QFETCH(QByteArray, kind);
    QFETCH(QByteArray, original);
    QFETCH(QByteArray, patch);
    QFETCH(QByteArray, expected);

    const rvscope::model::Result<json> result =
        applyStrategicMergePatch(parsed(original), parsed(patch), kind.toStdString());
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    COMPARE_JSON(*result, parsed(expected));
}
} // namespace

void TestStrategicMergePatch::mergesMapsLikeMergePatch_data()
{
    addColumns();
    QTest::newRow("members merge") << QByteArray("ConfigMap") << QByteArray(R"({"data":{"a":"1","b":"2"}})")
                                   << QByteArray(R"({"data":{"b":"3","c":"4"}})")
                                   << QByteArray(R"({"data":{"a":"1","b":"3","c":"4"}})");
    QTest::newRow("null deletes a member") << QByteArray("ConfigMap") << QByteArray(R"({"data":{"a":"1","b":"2"}})")
                                           << QByteArray(R"({"data":{"a":null}})")
                                           << QByteArray(R"({"data":{"b":"2"}})");
    QTest::newRow("null for an absent member is ignored")
        << QByteArray("ConfigMap") << QByteArray(R"({"data":{"a":"1"}})") << QByteArray(R"({"data":{"zz":null}})")
        << QByteArray(R"({"data":{"a":"1"}})");
    QTest::newRow("nulls in a new map are dropped")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"name":"x"}})")
        << QByteArray(R"({"metadata":{"labels":{"a":"1","b":null}}})")
        << QByteArray(R"({"metadata":{"name":"x","labels":{"a":"1"}}})");
    // patchStrategy "replace": a PodDisruptionBudget's selector is taken whole.
    QTest::newRow("a replace-strategy map is replaced")
        << QByteArray("PodDisruptionBudget")
        << QByteArray(R"({"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"a","tier":"web"}}}})")
        << QByteArray(R"({"spec":{"selector":{"matchLabels":{"app":"b"}}}})")
        << QByteArray(R"({"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"b"}}}})");
    QTest::newRow("a scalar replaces a map") << QByteArray("ConfigMap") << QByteArray(R"({"data":{"a":{"x":1}}})")
                                             << QByteArray(R"({"data":{"a":"s"}})")
                                             << QByteArray(R"({"data":{"a":"s"}})");
    QTest::newRow("a list replaces a map") << QByteArray("Pod") << QByteArray(R"({"spec":{"a":1}})")
                                           << QByteArray(R"({"spec":[1]})") << QByteArray(R"({"spec":[1]})");
    QTest::newRow("a map replaces a list") << QByteArray("Pod") << QByteArray(R"({"spec":[1]})")
                                           << QByteArray(R"({"spec":{"a":null,"b":1}})")
                                           << QByteArray(R"({"spec":{"b":1}})");
    QTest::newRow("an empty patch changes nothing") << QByteArray("Deployment")
                                                    << QByteArray(R"({"spec":{"replicas":1}})") << QByteArray("{}")
                                                    << QByteArray(R"({"spec":{"replicas":1}})");
    QTest::newRow("lists outside the schema are replaced")
        << QByteArray("ConfigMap") << QByteArray(R"({"extra":[{"name":"a"},{"name":"b"}]})")
        << QByteArray(R"({"extra":[{"name":"c"}]})") << QByteArray(R"({"extra":[{"name":"c"}]})");
    QTest::newRow("a kind without schema replaces finalizers")
        << QByteArray("Widget") << QByteArray(R"({"metadata":{"finalizers":["a"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["b"]}})") << QByteArray(R"({"metadata":{"finalizers":["b"]}})");
    QTest::newRow("a kind without schema replaces containers")
        << QByteArray("Widget") << QByteArray(R"({"spec":{"containers":[{"name":"a","image":"1"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b"}]}})");
    QTest::newRow("a kind without schema still applies directives")
        << QByteArray("Widget") << QByteArray(R"({"spec":{"a":{"b":1},"c":{"d":1,"e":2}}})")
        << QByteArray(R"({"spec":{"a":{"$patch":"delete"},"c":{"$retainKeys":["e"],"e":3}}})")
        << QByteArray(R"({"spec":{"c":{"e":3}}})");
}

void TestStrategicMergePatch::mergesMapsLikeMergePatch()
{
    verifyPatch();
}

void TestStrategicMergePatch::mergesListsBySchema_data()
{
    addColumns();
    QTest::newRow("Pod containers merge on name")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"nginx:1","command":["nginx"]},)"
                      R"({"name":"side","image":"busybox"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"nginx:2"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"nginx:2","command":["nginx"]},)"
                      R"({"name":"side","image":"busybox"}]}})");
    QTest::newRow("a new container lands before live-only ones, as upstream")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app"},{"name":"side"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"new","image":"x"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"new","image":"x"},{"name":"app"},{"name":"side"}]}})");
    QTest::newRow("a patched live element keeps its place among live-only ones")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b","image":"x"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"a"},{"name":"b","image":"x"},{"name":"c"}]}})");
    QTest::newRow("upstream: preserve the order from the patch in a merging list")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"2","image":"b"},{"name":"3"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"3","image":"c"},{"name":"1","image":"a"},)"
                      R"({"name":"2","args":["x"]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"3","image":"c"},{"name":"1","image":"a"},)"
                      R"({"name":"2","image":"b","args":["x"]}]}})");
    QTest::newRow("upstream: preserve the order from the patch in a merging list 2")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"2","image":"b"},{"name":"3"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"3","image":"c"},{"name":"1","image":"a"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"2","image":"b"},{"name":"3","image":"c"},)"
                      R"({"name":"1","image":"a"}]}})");
    QTest::newRow("env merges on name inside a container")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"3"}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"3"}]}]}})");
    QTest::newRow("ports merge on containerPort")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"protocol":"TCP"}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"name":"http"},{"containerPort":443}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"protocol":"TCP","name":"http"},)"
                      R"({"containerPort":443}]}]}})");
    QTest::newRow("volumeMounts merge on mountPath")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","volumeMounts":[{"name":"data","mountPath":"/data"},{"name":"tmp","mountPath":"/tmp"}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","volumeMounts":[{"name":"cache","mountPath":"/data"}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","volumeMounts":[{"name":"cache","mountPath":"/data"},{"name":"tmp","mountPath":"/tmp"}]}]}})");
    QTest::newRow("initContainers merge on name")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"initContainers":[{"name":"init","image":"a"}]}})")
        << QByteArray(R"({"spec":{"initContainers":[{"name":"init","args":["x"]}]}})")
        << QByteArray(R"({"spec":{"initContainers":[{"name":"init","image":"a","args":["x"]}]}})");
    QTest::newRow("volumes merge on name")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"volumes":[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"a"}}]}})")
        << QByteArray(R"({"spec":{"volumes":[{"name":"cfg","configMap":{"name":"b"}}]}})")
        << QByteArray(R"({"spec":{"volumes":[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"b"}}]}})");
    QTest::newRow("tolerations are replaced whole")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"tolerations":[{"key":"a","operator":"Exists"},{"key":"b","operator":"Exists"}]}})")
        << QByteArray(R"({"spec":{"tolerations":[{"key":"c","operator":"Exists"}]}})")
        << QByteArray(R"({"spec":{"tolerations":[{"key":"c","operator":"Exists"}]}})");
    QTest::newRow("command and args are replaced whole")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","command":["a","b"],"args":["x"]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","command":["c"],"args":[]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","command":["c"],"args":[]}]}})");
    QTest::newRow("envFrom is replaced whole")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","envFrom":[{"configMapRef":{"name":"a"}}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","envFrom":[{"secretRef":{"name":"s"}}]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","envFrom":[{"secretRef":{"name":"s"}}]}]}})");
    QTest::newRow("Pod status conditions merge on type")
        << QByteArray("Pod")
        << QByteArray(R"({"status":{"conditions":[{"type":"Initialized","status":"True"},{"type":"Ready","status":"False","reason":"ContainersNotReady"}]}})")
        << QByteArray(R"({"status":{"conditions":[{"type":"Ready","status":"True","reason":null}]}})")
        << QByteArray(R"({"status":{"conditions":[{"type":"Initialized","status":"True"},{"type":"Ready","status":"True"}]}})");
    QTest::newRow("podIPs merge on ip")
        << QByteArray("Pod") << QByteArray(R"({"status":{"podIPs":[{"ip":"10.0.0.5"}]}})")
        << QByteArray(R"({"status":{"podIPs":[{"ip":"fd00::5"}]}})")
        << QByteArray(R"({"status":{"podIPs":[{"ip":"fd00::5"},{"ip":"10.0.0.5"}]}})");
    QTest::newRow("finalizers take the union, deduplicated")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{"finalizers":["a","b"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["b","c","c"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["a","b","c"]}})");
    QTest::newRow("finalizers added to an object without any")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"name":"x"}})")
        << QByteArray(R"({"metadata":{"finalizers":["x/y","x/y"]}})")
        << QByteArray(R"({"metadata":{"name":"x","finalizers":["x/y"]}})");
    QTest::newRow("upstream: preserve the order from the patch in a merging int list")
        << QByteArray("Secret") << QByteArray(R"({"metadata":{"finalizers":["1","2","3"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["3","1"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["2","3","1"]}})");
    QTest::newRow("ownerReferences merge on uid")
        << QByteArray("ConfigMap")
        << QByteArray(R"({"metadata":{"ownerReferences":[{"uid":"u1","kind":"ReplicaSet","name":"rs1","controller":true},{"uid":"u2","kind":"Job","name":"j"}]}})")
        << QByteArray(R"({"metadata":{"ownerReferences":[{"uid":"u1","blockOwnerDeletion":true}]}})")
        << QByteArray(R"({"metadata":{"ownerReferences":[{"uid":"u1","kind":"ReplicaSet","name":"rs1","controller":true,"blockOwnerDeletion":true},)"
                      R"({"uid":"u2","kind":"Job","name":"j"}]}})");
    QTest::newRow("Deployment template containers merge on name")
        << QByteArray("Deployment")
        << QByteArray(R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"1","env":[{"name":"A","value":"1"}]}]}}}})")
        << QByteArray(R"({"spec":{"template":{"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"2"}]}]}}}})")
        << QByteArray(R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"1","env":[{"name":"B","value":"2"},{"name":"A","value":"1"}]}]}}}})");
    QTest::newRow("Deployment template finalizers are a merge list too")
        << QByteArray("Deployment") << QByteArray(R"({"spec":{"template":{"metadata":{"finalizers":["a"]}}}})")
        << QByteArray(R"({"spec":{"template":{"metadata":{"finalizers":["b"]}}}})")
        << QByteArray(R"({"spec":{"template":{"metadata":{"finalizers":["b","a"]}}}})");
    QTest::newRow("Deployment status conditions merge on type")
        << QByteArray("Deployment")
        << QByteArray(R"({"status":{"conditions":[{"type":"Available","status":"False"},{"type":"Progressing","status":"True"}]}})")
        << QByteArray(R"({"status":{"conditions":[{"type":"Available","status":"True"}]}})")
        << QByteArray(R"({"status":{"conditions":[{"type":"Available","status":"True"},{"type":"Progressing","status":"True"}]}})");
    QTest::newRow("Service ports merge on port")
        << QByteArray("Service")
        << QByteArray(R"({"spec":{"ports":[{"port":80,"targetPort":8080,"name":"http"},{"port":443,"name":"https"}]}})")
        << QByteArray(R"({"spec":{"ports":[{"port":80,"targetPort":9090}]}})")
        << QByteArray(R"({"spec":{"ports":[{"port":80,"targetPort":9090,"name":"http"},{"port":443,"name":"https"}]}})");
    QTest::newRow("Node addresses merge on type")
        << QByteArray("Node")
        << QByteArray(R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.1"},{"type":"Hostname","address":"n1"}]}})")
        << QByteArray(R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.2"}]}})")
        << QByteArray(R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.2"},{"type":"Hostname","address":"n1"}]}})");
    QTest::newRow("Namespace status conditions merge on type")
        << QByteArray("Namespace")
        << QByteArray(R"({"status":{"phase":"Active","conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"False"}]}})")
        << QByteArray(R"({"status":{"conditions":[{"type":"NamespaceDeletionContentFailure","status":"False"}]}})")
        << QByteArray(R"({"status":{"phase":"Active","conditions":[{"type":"NamespaceDeletionContentFailure","status":"False"},)"
                      R"({"type":"NamespaceDeletionDiscoveryFailure","status":"False"}]}})");
    QTest::newRow("an empty patch list leaves a merge list alone")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app"}]}})")
        << QByteArray(R"({"spec":{"containers":[]}})") << QByteArray(R"({"spec":{"containers":[{"name":"app"}]}})");
    QTest::newRow("null deletes a merge list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app"}],"tolerations":[]}})")
        << QByteArray(R"({"spec":{"containers":null,"tolerations":null}})") << QByteArray(R"({"spec":{}})");
}

void TestStrategicMergePatch::mergesListsBySchema()
{
    verifyPatch();
}

void TestStrategicMergePatch::appliesPatchDirectives_data()
{
    addColumns();
    QTest::newRow("$patch delete removes a list element")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app"},{"name":"side","image":"b"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"side","$patch":"delete"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app"}]}})");
    QTest::newRow("upstream: $patch delete removes every element with the key")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"1"},{"name":"2","image":"a"},{"name":"3"},{"name":"3"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"1","$patch":"delete"},{"name":"3","$patch":"delete"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"2","image":"a"}]}})");
    QTest::newRow("upstream: delete all maps from a merging list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"2"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"1","$patch":"delete"},{"name":"2","$patch":"delete"}]}})")
        << QByteArray(R"({"spec":{"containers":[]}})");
    QTest::newRow("$patch delete of an absent element changes nothing")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"ghost","$patch":"delete"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app"}]}})");
    QTest::newRow("$patch delete and a merge in one list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"1"},{"name":"side"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"side","$patch":"delete"},{"name":"app","image":"2"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"2"}]}})");
    QTest::newRow("$patch replace element makes the rest the whole list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"1"},{"name":"side"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b","image":"2"},{"$patch":"replace"},{"name":"a"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b","image":"2"},{"name":"a"}]}})");
    QTest::newRow("$patch replace does not merge with the live element")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"1","args":["x"]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"$patch":"replace"},{"name":"app","image":"2"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","image":"2"}]}})");
    QTest::newRow("upstream: $patch replace alone empties the list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"2"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"$patch":"replace"}]}})")
        << QByteArray(R"({"spec":{"containers":[]}})");
    QTest::newRow("$patch replace on a map replaces it")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{"labels":{"a":"1","b":"2"},"name":"p"}})")
        << QByteArray(R"({"metadata":{"labels":{"$patch":"replace","c":"3"}}})")
        << QByteArray(R"({"metadata":{"labels":{"c":"3"},"name":"p"}})");
    QTest::newRow("upstream: delete all keys from a map")
        << QByteArray("ConfigMap") << QByteArray(R"({"data":{"name":"1","value":"1"}})")
        << QByteArray(R"({"data":{"$patch":"replace"}})") << QByteArray(R"({"data":{}})");
    QTest::newRow("$patch replace drops nulls and applies nested directives")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{"labels":{"a":"1"}}})")
        << QByteArray(R"({"metadata":{"labels":{"$patch":"replace","c":"3","d":null,"e":{"$patch":"delete"}}}})")
        << QByteArray(R"({"metadata":{"labels":{"c":"3"}}})");
    QTest::newRow("$patch replace at the root")
        << QByteArray("ConfigMap") << QByteArray(R"({"kind":"ConfigMap","metadata":{"name":"a"},"data":{"x":"1"}})")
        << QByteArray(R"({"$patch":"replace","kind":"ConfigMap","data":{"y":"2"}})")
        << QByteArray(R"({"kind":"ConfigMap","data":{"y":"2"}})");
    QTest::newRow("$patch delete removes a map")
        << QByteArray("Deployment")
        << QByteArray(R"({"spec":{"replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})")
        << QByteArray(R"({"spec":{"strategy":{"$patch":"delete","type":"ignored"}}})")
        << QByteArray(R"({"spec":{"replicas":1}})");
    QTest::newRow("$patch delete of an absent map adds nothing")
        << QByteArray("Deployment") << QByteArray(R"({"spec":{"replicas":1}})")
        << QByteArray(R"({"spec":{"strategy":{"$patch":"delete"}}})") << QByteArray(R"({"spec":{"replicas":1}})");
    QTest::newRow("$patch delete at the root empties the object")
        << QByteArray("ConfigMap") << QByteArray(R"({"kind":"ConfigMap","data":{"x":"1"}})")
        << QByteArray(R"({"$patch":"delete"})") << QByteArray("{}");
    QTest::newRow("directives inside a member the original lacks are applied")
        << QByteArray("Deployment") << QByteArray(R"({"spec":{"template":{"spec":{"containers":[{"name":"app"}]}}}})")
        << QByteArray(R"({"spec":{"template":{"spec":{"$setElementOrder/volumes":[{"name":"v"}],)"
                      R"("volumes":[{"$retainKeys":["configMap","name"],"name":"v","configMap":{"name":"c"},"emptyDir":null},)"
                      R"({"name":"gone","$patch":"delete"}]}}}})")
        << QByteArray(R"({"spec":{"template":{"spec":{"containers":[{"name":"app"}],"volumes":[{"name":"v","configMap":{"name":"c"}}]}}}})");
    QTest::newRow("upstream: nested patch merge with empty list")
        << QByteArray("Pod") << QByteArray(R"({"metadata":{"name":"hi"}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"hello"},{"$patch":"delete","name":"doesntexist"}]}})")
        << QByteArray(R"({"metadata":{"name":"hi"},"spec":{"containers":[{"name":"hello"}]}})");
    QTest::newRow("directives inside a new list element are applied")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"new","$setElementOrder/env":[{"name":"A"}],)"
                      R"("env":[{"name":"A","value":"1"},{"name":"B","$patch":"delete"}],"resources":{"limits":null}}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"new","env":[{"name":"A","value":"1"}],"resources":{}},{"name":"app"}]}})");
    QTest::newRow("a $patch element in a replaced list is dropped")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"tolerations":[{"key":"a"}]}})")
        << QByteArray(R"({"spec":{"tolerations":[{"key":"b"},{"key":"c","$patch":"delete"}]}})")
        << QByteArray(R"({"spec":{"tolerations":[{"key":"b"}]}})");
}

void TestStrategicMergePatch::appliesPatchDirectives()
{
    verifyPatch();
}

void TestStrategicMergePatch::appliesRetainKeys_data()
{
    addColumns();
    QTest::newRow("a volume switches its source")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"}},{"name":"w","emptyDir":{}}]}})")
        << QByteArray(R"({"spec":{"volumes":[{"$retainKeys":["configMap","name"],"name":"v","configMap":{"name":"c"}}]}})")
        << QByteArray(R"({"spec":{"volumes":[{"name":"v","configMap":{"name":"c"}},{"name":"w","emptyDir":{}}]}})");
    QTest::newRow("Deployment strategy Recreate clears rollingUpdate")
        << QByteArray("Deployment")
        << QByteArray(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}})")
        << QByteArray(R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})")
        << QByteArray(R"({"spec":{"strategy":{"type":"Recreate"}}})");
    QTest::newRow("retained members still merge")
        << QByteArray("Deployment")
        << QByteArray(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}})")
        << QByteArray(R"({"spec":{"strategy":{"$retainKeys":["type","rollingUpdate"],"rollingUpdate":{"maxSurge":1}}}})")
        << QByteArray(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":"25%"}}}})");
    QTest::newRow("null members need not be listed")
        << QByteArray("Deployment")
        << QByteArray(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})")
        << QByteArray(R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate","rollingUpdate":null}}})")
        << QByteArray(R"({"spec":{"strategy":{"type":"Recreate"}}})");
    QTest::newRow("an empty $retainKeys clears the map")
        << QByteArray("ConfigMap") << QByteArray(R"({"data":{"a":"1","b":"2"}})")
        << QByteArray(R"({"data":{"$retainKeys":[]}})") << QByteArray(R"({"data":{}})");
    QTest::newRow("upstream: without $retainKeys a retainKeys map merges")
        << QByteArray("Deployment") << QByteArray(R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})")
        << QByteArray(R"({"spec":{"strategy":{"type":"Recreate"}}})")
        << QByteArray(R"({"spec":{"strategy":{"type":"Recreate","rollingUpdate":{"maxSurge":1}}}})");
}

void TestStrategicMergePatch::appliesRetainKeys()
{
    verifyPatch();
}

void TestStrategicMergePatch::appliesSetElementOrder_data()
{
    addColumns();
    QTest::newRow("order only: reorders the live list")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"a"},{"name":"b"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"c"},{"name":"a"},{"name":"b"}]}})");
    QTest::newRow("places a new element where the order says")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"a"},{"name":"b"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"new"},{"name":"a"}],)"
                      R"("containers":[{"name":"new","image":"n"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b"},{"name":"new","image":"n"},{"name":"a"}]}})");
    QTest::newRow("upstream: merge lists of maps")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"2","image":"2"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"4"},{"name":"1"},{"name":"2"},{"name":"3"}],)"
                      R"("containers":[{"name":"4","image":"4"},{"name":"3","image":"3"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"4","image":"4"},{"name":"1"},{"name":"2","image":"2"},{"name":"3","image":"3"}]}})");
    QTest::newRow("upstream: merge lists of maps on a live list with extra fields")
        << QByteArray("Pod")
        << QByteArray(R"({"spec":{"containers":[{"name":"1","args":["a"]},{"name":"2","image":"2","args":["b"]}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"4"},{"name":"1"},{"name":"2"},{"name":"3"}],)"
                      R"("containers":[{"name":"4","image":"4"},{"name":"3","image":"3"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"4","image":"4"},{"name":"1","args":["a"]},)"
                      R"({"name":"2","image":"2","args":["b"]},{"name":"3","image":"3"}]}})");
    QTest::newRow("upstream: an order entry absent from both lists is ignored")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"1"},{"name":"3"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"3"},{"name":"2"},{"name":"1"}],)"
                      R"("containers":[{"name":"3","image":"3"},{"name":"1","image":"1"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"3","image":"3"},{"name":"1","image":"1"}]}})");
    QTest::newRow("a live-only element keeps its slot")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"a"},{"name":"x"},{"name":"b"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],)"
                      R"("containers":[{"name":"a","image":"2"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"x"},{"name":"b"},{"name":"a","image":"2"}]}})");
    QTest::newRow("deleted elements may stay out of the order")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"a"},{"name":"b"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"b"}],)"
                      R"("containers":[{"name":"a","$patch":"delete"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b"}]}})");
    QTest::newRow("for a primitive list")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"finalizers":["a","b","c"]}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["c","a","b"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["c","a","b"]}})");
    QTest::newRow("for a primitive list with an addition")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"finalizers":["a","b"]}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["a","n","b"],"finalizers":["n"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["a","n","b"]}})");
    QTest::newRow("upstream: an order entry absent from the int list is ignored")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"finalizers":["1","3"]}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["3","2","1"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["3","1"]}})");
    QTest::newRow("creates the list when only the patch has it")
        << QByteArray("Pod") << QByteArray(R"({"spec":{}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],)"
                      R"("containers":[{"name":"b"},{"name":"a"}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"b"},{"name":"a"}]}})");
    QTest::newRow("order for a list neither side has changes nothing")
        << QByteArray("Pod") << QByteArray(R"({"spec":{}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"a"}]}})") << QByteArray(R"({"spec":{}})");
    QTest::newRow("a null list is deleted despite an order")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"a"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":null}})")
        << QByteArray(R"({"spec":{}})");
    QTest::newRow("for a list replaced whole")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"tolerations":[{"key":"a"}]}})")
        << QByteArray(R"({"spec":{"$setElementOrder/tolerations":[{"key":"c"},{"key":"b"}],)"
                      R"("tolerations":[{"key":"c"},{"key":"b"}]}})")
        << QByteArray(R"({"spec":{"tolerations":[{"key":"c"},{"key":"b"}]}})");
}

void TestStrategicMergePatch::appliesSetElementOrder()
{
    verifyPatch();
}

void TestStrategicMergePatch::appliesDeleteFromPrimitiveList_data()
{
    addColumns();
    QTest::newRow("removes a finalizer") << QByteArray("ConfigMap")
                                         << QByteArray(R"({"metadata":{"finalizers":["a","b","c"]}})")
                                         << QByteArray(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}})")
                                         << QByteArray(R"({"metadata":{"finalizers":["a","c"]}})");
    QTest::newRow("removes every copy") << QByteArray("ConfigMap")
                                        << QByteArray(R"({"metadata":{"finalizers":["a","b","b","c"]}})")
                                        << QByteArray(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b","c"]}})")
                                        << QByteArray(R"({"metadata":{"finalizers":["a"]}})");
    QTest::newRow("upstream: an absent value is not added")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"finalizers":["1","2"]}})")
        << QByteArray(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["3"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["1","2"]}})");
    QTest::newRow("upstream: an absent list is not created")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"name":"x"}})")
        << QByteArray(R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["3"]}})")
        << QByteArray(R"({"metadata":{"name":"x"}})");
    QTest::newRow("upstream: works on a list without merge strategy")
        << QByteArray("Pod") << QByteArray(R"({"spec":{"containers":[{"name":"app","args":["x","y","z"]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","$deleteFromPrimitiveList/args":["y"]}]}})")
        << QByteArray(R"({"spec":{"containers":[{"name":"app","args":["x","z"]}]}})");
    QTest::newRow("upstream: delete items in lists of scalars")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"finalizers":["1","2","3","4"]}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["1","2"],"$deleteFromPrimitiveList/finalizers":["3"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["1","2","4"]}})");
    QTest::newRow("upstream: add and delete items in lists of scalars")
        << QByteArray("ConfigMap") << QByteArray(R"({"metadata":{"finalizers":["1","2","3"]}})")
        << QByteArray(R"({"metadata":{"$setElementOrder/finalizers":["1","2","4"],)"
                      R"("$deleteFromPrimitiveList/finalizers":["3"],"finalizers":["4"]}})")
        << QByteArray(R"({"metadata":{"finalizers":["1","2","4"]}})");
}

void TestStrategicMergePatch::appliesDeleteFromPrimitiveList()
{
    verifyPatch();
}

void TestStrategicMergePatch::doesNotModifyInputs()
{
    const QByteArray originalText = R"({"metadata":{"finalizers":["a","b"]},"spec":{"containers":[{"name":"a","env":[{"name":"X"}]}],)"
                                    R"("volumes":[{"name":"v","emptyDir":{}}]}})";
    const QByteArray patchText = R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]},"spec":{"$setElementOrder/containers":[{"name":"a"}],)"
                                 R"("containers":[{"name":"a","env":[{"name":"X","$patch":"delete"}]}],)"
                                 R"("volumes":[{"name":"v","$retainKeys":["name","secret"],"secret":{"secretName":"s"}}]}})";
    const json original = parsed(originalText);
    const json patch = parsed(patchText);
    const rvscope::model::Result<json> result = applyStrategicMergePatch(original, patch, "Pod");
    QVERIFY(result.ok());
    COMPARE_JSON(*result, parsed(R"({"metadata":{"finalizers":["b"]},"spec":{"containers":[{"name":"a","env":[]}],)"
                                 R"("volumes":[{"name":"v","secret":{"secretName":"s"}}]}})"));
    COMPARE_JSON(original, parsed(originalText));
    COMPARE_JSON(patch, parsed(patchText));
}

// The bodies below are the literal ones kubectl 1.32 sent (wire contract section 4.4), applied
// to live objects as the apiserver stores them, with the whole expected result written out.
QTEST_GUILESS_MAIN(TestStrategicMergePatch)
#include "TestStrategicMergePatch.moc"
