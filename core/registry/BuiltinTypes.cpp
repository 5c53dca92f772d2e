// SPDX-License-Identifier: MIT
// The built-in resource types rvscope serves, as data: one table, one generic Store each.
#include "registry/Registry.h"

#include "registry/strategies/ConfigMapStrategy.h"
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

namespace rvscope::registry {
namespace {

struct Builtin {
    model::GroupVersionResource gvr;
    const char *kind;
    const char *singular;
    std::vector<std::string> shortNames;
    std::vector<std::string> categories;
    const char *storagePrefix;
    std::shared_ptr<const Strategy> strategy;
    std::shared_ptr<const Strategy> statusStrategy = nullptr;
    bool hasScale = false;
};

std::vector<Builtin> builtins()
{
    const std::vector<std::string> all = {"all"};
    return {
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
         "customresourcedefinition", {"crd", "crds"}, {"api-extensions"},
         "/registry/apiextensions.k8s.io/customresourcedefinitions",
         std::make_shared<CustomResourceDefinitionStrategy>()},
    };
}

} // namespace

void Registry::registerBuiltins()
{
    for (Builtin &builtin : builtins()) {
        auto type = std::make_shared<ResourceType>();
        type->gvr = builtin.gvr;
        type->kind = builtin.kind;
        type->listKind = std::string(builtin.kind) + "List";
        type->singularName = builtin.singular;
        type->shortNames = std::move(builtin.shortNames);
        type->categories = std::move(builtin.categories);
        type->storagePrefix = builtin.storagePrefix;
        type->strategy = std::move(builtin.strategy);
        type->statusStrategy = std::move(builtin.statusStrategy);
        type->hasStatus = type->statusStrategy != nullptr;
        type->hasScale = builtin.hasScale;
        add(std::move(type));
    }
}

} // namespace rvscope::registry
