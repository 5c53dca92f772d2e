// SPDX-License-Identifier: MIT
// networking.k8s.io/v1 Ingress, IngressClass, NetworkPolicy; policy/v1 PodDisruptionBudget;
// autoscaling/v2 HorizontalPodAutoscaler; storage.k8s.io/v1 StorageClass;
// scheduling.k8s.io/v1 PriorityClass; and the stored-only admission webhooks and APIServices
// (their upstream defaults.go and validation.go, for the rules clients meet).
#include "registry/types/BuiltinRules.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/LabelSelectorValidation.h"

namespace rvscope::registry::rules {
namespace {
using model::member;
using model::memberAt;
using Generation = TypeRules::Generation;

std::string indexed(const std::string &path, std::size_t i)
{
    return path + '[' + std::to_string(i) + ']';
}

// --- Ingress ----------------------------------------------------------------------------
// validateIngressBackend: the errors name the backend itself.
void validateBackend(const nlohmann::json &backend, const std::string &path, Causes &causes)
{
    const nlohmann::json &service = member(backend, "service");
    const nlohmann::json &resource = member(backend, "resource");
    if (!service.is_null() && !resource.is_null()) {
        causes.push_back(invalidField(path, "", "cannot set both resource and service backends"));
        return;
    }
    if (service.is_null() && resource.is_null()) {
        causes.push_back(invalidField(path, "", "resource or service backend is required"));
        return;
    }
    if (!service.is_null()) {
        if (model::stringOr(member(service, "name")).empty())
            causes.push_back(requiredField(path + ".service.name"));
        const nlohmann::json &port = member(service, "port");
        const bool named = !model::stringOr(member(port, "name")).empty();
        const bool numbered = jsonedit::integer(member(port, "number")).value_or(0) != 0;
        if (named && numbered)
            causes.push_back(invalidField(path, "", "cannot set both port name & port number"));
        else if (!named && !numbered)
            causes.push_back(requiredField(path, "port name or number is required"));
    }
}

void validateIngress(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    const nlohmann::json &defaultBackend = member(spec, "defaultBackend");
    const nlohmann::json &rules = member(spec, "rules");
    if (defaultBackend.is_null() && rules.empty())
        causes.push_back(invalidFieldGo("spec", "[]networking.IngressRule(nil)",
                                        "either `defaultBackend` or `rules` must be specified"));
    if (!defaultBackend.is_null())
        validateBackend(defaultBackend, "spec.defaultBackend", causes);
    if (!rules.is_array())
        return;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const nlohmann::json &paths = memberAt(rules[i], "http", "paths");
        const std::string rulePath = indexed("spec.rules", i);
        if (!member(rules[i], "http").is_null() && paths.empty())
            causes.push_back(requiredField(rulePath + ".http.paths"));
        if (!paths.is_array())
            continue;
        for (std::size_t j = 0; j < paths.size(); ++j) {
            const std::string pathPath = indexed(rulePath + ".http.paths", j);
            const std::string pathType = model::stringOr(member(paths[j], "pathType"));
            if (pathType.empty())
                causes.push_back(requiredField(pathPath + ".pathType", "pathType must be specified"));
            else if (pathType != "Exact" && pathType != "Prefix" && pathType != "ImplementationSpecific")
                causes.push_back(notSupportedField(pathPath + ".pathType", goQuote(pathType),
                                                   {"Exact", "ImplementationSpecific", "Prefix"}));
            const std::string path = model::stringOr(member(paths[j], "path"));
            if (pathType != "ImplementationSpecific" && !pathType.empty() && (path.empty() || path[0] != '/'))
                causes.push_back(invalidField(pathPath + ".path", path, "must be an absolute path"));
            validateBackend(member(paths[j], "backend"), pathPath + ".backend", causes);
        }
    }
}

void validateIngressClass(const nlohmann::json &object, Causes &causes)
{
    const std::string controller = model::stringOr(memberAt(object, "spec", "controller"));
    if (controller.empty())
        causes.push_back(requiredField("spec.controller"));
}

void ingressClassControllerImmutable(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    const nlohmann::json &controller = memberAt(object, "spec", "controller");
    if (!jsonedit::semanticEqual(controller, memberAt(old, "spec", "controller")))
        causes.push_back(invalidField("spec.controller", model::stringOr(controller), "field is immutable"));
}

// --- NetworkPolicy ----------------------------------------------------------------------
// SetDefaults_NetworkPolicyPort: a port without a protocol is TCP.
void defaultPortProtocols(nlohmann::json &spec, const char *direction)
{
    nlohmann::json *rules = jsonedit::childArray(spec, direction);
    if (!rules)
        return;
    for (nlohmann::json &rule : *rules) {
        nlohmann::json *ports = jsonedit::childArray(rule, "ports");
        if (!ports)
            continue;
        for (nlohmann::json &port : *ports) {
            if (port.is_object())
                jsonedit::setDefaultString(port, "protocol", "TCP");
        }
    }
}

void networkPolicyDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    defaultPortProtocols(*spec, "ingress");
    defaultPortProtocols(*spec, "egress");
    if (!member(*spec, "policyTypes").empty())
        return;
    // SetDefaults_NetworkPolicy: Ingress always; Egress when egress rules are given.
    nlohmann::json types = nlohmann::json::array({"Ingress"});
    if (!member(*spec, "egress").empty())
        types.push_back("Egress");
    (*spec)["policyTypes"] = std::move(types);
}

