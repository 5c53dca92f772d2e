// SPDX-License-Identifier: MIT
// The built-in resource types rvscope serves, as data: one table of type descriptors (names,
// scope, categories, storage prefix, subresources, update rules), one generic Store each.
// Types whose behaviour matters to the lab keep a hand-written strategy; the rest declare
// TypeRules (registry/types/BuiltinRules.h). Discovery, OpenAPI and the Table printers
// follow what is registered here.
#include "registry/Registry.h"

#include <cctype>

#include "registry/strategies/ConfigMapStrategy.h"
#include "registry/strategies/DeclaredStrategy.h"
#include "registry/strategies/CustomResourceDefinitionStrategy.h"
#include "registry/strategies/DeploymentStatusStrategy.h"
#include "registry/strategies/DeploymentStrategy.h"
#include "registry/strategies/EventStrategy.h"
#include "registry/strategies/LeaseStrategy.h"
#include "registry/strategies/NamespaceStrategy.h"
#include "registry/strategies/NodeStatusStrategy.h"
#include "registry/strategies/NodeStrategy.h"
#include "registry/strategies/PersistentVolumeClaimStatusStrategy.h"
#include "registry/strategies/PersistentVolumeClaimStrategy.h"
#include "registry/strategies/PodStatusStrategy.h"
#include "registry/strategies/PodStrategy.h"
#include "registry/strategies/SecretStrategy.h"
#include "registry/strategies/ServiceStrategy.h"
#include "registry/types/BuiltinRules.h"
#include "registry/types/VersionConversions.h"

