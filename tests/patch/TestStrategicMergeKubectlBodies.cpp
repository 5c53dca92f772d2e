// SPDX-License-Identifier: MIT
// The strategic merge patch bodies kubectl and the kubelet really send (wire contract §4.4),
// applied to realistic live objects, with the expected results written out.
#include <functional>

#include <QTest>

#include "PatchTestSupport.h"
#include "patch/StrategicMergePatch.h"

using nlohmann::json;
using rvscope::patch::applyStrategicMergePatch;
using rvscope::patch::test::parsed;

class TestStrategicMergeKubectlBodies final : public QObject {
    Q_OBJECT

private slots:
    void kubectlPatchConfigMap();
    void kubectlEditConfigMap();
    void kubectlApplyConfigMapSecondRun();
    void kubectlApplyDeploymentAfterRemovingContainerEnvAndVolumeSource();
    void kubectlReapplyOriginalDeploymentClearsFinalizersAndStrategy();
    void kubectlSetImage();
    void kubectlRolloutRestart();
    void kubeletStyleStatusPatchOnPod();
};

namespace {
const QByteArray LIVE_CONFIGMAP = R"json({
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {
    "name": "foo", "namespace": "default", "uid": "0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
    "resourceVersion": "17", "creationTimestamp": "2024-01-02T03:04:05Z",
    "labels": {"app": "demo"},
    "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"s\":\"1\",\"x\":\"1\",\"y\":\"2\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"demo\"},\"name\":\"foo\",\"namespace\":\"default\"}}\n"}
  },
  "data": {"a": "1", "s": "1", "x": "1", "y": "2"}
})json";

const QByteArray LIVE_DEPLOYMENT = R"json({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {
    "name": "web", "namespace": "default", "uid": "6f1c2a0e-8a43-4d8e-9a55-3f1f1b8f2c10",
    "resourceVersion": "1042", "generation": 1, "creationTimestamp": "2024-01-02T03:04:05Z",
    "labels": {"app": "web"},
    "annotations": {"deployment.kubernetes.io/revision": "1",
                    "kubectl.kubernetes.io/last-applied-configuration": "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"}\n"}
  },
  "spec": {
    "replicas": 1,
    "selector": {"matchLabels": {"app": "web"}},
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
    "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
    "template": {
      "metadata": {"labels": {"app": "web"}},
      "spec": {
        "containers": [
          {"name": "app", "image": "nginx:1", "imagePullPolicy": "IfNotPresent",
           "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
           "ports": [{"containerPort": 80, "protocol": "TCP"}],
           "volumeMounts": [{"name": "v1", "mountPath": "/data"}],
           "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"},
          {"name": "side", "image": "busybox:1.36", "command": ["sleep", "3600"], "imagePullPolicy": "IfNotPresent",
           "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
        ],
        "volumes": [{"name": "v1", "emptyDir": {}}],
        "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
        "securityContext": {}, "schedulerName": "default-scheduler"
      }
    }
  },
  "status": {
    "observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1,
    "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
                   {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]
  }
})json";

json applied(const QByteArray &original, const QByteArray &patch, const char *kind)
{
    const rvscope::model::Result<json> result = applyStrategicMergePatch(parsed(original), parsed(patch), kind);
    if (!result.ok())
        return json{{"unexpected error", result.error().message}};
    return *result;
}

// `live` with `edit` applied, to write an expected object as "the live one, except ...".
// JSON patch is a separate, separately tested module; the expectation does not go through SMP.
json liveExcept(const QByteArray &live, const std::function<void(json &)> &edit)
{
    json object = parsed(live);
    edit(object);
    return object;
}
} // namespace

void TestStrategicMergeKubectlBodies::kubectlPatchConfigMap()
{
    // `kubectl patch cm foo -p '{"data":{"s":"3"}}'` (default --type=strategic).
    COMPARE_JSON(applied(LIVE_CONFIGMAP, R"({"data":{"s":"3"}})", "ConfigMap"),
                 liveExcept(LIVE_CONFIGMAP, [](json &o) { o["data"]["s"] = "3"; }));
}

