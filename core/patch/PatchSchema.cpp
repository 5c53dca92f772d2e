// SPDX-License-Identifier: MIT
#include "patch/PatchSchema.h"

#include <span>

namespace rvscope::patch {
namespace {

enum Strategy : unsigned { None = 0, Merge = 1, RetainKeys = 2, Replace = 4 };

// One Go struct field. `fields` describes the value's own fields (for a list: each element's),
// so that a struct used in several places (ObjectMeta, PodSpec, Container) is written once.
struct FieldRow final {
    std::string_view name;
    unsigned strategy = None;
    std::string_view mergeKey;
    std::span<const FieldRow> fields;
};

struct KindRow final {
    std::string_view kind;
    std::span<const FieldRow> fields;
};

// k8s.io/api v0.32 struct tags (wire contract section 4.3, plus Service and Node fields with
// the same tags upstream). Fields with no tag are left out: maps merge, lists replace.
constexpr FieldRow OBJECT_META[] = {
    {"finalizers", Merge, "", {}},
    {"ownerReferences", Merge, "uid", {}},
};

// Container and EphemeralContainerCommon carry the same tags.
constexpr FieldRow CONTAINER[] = {
    {"ports", Merge, "containerPort", {}},
    {"env", Merge, "name", {}},
    {"volumeMounts", Merge, "mountPath", {}},
    {"volumeDevices", Merge, "devicePath", {}},
};

constexpr FieldRow POD_SPEC[] = {
    {"volumes", Merge | RetainKeys, "name", {}},
    {"initContainers", Merge, "name", CONTAINER},
    {"containers", Merge, "name", CONTAINER},
    {"ephemeralContainers", Merge, "name", CONTAINER},
    {"imagePullSecrets", Merge, "name", {}},
    {"hostAliases", Merge, "ip", {}},
    {"topologySpreadConstraints", Merge, "topologyKey", {}},
    {"schedulingGates", Merge, "name", {}},
    {"resourceClaims", Merge | RetainKeys, "name", {}},
};

constexpr FieldRow POD_STATUS[] = {
    {"conditions", Merge, "type", {}},
    {"podIPs", Merge, "ip", {}},
    {"hostIPs", Merge, "ip", {}},
};

constexpr FieldRow POD_TEMPLATE_SPEC[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", POD_SPEC},
};

constexpr FieldRow DEPLOYMENT_SPEC[] = {
    {"template", None, "", POD_TEMPLATE_SPEC},
    {"strategy", RetainKeys, "", {}},
};

// DeploymentStatus and NamespaceStatus: conditions merge on `type`.
constexpr FieldRow CONDITIONS_STATUS[] = {
    {"conditions", Merge, "type", {}},
};

constexpr FieldRow NODE_STATUS[] = {
    {"conditions", Merge, "type", {}},
    {"addresses", Merge, "type", {}},
};

constexpr FieldRow SERVICE_SPEC[] = {
    {"ports", Merge, "port", {}},
};

// ReplicaSet, StatefulSet, DaemonSet, ReplicationController, Job: a pod template under spec,
// conditions merged on `type` under status.
constexpr FieldRow TEMPLATE_SPEC[] = {
    {"template", None, "", POD_TEMPLATE_SPEC},
};

constexpr FieldRow TEMPLATED_WORKLOAD[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", TEMPLATE_SPEC},
    {"status", None, "", CONDITIONS_STATUS},
};

constexpr FieldRow POD_TEMPLATE[] = {
    {"metadata", None, "", OBJECT_META},
    {"template", None, "", POD_TEMPLATE_SPEC},
};

constexpr FieldRow JOB_TEMPLATE_SPEC[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", TEMPLATE_SPEC},
};

constexpr FieldRow CRON_JOB_SPEC[] = {
    {"jobTemplate", None, "", JOB_TEMPLATE_SPEC},
};

constexpr FieldRow CRON_JOB[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", CRON_JOB_SPEC},
};

constexpr FieldRow SERVICE_ACCOUNT[] = {
    {"metadata", None, "", OBJECT_META},
    {"secrets", Merge, "name", {}},
};

constexpr FieldRow METADATA_ONLY[] = {
    {"metadata", None, "", OBJECT_META},
};

constexpr FieldRow DISRUPTION_BUDGET_SPEC[] = {
    {"selector", Replace, "", {}},
};

constexpr FieldRow DISRUPTION_BUDGET[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", DISRUPTION_BUDGET_SPEC},
    {"status", None, "", CONDITIONS_STATUS},
};

constexpr FieldRow POD[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", POD_SPEC},
    {"status", None, "", POD_STATUS},
};

constexpr FieldRow DEPLOYMENT[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", DEPLOYMENT_SPEC},
    {"status", None, "", CONDITIONS_STATUS},
};

constexpr FieldRow NAMESPACE[] = {
    {"metadata", None, "", OBJECT_META},
    {"status", None, "", CONDITIONS_STATUS},
};

constexpr FieldRow NODE[] = {
    {"metadata", None, "", OBJECT_META},
    {"status", None, "", NODE_STATUS},
};

constexpr FieldRow SERVICE[] = {
    {"metadata", None, "", OBJECT_META},
    {"spec", None, "", SERVICE_SPEC},
};

constexpr KindRow KINDS[] = {
    {"Namespace", NAMESPACE},
    {"ConfigMap", METADATA_ONLY},
    {"Secret", METADATA_ONLY},
    {"Pod", POD},
    {"Node", NODE},
    {"PersistentVolumeClaim", METADATA_ONLY},
    {"Service", SERVICE},
    {"Event", METADATA_ONLY},
    {"Deployment", DEPLOYMENT},
    {"Lease", METADATA_ONLY},
    {"CustomResourceDefinition", METADATA_ONLY},
    {"Scale", METADATA_ONLY},
    {"ServiceAccount", SERVICE_ACCOUNT},
    {"Endpoints", METADATA_ONLY},
    {"ReplicationController", TEMPLATED_WORKLOAD},
    {"PersistentVolume", METADATA_ONLY},
    {"PodTemplate", POD_TEMPLATE},
    {"LimitRange", METADATA_ONLY},
    {"ResourceQuota", METADATA_ONLY},
    {"ReplicaSet", TEMPLATED_WORKLOAD},
    {"StatefulSet", TEMPLATED_WORKLOAD},
    {"DaemonSet", TEMPLATED_WORKLOAD},
    {"ControllerRevision", METADATA_ONLY},
    {"Job", TEMPLATED_WORKLOAD},
    {"CronJob", CRON_JOB},
    {"EndpointSlice", METADATA_ONLY},
    {"Role", METADATA_ONLY},
    {"RoleBinding", METADATA_ONLY},
    {"ClusterRole", METADATA_ONLY},
    {"ClusterRoleBinding", METADATA_ONLY},
    {"Ingress", METADATA_ONLY},
    {"IngressClass", METADATA_ONLY},
    {"NetworkPolicy", METADATA_ONLY},
    {"PodDisruptionBudget", DISRUPTION_BUDGET},
    {"HorizontalPodAutoscaler", METADATA_ONLY},
    {"StorageClass", METADATA_ONLY},
    {"PriorityClass", METADATA_ONLY},
    {"ValidatingWebhookConfiguration", METADATA_ONLY},
    {"MutatingWebhookConfiguration", METADATA_ONLY},
    {"APIService", METADATA_ONLY},
};

const KindRow *findKind(std::string_view kind)
{
    for (const KindRow &row : KINDS) {
        if (row.kind == kind)
            return &row;
    }
    return nullptr;
}

const FieldRow *findField(std::span<const FieldRow> fields, std::string_view name)
{
    for (const FieldRow &row : fields) {
        if (row.name == name)
            return &row;
    }
    return nullptr;
}

bool anyReplace(std::span<const FieldRow> fields)
{
    for (const FieldRow &row : fields) {
        if ((row.strategy & Replace) != 0 || anyReplace(row.fields))
            return true;
    }
    return false;
}

} // namespace

bool hasMapReplacements(std::string_view kind)
{
    const KindRow *row = findKind(kind);
    return row && anyReplace(row->fields);
}

bool supportsStrategicMerge(std::string_view kind)
{
    return findKind(kind) != nullptr;
}

std::optional<FieldPatchMeta> findFieldPatchMeta(std::string_view kind, std::string_view fieldPath)
{
    const KindRow *kindRow = findKind(kind);
    if (!kindRow || fieldPath.empty())
        return std::nullopt;
    std::span<const FieldRow> fields = kindRow->fields;
    const FieldRow *row = nullptr;
    while (true) {
        const std::size_t dot = fieldPath.find('.');
        row = findField(fields, fieldPath.substr(0, dot));
        if (!row)
            return std::nullopt;
        if (dot == std::string_view::npos)
            break;
        fieldPath.remove_prefix(dot + 1);
        fields = row->fields;
    }
    if (row->strategy == None)
        return std::nullopt;
    return FieldPatchMeta{(row->strategy & Merge) != 0, (row->strategy & RetainKeys) != 0, row->mergeKey,
                          (row->strategy & Replace) != 0};
}

} // namespace rvscope::patch
