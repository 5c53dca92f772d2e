// SPDX-License-Identifier: MIT
// apps/v1 ReplicaSet, StatefulSet, DaemonSet and ControllerRevision (pkg/apis/apps/v1
// defaults.go, pkg/apis/apps/validation, pkg/registry/apps/*/strategy.go), and core/v1
// ReplicationController and PodTemplate, whose rules are the same shape.
#include "registry/types/BuiltinRules.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/types/PodTemplateRules.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry::rules {
namespace {
using model::member;
using model::memberAt;
using Generation = TypeRules::Generation;

void validateCounts(const nlohmann::json &spec, std::initializer_list<const char *> fields, Causes &causes)
{
    for (const char *field : fields)
        checkNonNegative(member(spec, field), std::string("spec.") + field, causes);
}

// ReplicaSet, StatefulSet, DaemonSet: the selector is a metav1.LabelSelector, required and
// immutable in apps/v1, and the template restarts Always.
void validateSelectedTemplate(const nlohmann::json &spec, const char *what, Causes &causes)
{
    podtemplate::validateRequiredSelector(spec, "spec", what, causes);
    podtemplate::validateTemplate(spec, &member(spec, "selector"), "spec", {"Always"}, causes);
}

void selectorImmutable(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    podtemplate::validateSelectorUnchanged(member(object, "spec"), member(old, "spec"), "spec", causes);
}

// --- ReplicaSet -------------------------------------------------------------------------
void replicaSetDefaults(nlohmann::json &object)
{
    if (nlohmann::json *spec = jsonedit::existingObject(object, "spec")) {
        jsonedit::setDefault(*spec, "replicas", 1);
        podtemplate::applyTemplateDefaults(*spec);
    }
}

void validateReplicaSet(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    validateCounts(spec, {"replicas", "minReadySeconds"}, causes);
    validateSelectedTemplate(spec, "deployment", causes); // upstream's own wording for ReplicaSets too
}

// --- StatefulSet ------------------------------------------------------------------------
void statefulSetDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    jsonedit::setDefault(*spec, "replicas", 1);
    jsonedit::setDefaultString(*spec, "podManagementPolicy", "OrderedReady");
    if (nlohmann::json *strategy = jsonedit::childObject(*spec, "updateStrategy")) {
        jsonedit::setDefaultString(*strategy, "type", "RollingUpdate");
        if (jsonedit::isString(member(*strategy, "type"), "RollingUpdate")) {
            if (nlohmann::json *rolling = jsonedit::childObject(*strategy, "rollingUpdate"))
                jsonedit::setDefault(*rolling, "partition", 0);
        }
    }
    if (nlohmann::json *retention = jsonedit::childObject(*spec, "persistentVolumeClaimRetentionPolicy")) {
        jsonedit::setDefaultString(*retention, "whenDeleted", "Retain");
        jsonedit::setDefaultString(*retention, "whenScaled", "Retain");
    }
    jsonedit::setDefault(*spec, "revisionHistoryLimit", 10);
    podtemplate::applyTemplateDefaults(*spec);
}