void TestStrategicMergeKubectlBodies::kubectlEditConfigMap()
{
    // `kubectl edit` sends a two-way diff without resourceVersion.
    COMPARE_JSON(applied(LIVE_CONFIGMAP, R"({"data":{"a":"edited"}})", "ConfigMap"),
                 liveExcept(LIVE_CONFIGMAP, [](json &o) { o["data"]["a"] = "edited"; }));
}

void TestStrategicMergeKubectlBodies::kubectlApplyConfigMapSecondRun()
{
    const QByteArray body = R"json({"data":{"y":null,"z":"3"},"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"s\":\"1\",\"x\":\"1\",\"z\":\"3\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"foo\",\"namespace\":\"default\"}}\n"},"labels":null}})json";
    COMPARE_JSON(applied(LIVE_CONFIGMAP, body, "ConfigMap"), parsed(R"json({
      "apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {
        "name": "foo", "namespace": "default", "uid": "0c5e9a1e-5d8b-4c52-9d4e-0b8c3a7f1e21",
        "resourceVersion": "17", "creationTimestamp": "2024-01-02T03:04:05Z",
        "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"1\",\"s\":\"1\",\"x\":\"1\",\"z\":\"3\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"foo\",\"namespace\":\"default\"}}\n"}
      },
      "data": {"a": "1", "s": "1", "x": "1", "z": "3"}
    })json"));
}

void TestStrategicMergeKubectlBodies::kubectlApplyDeploymentAfterRemovingContainerEnvAndVolumeSource()
{
    // Client-side apply after removing container "side" and env A, adding env C, bumping the
    // image and replicas, switching volume v1 from emptyDir to a ConfigMap, adding a finalizer
    // and setting the strategy. The body is the recorded one, with the elided metadata filled in.
    const QByteArray body = R"json({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"spec\":{\"replicas\":2}}\n"},"finalizers":["x/y"]},"spec":{"replicas":2,"strategy":{"type":"Recreate"},"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"$setElementOrder/volumes":[{"name":"v1"}],"containers":[{"$setElementOrder/env":[{"name":"B"},{"name":"C"}],"env":[{"name":"C","value":"3"},{"$patch":"delete","name":"A"}],"image":"nginx:2","name":"app"},{"$patch":"delete","name":"side"}],"volumes":[{"$retainKeys":["configMap","name"],"configMap":{"name":"foo"},"emptyDir":null,"name":"v1"}]}}}})json";

    // The strategy body carries no $retainKeys, so the live rollingUpdate survives the merge
    // (the apiserver's validation would then reject Recreate + rollingUpdate; that is not the
    // patch library's business).
    COMPARE_JSON(applied(LIVE_DEPLOYMENT, body, "Deployment"), parsed(R"json({
      "apiVersion": "apps/v1", "kind": "Deployment",
      "metadata": {
        "name": "web", "namespace": "default", "uid": "6f1c2a0e-8a43-4d8e-9a55-3f1f1b8f2c10",
        "resourceVersion": "1042", "generation": 1, "creationTimestamp": "2024-01-02T03:04:05Z",
        "labels": {"app": "web"},
        "annotations": {"deployment.kubernetes.io/revision": "1",
                        "kubectl.kubernetes.io/last-applied-configuration": "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"spec\":{\"replicas\":2}}\n"},
        "finalizers": ["x/y"]
      },
      "spec": {
        "replicas": 2,
        "selector": {"matchLabels": {"app": "web"}},
        "strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
        "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
        "template": {
          "metadata": {"labels": {"app": "web"}},
          "spec": {
            "containers": [
              {"name": "app", "image": "nginx:2", "imagePullPolicy": "IfNotPresent",
               "env": [{"name": "B", "value": "2"}, {"name": "C", "value": "3"}],
               "ports": [{"containerPort": 80, "protocol": "TCP"}],
               "volumeMounts": [{"name": "v1", "mountPath": "/data"}],
               "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
            ],
            "volumes": [{"name": "v1", "configMap": {"name": "foo"}}],
            "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
            "securityContext": {}, "schedulerName": "default-scheduler"
          }
        }
      },
      "status": {
        "observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1,
        "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
                       {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]
      }
    })json"));
}

void TestStrategicMergeKubectlBodies::kubectlReapplyOriginalDeploymentClearsFinalizersAndStrategy()
{
    // Re-applying the original manifest sent "finalizers":null and "strategy":null.
    const QByteArray withFinalizer =
        QByteArray::fromStdString(liveExcept(LIVE_DEPLOYMENT, [](json &o) {
                                      o["metadata"]["finalizers"] = {"x/y"};
                                  }).dump());
    const QByteArray body = R"json({"metadata":{"finalizers":null},"spec":{"strategy":null}})json";
    COMPARE_JSON(applied(withFinalizer, body, "Deployment"), liveExcept(LIVE_DEPLOYMENT, [](json &o) {
                     o["spec"].erase("strategy");
                 }));
}

void TestStrategicMergeKubectlBodies::kubectlSetImage()
{
    // `kubectl set image deploy/web app=nginx:3`: a two-way diff that names every container
    // in $setElementOrder/containers and changes one image.
    const QByteArray body = R"json({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"},{"name":"side"}],"containers":[{"image":"nginx:3","name":"app"}]}}}})json";
    COMPARE_JSON(applied(LIVE_DEPLOYMENT, body, "Deployment"), liveExcept(LIVE_DEPLOYMENT, [](json &o) {
                     o["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:3";
                 }));
}