namespace rvscope::registry {
namespace {

struct Builtin {
    model::GroupVersionResource gvr;
    const char *kind;
    std::string singularName;
    std::vector<std::string> shortNames;
    std::vector<std::string> categories;
    const char *storagePrefix;
    std::shared_ptr<const Strategy> strategy;
    std::shared_ptr<const Strategy> statusStrategy = nullptr;
    bool hasScale = false;
    std::shared_ptr<const VersionConversion> conversion = nullptr;
};

enum Subresources : unsigned { NoScale = 0, Scale = 1 };

// A type with declared rules: its /status strategy comes with the status split.
Builtin declared(model::GroupVersionResource gvr, const char *kind, std::vector<std::string> shortNames,
                 std::vector<std::string> categories, const char *storagePrefix, TypeRules rules,
                 unsigned subresources = NoScale)
{
    std::string singular = kind;
    for (char &c : singular)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Builtin builtin{std::move(gvr), kind, "", std::move(shortNames), std::move(categories), storagePrefix,
                    std::make_shared<DeclaredStrategy>(rules)};
    builtin.singularName = std::move(singular);
    if (rules.statusSplit)
        builtin.statusStrategy = std::make_shared<DeclaredStatusStrategy>(rules);
    builtin.hasScale = (subresources & Scale) != 0;
    return builtin;
}

// A version served apart from its storage version.
Builtin servedApart(Builtin builtin, std::shared_ptr<const VersionConversion> conversion)
{
    builtin.conversion = std::move(conversion);
    return builtin;
}

std::vector<Builtin> builtins()
{
    const std::vector<std::string> all = {"all"};
    const std::vector<std::string> extensions = {"api-extensions"};
    std::vector<Builtin> table = {
        {{"", "v1", "namespaces"}, "Namespace", "namespace", {"ns"}, {}, "/registry/namespaces",
         std::make_shared<NamespaceStrategy>()},
        {{"", "v1", "configmaps"}, "ConfigMap", "configmap", {"cm"}, {}, "/registry/configmaps",
         std::make_shared<ConfigMapStrategy>()},
        {{"", "v1", "secrets"}, "Secret", "secret", {}, {}, "/registry/secrets", std::make_shared<SecretStrategy>()},
        {{"", "v1", "pods"}, "Pod", "pod", {"po"}, all, "/registry/pods", std::make_shared<PodStrategy>(),
         std::make_shared<PodStatusStrategy>()},
        {{"", "v1", "nodes"}, "Node", "node", {"no"}, {}, "/registry/minions", std::make_shared<NodeStrategy>(),
         std::make_shared<NodeStatusStrategy>()},
        {{"", "v1", "persistentvolumeclaims"}, "PersistentVolumeClaim", "persistentvolumeclaim", {"pvc"}, {},
         "/registry/persistentvolumeclaims", std::make_shared<PersistentVolumeClaimStrategy>(),
         std::make_shared<PersistentVolumeClaimStatusStrategy>()},
        {{"", "v1", "services"}, "Service", "service", {"svc"}, all, "/registry/services/specs",
         std::make_shared<ServiceStrategy>()},
        {{"", "v1", "events"}, "Event", "event", {"ev"}, {}, "/registry/events", std::make_shared<EventStrategy>()},
        {{"apps", "v1", "deployments"}, "Deployment", "deployment", {"deploy"}, all, "/registry/deployments",
         std::make_shared<DeploymentStrategy>(), std::make_shared<DeploymentStatusStrategy>(), true},
        {{"coordination.k8s.io", "v1", "leases"}, "Lease", "lease", {}, {}, "/registry/leases",
         std::make_shared<LeaseStrategy>()},
        {{"apiextensions.k8s.io", "v1", "customresourcedefinitions"}, "CustomResourceDefinition",
         "customresourcedefinition", {"crd", "crds"}, extensions,
         "/registry/apiextensions.k8s.io/customresourcedefinitions",
         std::make_shared<CustomResourceDefinitionStrategy>()},
    };
    const std::vector<Builtin> declaredTypes = {
        declared({"", "v1", "serviceaccounts"}, "ServiceAccount", {"sa"}, {}, "/registry/serviceaccounts",
                 rules::serviceAccount()),
        declared({"", "v1", "endpoints"}, "Endpoints", {"ep"}, {}, "/registry/services/endpoints", rules::endpoints()),
        declared({"", "v1", "replicationcontrollers"}, "ReplicationController", {"rc"}, all, "/registry/controllers",
                 rules::replicationController(), Scale),
        declared({"", "v1", "persistentvolumes"}, "PersistentVolume", {"pv"}, {}, "/registry/persistentvolumes",
                 rules::persistentVolume()),
        declared({"", "v1", "podtemplates"}, "PodTemplate", {}, {}, "/registry/podtemplates", rules::podTemplate()),
        declared({"", "v1", "limitranges"}, "LimitRange", {"limits"}, {}, "/registry/limitranges", rules::limitRange()),
        declared({"", "v1", "resourcequotas"}, "ResourceQuota", {"quota"}, {}, "/registry/resourcequotas",
                 rules::resourceQuota()),
        declared({"apps", "v1", "replicasets"}, "ReplicaSet", {"rs"}, all, "/registry/replicasets", rules::replicaSet(),
                 Scale),
        declared({"apps", "v1", "statefulsets"}, "StatefulSet", {"sts"}, all, "/registry/statefulsets",
                 rules::statefulSet(), Scale),
        declared({"apps", "v1", "daemonsets"}, "DaemonSet", {"ds"}, all, "/registry/daemonsets", rules::daemonSet()),
        declared({"apps", "v1", "controllerrevisions"}, "ControllerRevision", {}, {}, "/registry/controllerrevisions",
                 rules::controllerRevision()),
        declared({"batch", "v1", "jobs"}, "Job", {}, all, "/registry/jobs", rules::job()),
        declared({"batch", "v1", "cronjobs"}, "CronJob", {"cj"}, all, "/registry/cronjobs", rules::cronJob()),
        declared({"discovery.k8s.io", "v1", "endpointslices"}, "EndpointSlice", {}, {}, "/registry/endpointslices",
                 rules::endpointSlice()),
        declared({"rbac.authorization.k8s.io", "v1", "roles"}, "Role", {}, {}, "/registry/roles", rules::role()),
        declared({"rbac.authorization.k8s.io", "v1", "rolebindings"}, "RoleBinding", {}, {}, "/registry/rolebindings",
                 rules::roleBinding()),
        declared({"rbac.authorization.k8s.io", "v1", "clusterroles"}, "ClusterRole", {}, {}, "/registry/clusterroles",
                 rules::clusterRole()),
        declared({"rbac.authorization.k8s.io", "v1", "clusterrolebindings"}, "ClusterRoleBinding", {}, {},
                 "/registry/clusterrolebindings", rules::clusterRoleBinding()),
        declared({"networking.k8s.io", "v1", "ingresses"}, "Ingress", {"ing"}, {}, "/registry/ingress",
                 rules::ingress()),
        declared({"networking.k8s.io", "v1", "ingressclasses"}, "IngressClass", {}, {}, "/registry/ingressclasses",
                 rules::ingressClass()),
        declared({"networking.k8s.io", "v1", "networkpolicies"}, "NetworkPolicy", {"netpol"}, {},
                 "/registry/networkpolicies", rules::networkPolicy()),
        declared({"policy", "v1", "poddisruptionbudgets"}, "PodDisruptionBudget", {"pdb"}, {},
                 "/registry/poddisruptionbudgets", rules::podDisruptionBudget()),
        declared({"autoscaling", "v2", "horizontalpodautoscalers"}, "HorizontalPodAutoscaler", {"hpa"}, all,
                 "/registry/horizontalpodautoscalers", rules::horizontalPodAutoscaler()),
        servedApart(declared({"autoscaling", "v1", "horizontalpodautoscalers"}, "HorizontalPodAutoscaler", {"hpa"},
                             all, "/registry/horizontalpodautoscalers", rules::horizontalPodAutoscaler()),
                    conversions::horizontalPodAutoscalerV1()),
        declared({"storage.k8s.io", "v1", "storageclasses"}, "StorageClass", {"sc"}, {}, "/registry/storageclasses",
                 rules::storageClass()),
        declared({"scheduling.k8s.io", "v1", "priorityclasses"}, "PriorityClass", {"pc"}, {},
                 "/registry/priorityclasses", rules::priorityClass()),
        declared({"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations"},
                 "ValidatingWebhookConfiguration", {}, extensions, "/registry/validatingwebhookconfigurations",
                 rules::webhookConfiguration()),
        declared({"admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations"},
                 "MutatingWebhookConfiguration", {}, extensions, "/registry/mutatingwebhookconfigurations",
                 rules::webhookConfiguration()),
        declared({"apiregistration.k8s.io", "v1", "apiservices"}, "APIService", {}, extensions,
                 "/registry/apiregistration.k8s.io/apiservices", rules::apiService()),
    };
    table.insert(table.end(), declaredTypes.begin(), declaredTypes.end());
    return table;
}

} // namespace

void Registry::registerBuiltins()
{
    for (Builtin &builtin : builtins()) {
        auto type = std::make_shared<ResourceType>();
        type->gvr = builtin.gvr;
        type->kind = builtin.kind;
        type->listKind = std::string(builtin.kind) + "List";
        type->singularName = std::move(builtin.singularName);
        type->shortNames = std::move(builtin.shortNames);
        type->categories = std::move(builtin.categories);
        type->storagePrefix = builtin.storagePrefix;
        type->strategy = std::move(builtin.strategy);
        type->statusStrategy = std::move(builtin.statusStrategy);
        type->hasStatus = type->statusStrategy != nullptr;
        type->hasScale = builtin.hasScale;
        type->conversion = std::move(builtin.conversion);
        add(std::move(type));
    }
}

} // namespace rvscope::registry
