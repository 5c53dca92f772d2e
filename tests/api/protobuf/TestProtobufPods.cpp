// SPDX-License-Identifier: MIT
// Pods as kubectl encodes them in protobuf, decoded to the JSON kubectl itself prints.
#include "ProtobufTestSupport.h"

using namespace protobuf_test;

class TestProtobufPods final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testPodFromKubectlRun();
    void testPodWithVolumesAndTolerations();
    void testPodMatchesKubectlTypedJson();
};

void TestProtobufPods::testPodFromKubectlRun()
{
    // `kubectl run demo --image=busybox --labels=app=demo --env=FOO=bar --port=8080 -- sleep 3600`
    // builds this Pod (kubectl 1.32 sends it as JSON; client-go programs send Pods as protobuf).
    core::Pod pod;
    newObjectMeta(pod.mutable_metadata(), "demo");
    (*pod.mutable_metadata()->mutable_labels())["app"] = "demo";
    core::Container *container = pod.mutable_spec()->add_containers();
    container->set_name("demo");
    container->set_image("busybox");
    container->add_args("sleep");
    container->add_args("3600");
    container->add_ports()->set_containerport(8080);
    core::EnvVar *env = container->add_env();
    env->set_name("FOO");
    env->set_value("bar");
    container->mutable_resources();
    pod.mutable_spec()->set_restartpolicy("Always");
    pod.mutable_spec()->set_dnspolicy("ClusterFirst");
    pod.mutable_status();

    // The JSON body kubectl sent for that command, byte for byte.
    compareDecoded(envelope("v1", "Pod", pod),
                   R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"demo","creationTimestamp":null,)"
                   R"("labels":{"app":"demo"}},"spec":{"containers":[{"name":"demo","image":"busybox",)"
                   R"("args":["sleep","3600"],"ports":[{"containerPort":8080}],"env":[{"name":"FOO","value":"bar"}],)"
                   R"("resources":{}}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst"},"status":{}})");
}

void TestProtobufPods::testPodWithVolumesAndTolerations()
{
    core::Pod pod;
    newObjectMeta(pod.mutable_metadata(), "worker");
    core::PodSpec *spec = pod.mutable_spec();

    core::Volume *cache = spec->add_volumes();
    cache->set_name("cache");
    cache->mutable_volumesource()->mutable_emptydir();
    core::Volume *config = spec->add_volumes();
    config->set_name("config");
    core::ConfigMapVolumeSource *configMap = config->mutable_volumesource()->mutable_configmap();
    configMap->mutable_localobjectreference()->set_name("app-config");
    core::KeyToPath *item = configMap->add_items();
    item->set_key("a");
    item->set_path("a.txt");
    configMap->set_defaultmode(420);
    core::Volume *creds = spec->add_volumes();
    creds->set_name("creds");
    creds->mutable_volumesource()->mutable_secret()->set_secretname("creds");
    creds->mutable_volumesource()->mutable_secret()->set_optional(false);

    core::Container *container = spec->add_containers();
    container->set_name("main");
    container->set_image("busybox");
    container->add_command("sh");
    container->set_workingdir("/work");
    core::VolumeMount *mount = container->add_volumemounts();
    mount->set_name("cache");
    mount->set_mountpath("/cache");
    mount = container->add_volumemounts();
    mount->set_name("config");
    mount->set_mountpath("/etc/config");
    mount->set_readonly(true);
    core::EnvVar *podName = container->add_env();
    podName->set_name("POD_NAME");
    podName->mutable_valuefrom()->mutable_fieldref()->set_fieldpath("metadata.name");
    core::EnvVar *password = container->add_env();
    password->set_name("PASSWORD");
    password->mutable_valuefrom()->mutable_secretkeyref()->mutable_localobjectreference()->set_name("creds");
    password->mutable_valuefrom()->mutable_secretkeyref()->set_key("password");
    container->set_stdin(true);
    container->set_tty(true);
    container->set_stdinonce(false);

    core::Toleration *toleration = spec->add_tolerations();
    toleration->set_key("node.kubernetes.io/not-ready");
    toleration->set_operator_("Exists");
    toleration->set_effect("NoExecute");
    toleration->set_tolerationseconds(300);
    spec->set_nodename("node-1");
    spec->set_serviceaccountname("robot");
    spec->set_hostnetwork(true);
    pod.mutable_status()->set_phase("Pending");
    pod.mutable_status()->mutable_starttime()->set_seconds(1704164700);

    compareDecoded(envelope("v1", "Pod", pod), R"({
        "kind": "Pod", "apiVersion": "v1",
        "metadata": {"name": "worker", "creationTimestamp": null},
        "spec": {
            "volumes": [
                {"name": "cache", "emptyDir": {}},
                {"name": "config", "configMap": {"name": "app-config", "items": [{"key": "a", "path": "a.txt"}],
                                                 "defaultMode": 420}},
                {"name": "creds", "secret": {"secretName": "creds", "optional": false}}],
            "containers": [{
                "name": "main", "image": "busybox", "command": ["sh"], "workingDir": "/work",
                "env": [
                    {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                    {"name": "PASSWORD", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "password"}}}],
                "resources": {},
                "volumeMounts": [{"name": "cache", "mountPath": "/cache"},
                                 {"name": "config", "readOnly": true, "mountPath": "/etc/config"}],
                "stdin": true, "tty": true}],
            "nodeName": "node-1", "serviceAccountName": "robot", "hostNetwork": true,
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                             "tolerationSeconds": 300}]},
        "status": {"phase": "Pending", "startTime": "2024-01-02T03:05:00Z"}
    })");
}