void TestStrategicMergeKubectlBodies::kubectlRolloutRestart()
{
    const QByteArray body = R"json({"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2024-05-06T07:08:09Z"}}}}})json";
    COMPARE_JSON(applied(LIVE_DEPLOYMENT, body, "Deployment"), liveExcept(LIVE_DEPLOYMENT, [](json &o) {
                     o["spec"]["template"]["metadata"]["annotations"] = {
                         {"kubectl.kubernetes.io/restartedAt", "2024-05-06T07:08:09Z"}};
                 }));
}

void TestStrategicMergeKubectlBodies::kubeletStyleStatusPatchOnPod()
{
    const QByteArray pod = R"json({
      "apiVersion": "v1", "kind": "Pod",
      "metadata": {"name": "web-7d4b9c-x2x9z", "namespace": "default", "uid": "1b2c3d4e-0000-4000-8000-000000000001",
                   "resourceVersion": "2001", "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                   "name": "web-7d4b9c", "uid": "9e8d7c6b-0000-4000-8000-000000000002", "controller": true}]},
      "spec": {"nodeName": "n1", "containers": [{"name": "app", "image": "nginx:1"}]},
      "status": {"phase": "Pending",
                 "conditions": [{"type": "PodScheduled", "status": "True"},
                                {"type": "Initialized", "status": "True"},
                                {"type": "Ready", "status": "False", "reason": "ContainersNotReady"}],
                 "podIPs": [{"ip": "10.0.0.5"}], "hostIP": "192.168.1.10"}
    })json";
    // The kubelet's status manager sends a two-way SMP with $setElementOrder/conditions.
    const QByteArray body = R"json({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"},{"type":"Initialized"},{"type":"ContainersReady"},{"type":"Ready"}],"conditions":[{"type":"ContainersReady","status":"True"},{"type":"Ready","status":"True","reason":null}],"phase":"Running"}})json";
    COMPARE_JSON(applied(pod, body, "Pod"), liveExcept(pod, [](json &o) {
                     o["status"]["phase"] = "Running";
                     o["status"]["conditions"] = json::parse(
                         R"([{"type":"PodScheduled","status":"True"},{"type":"Initialized","status":"True"},)"
                         R"({"type":"ContainersReady","status":"True"},{"type":"Ready","status":"True"}])");
                 }));
}


QTEST_GUILESS_MAIN(TestStrategicMergeKubectlBodies)
#include "TestStrategicMergeKubectlBodies.moc"
