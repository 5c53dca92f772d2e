// SPDX-License-Identifier: MIT
// autoscaling/v1 HorizontalPodAutoscalers, stored as autoscaling/v2 (pkg/apis/autoscaling/v1
// conversion.go): v1's targetCPUUtilizationPercentage is v2's Resource cpu Utilization
// metric, its currentCPUUtilizationPercentage the matching current metric. What v1 cannot
// say (other metrics, behavior, conditions) travels in the annotations upstream uses, so a
// v1 client's read-modify-write keeps it.
#include "registry/types/VersionConversions.h"

#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"
#include "registry/strategies/JsonEdit.h"

namespace rvscope::registry::conversions {
namespace {
using model::member;
using nlohmann::json;

constexpr const char *METRICS_ANNOTATION = "autoscaling.alpha.kubernetes.io/metrics";
constexpr const char *CURRENT_METRICS_ANNOTATION = "autoscaling.alpha.kubernetes.io/current-metrics";
constexpr const char *BEHAVIOR_ANNOTATION = "autoscaling.alpha.kubernetes.io/behavior";
constexpr const char *CONDITIONS_ANNOTATION = "autoscaling.alpha.kubernetes.io/conditions";

constexpr const char *ROUND_TRIP_ANNOTATIONS[] = {METRICS_ANNOTATION, CURRENT_METRICS_ANNOTATION, BEHAVIOR_ANNOTATION,
                                                  CONDITIONS_ANNOTATION};

bool isCpuResource(const json &metric)
{
    return member(metric, "type") == "Resource" && model::memberAt(metric, "resource", "name") == "cpu";
}

bool isCpuUtilizationTarget(const json &metric)
{
    return isCpuResource(metric) && model::memberAt(metric, "resource", "target", "type") == "Utilization"
        && jsonedit::integer(model::memberAt(metric, "resource", "target", "averageUtilization"));
}

json *annotationsOf(json &object)
{
    json *meta = jsonedit::existingObject(object, "metadata");
    return meta ? jsonedit::existingObject(*meta, "annotations") : nullptr;
}

// Takes annotation `name` out of `object` as parsed JSON: null when absent, or when it is not
// JSON (depth-limited: the annotation is client text).
json takeAnnotation(json &object, const char *name)
{
    json *annotations = annotationsOf(object);
    if (!annotations || !annotations->contains(name))
        return nullptr;
    std::optional<json> value = model::parseJson(model::stringOr(member(*annotations, name)));
    annotations->erase(name);
    if (annotations->empty())
        object["metadata"].erase("annotations");
    return value ? std::move(*value) : json();
}

void putAnnotation(json &object, const char *name, const json &value)
{
    json *meta = jsonedit::childObject(object, "metadata");
    json *annotations = meta ? jsonedit::childObject(*meta, "annotations") : nullptr;
    if (annotations)
        (*annotations)[name] = model::dumpJson(value); // invalid UTF-8 replaced, never thrown
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
        if (metrics.is_array()) {
            for (json &metric : metrics)
                all.push_back(std::move(metric));
        }
        spec->erase("targetCPUUtilizationPercentage");
        if (!all.empty())
            (*spec)["metrics"] = std::move(all);
        if (behavior.is_object())
            (*spec)["behavior"] = std::move(behavior);
    }
    if (json *status = jsonedit::existingObject(object, "status")) {
        // The annotation has every current metric; without it, only the cpu percentage.
        json all = json::array();
        if (currentMetrics.is_array())
            all = std::move(currentMetrics);
        else if (const auto current = jsonedit::integer(member(*status, "currentCPUUtilizationPercentage")))
            all.push_back({{"type", "Resource"},
                           {"resource", {{"name", "cpu"}, {"current", {{"averageUtilization", *current}}}}}});
        status->erase("currentCPUUtilizationPercentage");
        // v2's currentReplicas is omitempty: v1's required 0 is no change.
        if (jsonedit::integer(member(*status, "currentReplicas")) == 0)
            status->erase("currentReplicas");
        if (!all.empty())
            (*status)["currentMetrics"] = std::move(all);
        if (conditions.is_array())
            (*status)["conditions"] = std::move(conditions);
    }
}

void horizontalPodAutoscalerToV1(json &object)
{
    // What a v2 client put in these annotations is not v1's to carry (upstream's
    // DropRoundTripHorizontalPodAutoscalerAnnotations).
    if (json *annotations = annotationsOf(object)) {
        for (const char *name : ROUND_TRIP_ANNOTATIONS)
            annotations->erase(name);
        if (annotations->empty())
            object["metadata"].erase("annotations");
    }
    if (json *spec = jsonedit::existingObject(object, "spec")) {
        json others = json::array();
        for (const json &metric : member(*spec, "metrics")) {
            if (isCpuUtilizationTarget(metric) && !spec->contains("targetCPUUtilizationPercentage"))
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
        // Every current metric travels in the annotation, cpu included (its averageValue
        // too); v1's currentCPUUtilizationPercentage is a copy of the cpu utilization.
        const json &current = member(*status, "currentMetrics");
        for (const json &metric : current) {
            const json &utilization = model::memberAt(metric, "resource", "current", "averageUtilization");
            if (isCpuResource(metric) && jsonedit::integer(utilization)) {
                (*status)["currentCPUUtilizationPercentage"] = utilization;
                break;
            }
        }
        if (current.is_array() && !current.empty())
            putAnnotation(object, CURRENT_METRICS_ANNOTATION, current);
        status->erase("currentMetrics");
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