void validateNetworkPolicy(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    appendUnique(causes, validateLabelSelector(member(spec, "podSelector"), "spec.podSelector"));
    const nlohmann::json &types = member(spec, "policyTypes");
    if (types.is_array()) {
        for (std::size_t i = 0; i < types.size(); ++i) {
            const std::string type = model::stringOr(types[i]);
            if (type != "Ingress" && type != "Egress")
                causes.push_back(notSupportedField(indexed("spec.policyTypes", i), goQuote(type), {"Ingress", "Egress"}));
        }
    }
}

// --- PodDisruptionBudget ----------------------------------------------------------------
void validatePodDisruptionBudget(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    const nlohmann::json &minAvailable = member(spec, "minAvailable");
    const nlohmann::json &maxUnavailable = member(spec, "maxUnavailable");
    if (!minAvailable.is_null() && !maxUnavailable.is_null())
        causes.push_back(invalidFieldGo("spec", "policy.PodDisruptionBudgetSpec{...}",
                                        "minAvailable and maxUnavailable cannot be both set"));
    for (const auto &[field, value] : {std::pair{"spec.minAvailable", &minAvailable},
                                       std::pair{"spec.maxUnavailable", &maxUnavailable}}) {
        if (value->is_number_integer() && value->get<std::int64_t>() < 0)
            causes.push_back(invalidFieldGo(field, goIntOrString(*value), "must be greater than or equal to 0"));
    }
    if (!member(spec, "selector").is_null())
        appendUnique(causes, validateLabelSelector(member(spec, "selector"), "spec.selector"));
    const std::string policy = model::stringOr(member(spec, "unhealthyPodEvictionPolicy"));
    if (!policy.empty() && policy != "IfHealthyBudget" && policy != "AlwaysAllow")
        causes.push_back(notSupportedField("spec.unhealthyPodEvictionPolicy", goQuote(policy),
                                           {"AlwaysAllow", "IfHealthyBudget"}));
}

// --- HorizontalPodAutoscaler (autoscaling/v2) ---------------------------------------------
void horizontalPodAutoscalerDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    jsonedit::setDefault(*spec, "minReplicas", 1);
    // SetDefaults_HorizontalPodAutoscaler: no metrics means 80% average CPU utilization.
    if (member(*spec, "metrics").empty())
        (*spec)["metrics"] = nlohmann::json::array({{{"type", "Resource"},
                                                     {"resource", {{"name", "cpu"},
                                                                   {"target", {{"type", "Utilization"},
                                                                               {"averageUtilization", 80}}}}}}});
}

