// SPDX-License-Identifier: MIT
// libFuzzer target: every PATCH format applied to realistic stored objects, below the HTTP
// layer. The first input byte picks the format (bits 0-1: JSON patch, merge patch, strategic
// merge patch, server-side apply as YAML or JSON), the live object (bits 2-4: a ConfigMap, a
// Deployment with containers, env, ports and volumes, a Pod, a Service, a Secret; each with
// the managedFields a kubectl client-side apply leaves) and, for an apply, ?force (bit 5);
// the rest is the patch body. The body goes through what PATCH runs: makePatchInfo (content
// type, JSON or YAML parse), the patch itself (PatchObjectInfo::updatedObject, or
// FieldManager::apply with ownership and conflicts), then the patched object through the
// type's decodability check and update strategy and validation, as Store::update does.
// Every outcome must be an error Status with an HTTP error code or a JSON object that
// serializes; a crash, a sanitizer report or an exception out of the patch code is a finding.
// (Its first findings, in apply's YAML reading and its typed conversion, are fixed; their
// inputs are seeds in corpus/fuzz_patch/apply-*.)
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "FuzzSupport.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"
#include "patch/PatchType.h"
#include "registry/FieldManager.h"
#include "registry/UpdatedObjectInfo.h"
#include "registry/validation/ObjectDecoding.h"

using namespace rvscope;

namespace {

constexpr const char *NOW = "2026-01-02T03:04:05Z";

struct Live {
    const char *resource; // group/version/resource in the registry
    const char *group;
    const char *version;
    const char *json;
};

// Stored objects as the apiserver keeps them (uid, resourceVersion, creationTimestamp).
const Live LIVE[] = {
    {"configmaps", "", "v1", R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"settings",
"namespace":"default","uid":"0d7b2a5e-1111-4222-8333-000000000001","resourceVersion":"12",
"creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"web"},"annotations":{"owner":"ops"},
"finalizers":["example.com/keep"]},"data":{"color":"blue","mode":"fast","empty":""},
"binaryData":{"blob":"AAEC"}})"},
    {"deployments", "apps", "v1", R"({"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web",
"namespace":"default","uid":"0d7b2a5e-1111-4222-8333-000000000002","resourceVersion":"15","generation":3,
"creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"web"}},"spec":{"replicas":3,
"selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%",
"maxUnavailable":1}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600,"template":{"metadata":{
"creationTimestamp":null,"labels":{"app":"web","tier":"front"}},"spec":{"volumes":[{"name":"cache",
"emptyDir":{}},{"name":"conf","configMap":{"name":"settings","defaultMode":420}}],"initContainers":[{
"name":"init","image":"busybox:1.36","command":["sh","-c","true"]}],"containers":[{"name":"app",
"image":"nginx:1.27","ports":[{"name":"http","containerPort":80,"protocol":"TCP"},{"containerPort":443,
"protocol":"TCP"}],"env":[{"name":"MODE","value":"prod"},{"name":"POD","valueFrom":{"fieldRef":{
"apiVersion":"v1","fieldPath":"metadata.name"}}}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"},
"requests":{"cpu":"100m"}},"volumeMounts":[{"name":"cache","mountPath":"/cache"},{"name":"conf",
"mountPath":"/etc/conf","readOnly":true}],"imagePullPolicy":"IfNotPresent"},{"name":"sidecar",
"image":"envoy:1.30","args":["--log","info"]}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst",
"tolerations":[{"key":"gpu","operator":"Exists","effect":"NoSchedule"}],"terminationGracePeriodSeconds":30}}},
"status":{"replicas":3,"readyReplicas":2,"conditions":[{"type":"Available","status":"True"}]}})"},
    {"pods", "", "v1", R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-0","namespace":"default",
"uid":"0d7b2a5e-1111-4222-8333-000000000003","resourceVersion":"20","creationTimestamp":"2026-01-01T00:00:00Z",
"labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7c9",
"uid":"0d7b2a5e-1111-4222-8333-000000000009","controller":true}]},"spec":{"containers":[{"name":"app",
"image":"nginx:1.27","ports":[{"containerPort":80}],"env":[{"name":"A","value":"1"}],"resources":{}}],
"nodeName":"node-1","restartPolicy":"Always","schedulingGates":[{"name":"example.com/gate"}],
"hostAliases":[{"ip":"10.0.0.1","hostnames":["db"]}]},"status":{"phase":"Running","conditions":[{
"type":"Ready","status":"True"}],"podIP":"10.1.2.3"}})"},
    {"services", "", "v1", R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"web","namespace":"default",
"uid":"0d7b2a5e-1111-4222-8333-000000000004","resourceVersion":"22","creationTimestamp":"2026-01-01T00:00:00Z"},
"spec":{"type":"NodePort","selector":{"app":"web"},"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],
"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"name":"http","protocol":"TCP","port":80,
"targetPort":"http","nodePort":30080},{"name":"https","protocol":"TCP","port":443,"targetPort":8443,
"nodePort":30443}],"sessionAffinity":"None","externalTrafficPolicy":"Cluster"},"status":{"loadBalancer":{}}})"},
    {"secrets", "", "v1", R"({"kind":"Secret","apiVersion":"v1","metadata":{"name":"creds","namespace":"default",
"uid":"0d7b2a5e-1111-4222-8333-000000000005","resourceVersion":"30","creationTimestamp":"2026-01-01T00:00:00Z"},
"type":"Opaque","data":{"password":"aHVudGVyMg=="},"stringData":null})"},
};

