// SPDX-License-Identifier: MIT
// autoscaling/v1 HorizontalPodAutoscalers, stored as autoscaling/v2 (pkg/apis/autoscaling/v1
// conversion.go): v1's targetCPUUtilizationPercentage is v2's Resource cpu Utilization
// metric, its currentCPUUtilizationPercentage the matching current metric. What v1 cannot
// say (other metrics, behavior, conditions) travels in the annotations upstream uses, so a
// v1 client's read-modify-write keeps it.
#include "registry/types/VersionConversions.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"

namespace rvscope::registry::conversions {
namespace {
using model::member;
using nlohmann::json;

constexpr const char *METRICS_ANNOTATION = "autoscaling.alpha.kubernetes.io/metrics";
constexpr const char *CURRENT_METRICS_ANNOTATION = "autoscaling.alpha.kubernetes.io/current-metrics";
constexpr const char *BEHAVIOR_ANNOTATION = "autoscaling.alpha.kubernetes.io/behavior";
constexpr const char *CONDITIONS_ANNOTATION = "autoscaling.alpha.kubernetes.io/conditions";

bool isCpuUtilization(const json &metric, const char *valueKey)
{
    return member(metric, "type") == "Resource" && model::memberAt(metric, "resource", "name") == "cpu"
        && (valueKey[0] == 't' ? model::memberAt(metric, "resource", "target", "type") == "Utilization"
                               : !model::memberAt(metric, "resource", "current", "averageUtilization").is_null());
}

// Takes annotation `name` out of `object` as parsed JSON (null when absent or not JSON).
json takeAnnotation(json &object, const char *name)
{
    json *annotations = jsonedit::existingObject(object, "metadata");
    annotations = annotations ? jsonedit::existingObject(*annotations, "annotations") : nullptr;
    if (!annotations || !annotations->contains(name))
        return nullptr;
    json value = json::parse(model::stringOr(member(*annotations, name)), nullptr, false);
    annotations->erase(name);
    if (annotations->empty())
        object["metadata"].erase("annotations");
    return value.is_discarded() ? json() : value;
}

void putAnnotation(json &object, const char *name, const json &value)
{
    json *meta = jsonedit::childObject(object, "metadata");
    json *annotations = meta ? jsonedit::childObject(*meta, "annotations") : nullptr;
    if (annotations)
        (*annotations)[name] = value.dump();
}

void horizontalPodAutoscalerToV2(json &object)
{
    json metrics = takeAnnotation(object, METRICS_ANNOTATION);
    json currentMetrics = takeAnnotation(object, CURRENT_METRICS_ANNOTATION);
    json behavior = takeAnnotation(object, BEHAVIOR_ANNOTATION);
    json conditions = takeAnnotation(object, CONDITIONS_ANNOTATION);
    if (json *spec = jsonedit::existingObject(object, "spec")) {
        json all = json::array();
        if (const auto target = jsonedit::integer(member(*spec, "targetCPUUtilizationPercentage")))
            all.push_back({{"type", "Resource"},
                           {"resource", {{"name", "cpu"}, {"target", {{"type", "Utilization"}, {"averageUtilization", *target}}}}}});
        if (metrics.is_array())
            all.insert(all.end(), metrics.begin(), metrics.end());
        spec->erase("targetCPUUtilizationPercentage");
        if (!all.empty())
            (*spec)["metrics"] = std::move(all);
        if (behavior.is_object())
            (*spec)["behavior"] = std::move(behavior);
    }
    if (json *status = jsonedit::existingObject(object, "status")) {
        json all = json::array();
        if (const auto current = jsonedit::integer(member(*status, "currentCPUUtilizationPercentage")))
            all.push_back({{"type", "Resource"},
                           {"resource", {{"name", "cpu"}, {"current", {{"averageUtilization", *current}}}}}});
        if (currentMetrics.is_array())
            all.insert(all.end(), currentMetrics.begin(), currentMetrics.end());
        status->erase("currentCPUUtilizationPercentage");
        if (!all.empty())
            (*status)["currentMetrics"] = std::move(all);
        if (conditions.is_array())
            (*status)["conditions"] = std::move(conditions);
    }
}

void horizontalPodAutoscalerToV1(json &object)
{
    if (json *spec = jsonedit::existingObject(object, "spec")) {
        json others = json::array();
        for (const json &metric : member(*spec, "metrics")) {
            if (isCpuUtilization(metric, "target") && !spec->contains("targetCPUUtilizationPercentage"))
                (*spec)["targetCPUUtilizationPercentage"] = model::memberAt(metric, "resource", "target", "averageUtilization");
            else
                others.push_back(metric);
        }
        spec->erase("metrics");
        if (!others.empty())
            putAnnotation(object, METRICS_ANNOTATION, others);
        if (json behavior = member(*spec, "behavior"); !behavior.is_null()) {
            spec->erase("behavior");
            putAnnotation(object, BEHAVIOR_ANNOTATION, behavior);
        }
    }
    if (json *status = jsonedit::existingObject(object, "status")) {
        // Both counts lack omitempty in v1 (in v2 only desiredReplicas does).
        jsonedit::setDefault(*status, "currentReplicas", 0);
        jsonedit::setDefault(*status, "desiredReplicas", 0);
        json others = json::array();
        for (const json &metric : member(*status, "currentMetrics")) {
            if (isCpuUtilization(metric, "current") && !status->contains("currentCPUUtilizationPercentage"))
                (*status)["currentCPUUtilizationPercentage"] =
                    model::memberAt(metric, "resource", "current", "averageUtilization");
            else
                others.push_back(metric);
        }
        status->erase("currentMetrics");
        if (!others.empty())
            putAnnotation(object, CURRENT_METRICS_ANNOTATION, others);
        if (json conditions = member(*status, "conditions"); !conditions.is_null()) {
            status->erase("conditions");
            putAnnotation(object, CONDITIONS_ANNOTATION, conditions);
        }
    }
}
} // namespace

std::shared_ptr<const VersionConversion> horizontalPodAutoscalerV1()
{
    static const auto conversion = std::make_shared<const VersionConversion>(
        VersionConversion{"autoscaling/v2", horizontalPodAutoscalerToV2, horizontalPodAutoscalerToV1});
    return conversion;
}

} // namespace rvscope::registry::conversions