void validateHorizontalPodAutoscaler(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    const nlohmann::json &target = member(spec, "scaleTargetRef");
    if (model::stringOr(member(target, "kind")).empty())
        causes.push_back(requiredField("spec.scaleTargetRef.kind"));
    if (model::stringOr(member(target, "name")).empty())
        causes.push_back(requiredField("spec.scaleTargetRef.name"));
    const auto minReplicas = jsonedit::integer(member(spec, "minReplicas"));
    const std::int64_t maxReplicas = jsonedit::integer(member(spec, "maxReplicas")).value_or(0);
    if (minReplicas && *minReplicas < 1)
        causes.push_back(invalidFieldInt("spec.minReplicas", *minReplicas, "must be greater than or equal to 1"));
    if (maxReplicas < 1)
        causes.push_back(invalidFieldInt("spec.maxReplicas", maxReplicas, "must be greater than 0"));
    if (minReplicas && *minReplicas > maxReplicas && maxReplicas >= 1)
        causes.push_back(invalidFieldInt("spec.maxReplicas", maxReplicas, "must be greater than or equal to `minReplicas`"));
}

// --- StorageClass -----------------------------------------------------------------------
void storageClassDefaults(nlohmann::json &object)
{
    jsonedit::setDefaultString(object, "reclaimPolicy", "Delete");
    jsonedit::setDefaultString(object, "volumeBindingMode", "Immediate");
}

void validateStorageClass(const nlohmann::json &object, Causes &causes)
{
    if (model::stringOr(member(object, "provisioner")).empty())
        causes.push_back(requiredField("provisioner"));
    const std::string policy = model::stringOr(member(object, "reclaimPolicy"));
    if (!policy.empty() && policy != "Delete" && policy != "Retain")
        causes.push_back(notSupportedField("reclaimPolicy", goQuote(policy), {"Delete", "Retain"}));
    const std::string mode = model::stringOr(member(object, "volumeBindingMode"));
    if (!mode.empty() && mode != "Immediate" && mode != "WaitForFirstConsumer")
        causes.push_back(notSupportedField("volumeBindingMode", goQuote(mode), {"Immediate", "WaitForFirstConsumer"}));
}