struct Target {
    std::shared_ptr<const registry::ResourceType> type;
    std::unique_ptr<registry::FieldManager> fields;
    model::ObjectPtr live;
};

std::vector<Target> buildTargets()
{
    fuzz::ensureApplication();
    // Kept for the process: the types' strategies and schemas belong to it.
    static auto storage = std::make_shared<storage::MemoryStorage>();
    static auto registry = std::make_shared<registry::Registry>(storage);
    if (!QCoro::waitFor(registry->bootstrap()))
        std::abort();
    std::vector<Target> targets;
    for (const Live &live : LIVE) {
        auto entry = registry->find(live.group, live.version, live.resource);
        std::optional<nlohmann::json> json = model::parseObjectJson(live.json);
        if (!entry || !json)
            std::abort(); // a fixture that no longer fits the registry
        Target target{entry->type, std::make_unique<registry::FieldManager>(*entry->type, ""), nullptr};
        // The ownership a `kubectl apply` (client-side) and a controller's update leave.
        model::Object object(std::move(*json));
        target.fields->recordUpdate(nullptr, object, "kubectl-client-side-apply", NOW);
        model::Object changed(object);
        changed.mutableJson()["metadata"]["labels"]["controller"] = "seen";
        target.fields->recordUpdate(&object, changed, "kube-controller-manager", NOW);
        target.live = std::make_shared<const model::Object>(std::move(changed));
        targets.push_back(std::move(target));
    }
    return targets;
}

bool isErrorCode(int code)
{
    return code >= 400 && code <= 599;
}

void checkObject(const Target &target, model::Object object)
{
    if (!object.json().is_object())
        std::abort(); // a patch result that is not an object
    (void)object.bytes(); // serializes (invalid UTF-8 or a raw node that does not write: a finding)
    // What Store::update runs next on the patched object.
    if (auto undecodable = registry::checkDecodable(object, target.type->kind, target.type->storageApiVersion())) {
        if (!isErrorCode(undecodable->code))
            std::abort();
        return;
    }
    target.type->strategy->prepareForUpdate(object, *target.live);
    (void)target.type->strategy->validateUpdate(object, *target.live);
    (void)object.bytes();
}

const char *const CONTENT_TYPES[] = {"application/json-patch+json", "application/merge-patch+json",
                                     "application/strategic-merge-patch+json", "application/apply-patch+yaml"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::vector<Target> targets = buildTargets();
    if (size == 0)
        return 0;
    const std::uint8_t selector = data[0];
    const Target &target = targets[((selector >> 2) & 0x7) % targets.size()];
    const std::string_view body = fuzz::textOf(data + 1, size - 1);
    const bool force = (selector & 0x20) != 0;

    model::Result<std::shared_ptr<const registry::UpdatedObjectInfo>> info =
        registry::makePatchInfo(*target.type, CONTENT_TYPES[selector & 0x3], body);
    if (!info) {
        if (!isErrorCode(info.error().code))
            std::abort();
        return 0;
    }
    model::Result<model::Object> patched = model::Object();
    if (const nlohmann::json *config = (*info)->applyConfiguration()) {
        patched = target.fields->apply(target.live.get(), *config, "fuzzer", force, NOW);
    } else
        patched = QCoro::waitFor((*info)->updatedObject(target.live));
    if (!patched) {
        if (!isErrorCode(patched.error().code))
            std::abort();
        return 0;
    }
    checkObject(target, std::move(patched).value());
    return 0;
}
