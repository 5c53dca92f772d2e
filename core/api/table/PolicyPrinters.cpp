// SPDX-License-Identifier: MIT
// What bounds a namespace's or a cluster's pods: ResourceQuota, PodDisruptionBudget and
// PriorityClass (table-output.md §5.2, §5.7). LimitRange has no printer upstream.
#include <map>

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

} // namespace

// 1.32's column order: Name, Age, Request, Limit (1.33 moves Age last).
Printer resourceQuotas()
{
    return {{nameColumn(), ageColumn(),
             column("Request", "Request represents a minimum amount of cpu/memory that a container may consume."),
             column("Limit", "Limits control the maximum amount of cpu/memory that a container may use independent "
                             "of contention on the node.")},
            [](const json &o, std::int64_t now) {
                const json &hard = memberAt(o, "status", "hard");
                const json &used = memberAt(o, "status", "used");
                // std::map sorts the resource names as strings, as SortableResourceNames does
                std::map<std::string, std::string> entries;
                if (hard.is_object())
                    for (auto it = hard.begin(); it != hard.end(); ++it)
                        entries[it.key()] = it.key() + ": " + canonicalQuantity(member(used, it.key())) + '/'
                            + canonicalQuantity(it.value());
                std::vector<std::string> requests, limits;
                for (const auto &[resource, text] : entries) {
                    const auto dot = resource.find('.');
                    // "limits.cpu" is a limit; "limits" alone and everything else a request
                    (dot != std::string::npos && resource.compare(0, dot, "limits") == 0 ? limits : requests)
                        .push_back(text);
                }
                return json::array({objectName(o), objectAge(o, now), joined(requests, ", "), joined(limits, ", ")});
            }};
}

Printer podDisruptionBudgets()
{
    return {{nameColumn(), column("Min Available", "The minimum number of pods that must be available."),
             column("Max Unavailable", "The maximum number of pods that may be unavailable."),
             column("Allowed Disruptions", "Calculated number of pods that may be disrupted at this time.", 0,
                    "integer"),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                const auto orNotApplicable = [](const json &value) {
                    return value.is_null() ? std::string("N/A") : intOrString(value);
                };
                return json::array({objectName(o), orNotApplicable(member(spec, "minAvailable")),
                                    orNotApplicable(member(spec, "maxUnavailable")),
                                    integerOr0(memberAt(o, "status", "disruptionsAllowed")), objectAge(o, now)});
            }};
}

// PreemptionPolicy is new in 1.32 and has priority 0.
Printer priorityClasses()
{
    return {{nameColumn(),
             column("Value", "value represents the integer value of this priority class. This is the actual priority "
                             "that pods receive when they have the name of this class in their pod spec.", 0,
                    "integer"),
             column("Global-Default",
                    "globalDefault specifies whether this PriorityClass should be considered as the default priority "
                    "for pods that do not have any priority class. Only one PriorityClass can be marked as "
                    "`globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` "
                    "field set to true, the smallest value of such global default PriorityClasses will be used as the "
                    "default priority.", 0, "boolean"),
             ageColumn(),
             column("PreemptionPolicy", "preemptionPolicy is the Policy for preempting pods with lower priority. One "
                                        "of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.")},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), integerOr0(member(o, "value")), member(o, "globalDefault") == true,
                                    objectAge(o, now), model::stringOr(member(o, "preemptionPolicy"))});
            }};
}

} // namespace rvscope::api::table