// ValidateStorageClassUpdate: parameters, provisioner and reclaimPolicy never change.
void validateStorageClassUpdate(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    if (!jsonedit::semanticEqual(member(object, "parameters"), member(old, "parameters")))
        causes.push_back(forbiddenField("parameters", "updates to parameters are forbidden."));
    if (!jsonedit::semanticEqual(member(object, "provisioner"), member(old, "provisioner")))
        causes.push_back(forbiddenField("provisioner", "updates to provisioner are forbidden."));
    if (!jsonedit::semanticEqual(member(object, "reclaimPolicy"), member(old, "reclaimPolicy")))
        causes.push_back(forbiddenField("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
}

// --- PriorityClass ----------------------------------------------------------------------
constexpr std::int64_t HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;

void priorityClassDefaults(nlohmann::json &object)
{
    jsonedit::setDefaultString(object, "preemptionPolicy", "PreemptLowerPriority");
}

void validatePriorityClass(const nlohmann::json &object, Causes &causes)
{
    const std::string name = model::stringOr(memberAt(object, "metadata", "name"));
    const std::int64_t value = jsonedit::integer(member(object, "value")).value_or(0);
    const bool system = name == "system-node-critical" || name == "system-cluster-critical";
    if (!system && name.rfind("system-", 0) == 0)
        causes.push_back(forbiddenField("metadata.name", "priority class names with 'system-' prefix are reserved for "
                                                         "system use only. error: " + name
                                                         + " is not a known system priority class"));
    if (!system && value > HIGHEST_USER_DEFINABLE_PRIORITY)
        causes.push_back(forbiddenField("value", "maximum allowed value of a user defined priority is 1000000000"));
    const std::string policy = model::stringOr(member(object, "preemptionPolicy"));
    if (!policy.empty() && policy != "PreemptLowerPriority" && policy != "Never")
        causes.push_back(notSupportedField("preemptionPolicy", goQuote(policy), {"PreemptLowerPriority", "Never"}));
}

void validatePriorityClassUpdate(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    if (!jsonedit::semanticEqual(member(object, "value"), member(old, "value")))
        causes.push_back(forbiddenField("value", "may not be changed in an update."));
    if (!jsonedit::semanticEqual(member(object, "preemptionPolicy"), member(old, "preemptionPolicy")))
        causes.push_back(invalidField("preemptionPolicy", model::stringOr(member(object, "preemptionPolicy")),
                                      "field is immutable"));
}

// --- APIService -------------------------------------------------------------------------
void validateApiService(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    const std::string name = model::stringOr(memberAt(object, "metadata", "name"));
    const std::string version = model::stringOr(member(spec, "version"));
    const std::string group = model::stringOr(member(spec, "group"));
    if (version.empty())
        causes.push_back(requiredField("spec.version"));
    if (!name.empty() && !version.empty() && name != version + '.' + group)
        causes.push_back(invalidField("metadata.name", name, "must be `spec.version+\".\"+spec.group`: \"" + version + '.' + group + '"'));
    // ValidateAPIService: both priorities positive and at most 20000 and 1000 (its message
    // says "less than").
    for (const auto &[field, limit] : {std::pair{"groupPriorityMinimum", 20000}, std::pair{"versionPriority", 1000}}) {
        const std::int64_t value = jsonedit::integer(member(spec, field)).value_or(0);
        if (value <= 0 || value > limit)
            causes.push_back(invalidFieldInt(std::string("spec.") + field, value,
                                             "must be positive and less than " + std::to_string(limit)));
    }
}

constexpr const char *BUDGET_COUNTS[] = {"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods",
                                         nullptr};
constexpr const char *AUTOSCALER_COUNTS[] = {"desiredReplicas", nullptr};
} // namespace

TypeRules ingress()
{
    return {.generation = Generation::Spec, .statusSplit = true, .validate = validateIngress};
}

TypeRules ingressClass()
{
    return {.namespaced = false, .generation = Generation::Spec, .validate = validateIngressClass,
            .validateUpdate = ingressClassControllerImmutable};
}

TypeRules networkPolicy()
{
    return {.generation = Generation::Spec, .defaults = networkPolicyDefaults, .validate = validateNetworkPolicy};
}

TypeRules podDisruptionBudget()
{
    // (Upstream's ValidatePodDisruptionBudget checks no object metadata.)
    return {.generation = Generation::Spec, .statusSplit = true, .kubeFinalizerNames = false,
            .statusCounters = BUDGET_COUNTS, .validate = validatePodDisruptionBudget};
}

TypeRules horizontalPodAutoscaler()
{
    return {.statusSplit = true, .statusCounters = AUTOSCALER_COUNTS, .defaults = horizontalPodAutoscalerDefaults,
            .validate = validateHorizontalPodAutoscaler};
}

TypeRules storageClass()
{
    return {.namespaced = false, .defaults = storageClassDefaults, .validate = validateStorageClass,
            .validateUpdate = validateStorageClassUpdate};
}

TypeRules priorityClass()
{
    return {.namespaced = false, .defaults = priorityClassDefaults, .validate = validatePriorityClass,
            .validateUpdate = validatePriorityClassUpdate};
}

TypeRules webhookConfiguration()
{
    // (admissionregistration validates metadata with apimachinery's ValidateObjectMeta.)
    return {.namespaced = false, .generation = Generation::Spec, .kubeFinalizerNames = false};
}

// Named "<version>.<group>", "v1." for the core group: a path segment, not a DNS name.
TypeRules apiService()
{
    return {.namespaced = false, .statusSplit = true, .nameRule = Strategy::NameRule::PathSegment,
            .kubeFinalizerNames = false, .validate = validateApiService};
}

} // namespace rvscope::registry::rules