void validateStatefulSet(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    validateCounts(spec, {"replicas", "minReadySeconds"}, causes);
    const std::string policy = model::stringOr(member(spec, "podManagementPolicy"));
    if (!policy.empty() && policy != "OrderedReady" && policy != "Parallel")
        causes.push_back(invalidField("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
    const std::string strategy = model::stringOr(memberAt(spec, "updateStrategy", "type"));
    if (!strategy.empty() && strategy != "RollingUpdate" && strategy != "OnDelete")
        causes.push_back(invalidFieldGo("spec.updateStrategy", "apps.StatefulSetUpdateStrategy{Type:" + goQuote(strategy) + ", ...}",
                                        "must be 'RollingUpdate' or 'OnDelete'"));
    validateSelectedTemplate(spec, "statefulset", causes);
}

// ValidateStatefulSetUpdate: only these spec fields may change.
void validateStatefulSetUpdate(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    static const char *const MUTABLE[] = {"replicas", "ordinals", "template", "updateStrategy",
                                          "persistentVolumeClaimRetentionPolicy", "minReadySeconds"};
    nlohmann::json spec = member(object, "spec");
    nlohmann::json oldSpec = member(old, "spec");
    for (const char *field : MUTABLE) {
        if (spec.is_object())
            spec.erase(field);
        if (oldSpec.is_object())
            oldSpec.erase(field);
    }
    if (!jsonedit::semanticEqual(spec, oldSpec))
        causes.push_back(forbiddenField("spec", "updates to statefulset spec for fields other than 'replicas', "
                                                "'ordinals', 'template', 'updateStrategy', "
                                                "'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
                                                "forbidden"));
}

// --- DaemonSet --------------------------------------------------------------------------
void daemonSetDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    if (nlohmann::json *strategy = jsonedit::childObject(*spec, "updateStrategy")) {
        jsonedit::setDefaultString(*strategy, "type", "RollingUpdate");
        if (jsonedit::isString(member(*strategy, "type"), "RollingUpdate")) {
            if (nlohmann::json *rolling = jsonedit::childObject(*strategy, "rollingUpdate")) {
                jsonedit::setDefault(*rolling, "maxUnavailable", 1);
                jsonedit::setDefault(*rolling, "maxSurge", 0);
            }
        }
    }
    jsonedit::setDefault(*spec, "revisionHistoryLimit", 10);
    podtemplate::applyTemplateDefaults(*spec);
}

void validateDaemonSet(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    validateCounts(spec, {"minReadySeconds"}, causes);
    validateSelectedTemplate(spec, "daemonset", causes);
    const std::string strategy = model::stringOr(memberAt(spec, "updateStrategy", "type"));
    if (!strategy.empty() && strategy != "RollingUpdate" && strategy != "OnDelete")
        causes.push_back(notSupportedField("spec.updateStrategy", goQuote(strategy), {"RollingUpdate", "OnDelete"}));
}

// --- ControllerRevision -----------------------------------------------------------------
void validateControllerRevision(const nlohmann::json &object, Causes &causes)
{
    checkNonNegative(member(object, "revision"), "revision", causes);
}

void validateControllerRevisionUpdate(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    if (!jsonedit::semanticEqual(member(object, "data"), member(old, "data")))
        causes.push_back(invalidFieldJson("data", member(object, "data"), "field is immutable"));
}

// --- ReplicationController (core/v1): the selector is a plain map ------------------------
void replicationControllerDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    // SetDefaults_ReplicationController: an empty selector takes the template's labels, and
    // so do the controller's own labels.
    const nlohmann::json labels = memberAt(*spec, "template", "metadata", "labels");
    if (labels.is_object() && !labels.empty()) {
        if (member(*spec, "selector").empty())
            (*spec)["selector"] = labels;
        if (nlohmann::json *meta = jsonedit::childObject(object, "metadata"); meta && member(*meta, "labels").empty())
            (*meta)["labels"] = labels;
    }
    jsonedit::setDefault(*spec, "replicas", 1);
    podtemplate::applyTemplateDefaults(*spec);
}

void validateReplicationController(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    validateCounts(spec, {"replicas", "minReadySeconds"}, causes);
    const nlohmann::json &selector = member(spec, "selector");
    if (selector.empty())
        causes.push_back(requiredField("spec.selector"));
    if (!member(spec, "template").is_object()) {
        causes.push_back(requiredField("spec.template"));
        return;
    }
    const nlohmann::json matchLabels = selector.is_object() ? nlohmann::json{{"matchLabels", selector}} : nlohmann::json();
    podtemplate::validateTemplate(spec, selector.empty() ? nullptr : &matchLabels, "spec", {"Always"}, causes);
}

// --- PodTemplate (core/v1) ----------------------------------------------------------------
void podTemplateDefaults(nlohmann::json &object)
{
    podtemplate::applyTemplateDefaults(object);
}

void validatePodTemplate(const nlohmann::json &object, Causes &causes)
{
    podtemplate::validateTemplate(object, nullptr, "", {"Always", "OnFailure", "Never"}, causes);
}

// Status fields Go always writes.
constexpr const char *REPLICA_COUNTS[] = {"replicas", nullptr};
constexpr const char *DAEMON_COUNTS[] = {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled",
                                         "numberReady", nullptr};
constexpr const char *STATEFUL_COUNTS[] = {"replicas", "availableReplicas", nullptr};
} // namespace

TypeRules replicaSet()
{
    return {.generation = Generation::Spec, .statusSplit = true, .statusCounters = REPLICA_COUNTS,
            .defaults = replicaSetDefaults,
            .validate = validateReplicaSet, .validateUpdate = selectorImmutable};
}

TypeRules statefulSet()
{
    return {.generation = Generation::Spec, .statusSplit = true, .statusCounters = STATEFUL_COUNTS,
            .defaults = statefulSetDefaults,
            .validate = validateStatefulSet, .validateUpdate = validateStatefulSetUpdate};
}

TypeRules daemonSet()
{
    return {.generation = Generation::Spec, .statusSplit = true, .statusCounters = DAEMON_COUNTS,
            .defaults = daemonSetDefaults,
            .validate = validateDaemonSet, .validateUpdate = selectorImmutable};
}

TypeRules controllerRevision()
{
    return {.validate = validateControllerRevision, .validateUpdate = validateControllerRevisionUpdate};
}

TypeRules replicationController()
{
    return {.generation = Generation::Spec, .statusSplit = true, .statusCounters = REPLICA_COUNTS,
            .defaults = replicationControllerDefaults,
            .validate = validateReplicationController};
}

TypeRules podTemplate()
{
    return {.defaults = podTemplateDefaults, .validate = validatePodTemplate};
}

} // namespace rvscope::registry::rules
