// SPDX-License-Identifier: MIT
// HorizontalPodAutoscaler, from its autoscaling/v2 shape (table-output.md §5.7).
#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/QuantityText.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;

// Quantity.String() of a *Quantity: "<nil>" when it is unset.
std::string quantityPointer(const json &value)
{
    return value.is_null() ? "<nil>" : canonicalQuantity(value);
}

std::string percent(const json &value)
{
    return std::to_string(integerOr0(value)) + '%';
}

// The current value of `status`'s `source` ("object", "resource", ...), when that is present.
const json *currentOf(const json &statuses, std::size_t i, const char *source)
{
    if (!statuses.is_array() || i >= statuses.size())
        return nullptr;
    const json &metric = member(statuses[i], source);
    return metric.is_object() ? &member(metric, "current") : nullptr;
}

// Object and External: "<cur>/<target> (avg)" for an averageValue target, else "<cur>/<value>".
std::string objectMetric(const json &source, const json *current)
{
    const json &target = member(source, "target");
    if (const json &average = member(target, "averageValue"); !average.is_null()) {
        const json *value = current ? &member(*current, "averageValue") : nullptr;
        return (value && !value->is_null() ? canonicalQuantity(*value) : "<unknown>") + '/'
            + canonicalQuantity(average) + " (avg)";
    }
    return (current ? quantityPointer(member(*current, "value")) : "<unknown>") + '/'
        + quantityPointer(member(target, "value"));
}

// Resource and ContainerResource: "<res>: <cur>/<target>", as values or as utilization percentages.
std::string resourceMetric(const json &source, const json *current)
{
    const std::string name = model::stringOr(member(source, "name"));
    const json &target = member(source, "target");
    if (const json &average = member(target, "averageValue"); !average.is_null())
        return name + ": " + (current ? quantityPointer(member(*current, "averageValue")) : "<unknown>") + '/'
            + canonicalQuantity(average);
    const json *utilization = current ? &member(*current, "averageUtilization") : nullptr;
    const json &wanted = member(target, "averageUtilization");
    return name + ": " + (utilization && !utilization->is_null() ? percent(*utilization) : "<unknown>") + '/'
        + (wanted.is_null() ? "<auto>" : percent(wanted));
}

// formatHPAMetrics: spec metric i pairs with status.currentMetrics[i]; at most two shown.
std::string formatMetrics(const json &specs, const json &statuses)
{
    if (!specs.is_array() || specs.empty())
        return "<none>";
    std::vector<std::string> list;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const json &spec = specs[i];
        const std::string type = model::stringOr(member(spec, "type"));
        if (type == "External" || type == "Object") {
            const char *source = type == "External" ? "external" : "object";
            list.push_back(objectMetric(member(spec, source), currentOf(statuses, i, source)));
        } else if (type == "Pods") {
            const json *current = currentOf(statuses, i, "pods");
            list.push_back((current ? quantityPointer(member(*current, "averageValue")) : "<unknown>") + '/'
                           + quantityPointer(memberAt(spec, "pods", "target", "averageValue")));
        } else if (type == "Resource" || type == "ContainerResource") {
            const char *source = type == "Resource" ? "resource" : "containerResource";
            list.push_back(resourceMetric(member(spec, source), currentOf(statuses, i, source)));
        } else {
            list.push_back("<unknown type>");
        }
    }
    constexpr std::size_t MAX = 2;
    const std::size_t count = list.size();
    if (count <= MAX)
        return joined(list, ", ");
    list.resize(MAX);
    return joined(list, ", ") + " + " + std::to_string(count - MAX) + " more...";
}

} // namespace

Printer horizontalPodAutoscalers()
{
    return {{nameColumn(),
             column("Reference", "scaleTargetRef points to the target resource to scale, and is used to the pods for "
                                 "which metrics should be collected, as well as to actually change the replica "
                                 "count."),
             column("Targets", "metrics contains the specifications for which to use to calculate the desired "
                               "replica count (the maximum replica count across all metrics will be used).  The "
                               "desired replica count is calculated multiplying the ratio between the target value "
                               "and the current value by the current number of pods.  Ergo, metrics used must "
                               "decrease as the pod count is increased, and vice-versa.  See the individual metric "
                               "source types for more information about how each type of metric must respond."),
             column("MinPods", "minReplicas is the lower limit for the number of replicas to which the autoscaler can "
                               "scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha "
                               "feature gate HPAScaleToZero is enabled and at least one Object or External metric is "
                               "configured.  Scaling is active as long as at least one metric value is available."),
             column("MaxPods", "maxReplicas is the upper limit for the number of replicas to which the autoscaler can "
                               "scale up. It cannot be less that minReplicas."),
             column("Replicas", "currentReplicas is current number of replicas of pods managed by this autoscaler, as "
                                "last seen by the autoscaler."),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                const json &target = member(spec, "scaleTargetRef");
                const json &minReplicas = member(spec, "minReplicas");
                return json::array({objectName(o),
                                    model::stringOr(member(target, "kind")) + '/'
                                        + model::stringOr(member(target, "name")),
                                    formatMetrics(member(spec, "metrics"), memberAt(o, "status", "currentMetrics")),
                                    minReplicas.is_null() ? "<unset>" : std::to_string(integerOr0(minReplicas)),
                                    integerOr0(member(spec, "maxReplicas")),
                                    integerOr0(memberAt(o, "status", "currentReplicas")), objectAge(o, now)});
            }};
}

} // namespace rvscope::api::table