void TestProtobufPods::testPodMatchesKubectlTypedJson()
{
    // The Pod of `kubectl run worker --image=busybox --dry-run=client -o json --overrides=...`
    // (volumes, tolerations, a secretKeyRef, a status condition); kubectl printed the typed Go
    // object, so its JSON is the reference for the same object arriving as protobuf.
    core::Pod pod;
    newObjectMeta(pod.mutable_metadata(), "worker");
    (*pod.mutable_metadata()->mutable_labels())["run"] = "worker";
    core::PodSpec *spec = pod.mutable_spec();
    core::Volume *cache = spec->add_volumes();
    cache->set_name("cache");
    cache->mutable_volumesource()->mutable_emptydir();
    core::Volume *creds = spec->add_volumes();
    creds->set_name("creds");
    creds->mutable_volumesource()->mutable_secret()->set_secretname("creds");
    creds->mutable_volumesource()->mutable_secret()->set_optional(false);
    core::Container *container = spec->add_containers();
    container->set_name("worker");
    container->set_image("busybox");
    core::EnvVar *env = container->add_env();
    env->set_name("P");
    env->mutable_valuefrom()->mutable_secretkeyref()->mutable_localobjectreference()->set_name("creds");
    env->mutable_valuefrom()->mutable_secretkeyref()->set_key("password");
    container->mutable_resources();
    spec->set_restartpolicy("Always");
    spec->set_dnspolicy("ClusterFirst");
    core::Toleration *toleration = spec->add_tolerations();
    toleration->set_key("k");
    toleration->set_operator_("Exists");
    toleration->set_effect("NoExecute");
    toleration->set_tolerationseconds(300);
    core::PodCondition *ready = pod.mutable_status()->add_conditions();
    ready->set_type("Ready");
    ready->set_status("True");
    ready->mutable_lastprobetime(); // the zero time as Go writes it; lastTransitionTime absent

    compareDecoded(envelope("v1", "Pod", pod),
                   R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"worker","creationTimestamp":null,)"
                   R"("labels":{"run":"worker"}},"spec":{"volumes":[{"name":"cache","emptyDir":{}},{"name":"creds",)"
                   R"("secret":{"secretName":"creds","optional":false}}],"containers":[{"name":"worker",)"
                   R"("image":"busybox","env":[{"name":"P","valueFrom":{"secretKeyRef":{"name":"creds",)"
                   R"("key":"password"}}}],"resources":{}}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst",)"
                   R"("tolerations":[{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},)"
                   R"("status":{"conditions":[{"type":"Ready","status":"True","lastProbeTime":null,)"
                   R"("lastTransitionTime":null}]}})");
}

QTEST_GUILESS_MAIN(TestProtobufPods)
#include "TestProtobufPods.moc"
