// SPDX-License-Identifier: MIT
// Job and CronJob (table-output.md §5.3).
#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::memberAt;

const char *const JOB_SELECTOR_DOC = "A label query over pods that should match the pod count. Normally, the system "
                                     "sets this field for you. More info: "
                                     "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/"
                                     "#label-selectors";

// hasJobCondition: only the first condition of `type` counts.
bool jobCondition(const json &job, const char *type)
{
    const json &conditions = memberAt(job, "status", "conditions");
    for (const json &condition : conditions.is_array() ? conditions : json::array()) {
        if (member(condition, "type") == type)
            return member(condition, "status") == "True";
    }
    return false;
}

std::string jobStatus(const json &job)
{
    if (jobCondition(job, "Complete"))
        return "Complete";
    if (jobCondition(job, "Failed"))
        return "Failed";
    if (!memberAt(job, "metadata", "deletionTimestamp").is_null())
        return "Terminating";
    if (jobCondition(job, "Suspended"))
        return "Suspended";
    if (jobCondition(job, "FailureTarget"))
        return "FailureTarget";
    return "Running";
}

std::string completions(const json &job)
{
    const std::string succeeded = std::to_string(integerOr0(memberAt(job, "status", "succeeded")));
    const json &spec = member(job, "spec");
    if (const json &wanted = member(spec, "completions"); !wanted.is_null())
        return succeeded + '/' + std::to_string(integerOr0(wanted));
    const std::int64_t parallelism = integerOr0(member(spec, "parallelism"));
    return parallelism > 1 ? succeeded + "/1 of " + std::to_string(parallelism) : succeeded + "/1";
}

// "" before the job starts; since the start while it runs; start to completion once done.
std::string jobDuration(const json &job, std::int64_t now)
{
    const json &status = member(job, "status");
    const json &startText = member(status, "startTime");
    if (startText.is_null())
        return "";
    const auto start = startText.is_string() ? parseTime(startText.get_ref<const std::string &>()) : std::nullopt;
    const json &endText = member(status, "completionTime");
    const auto end = endText.is_string() ? parseTime(endText.get_ref<const std::string &>()) : std::nullopt;
    // A time the apiserver would not have stored counts as the zero time, as Go's decoder leaves it.
    constexpr std::int64_t ZERO_TIME = -62135596800; // 0001-01-01T00:00:00Z
    const std::int64_t from = start.value_or(ZERO_TIME);
    return humanDuration(endText.is_null() ? now - from : end.value_or(ZERO_TIME) - from);
}

// printBoolPtr: "True", "False", or "<unset>" for null.
std::string boolPointer(const json &value)
{
    if (value.is_boolean())
        return value.get<bool>() ? "True" : "False";
    return "<unset>";
}

} // namespace

Printer jobs()
{
    return {{nameColumn(), column("Status", "Status of the job."),
             column("Completions", "The number of pods which reached phase Succeeded. The value increases "
                                   "monotonically for a given spec. However, it may decrease in reaction to scale "
                                   "down of elastic indexed jobs."),
             column("Duration", "Time required to complete the job."), ageColumn(),
             column("Containers", CONTAINERS_DOC, 1), column("Images", IMAGES_DOC, 1),
             column("Selector", JOB_SELECTOR_DOC, 1)},
            [](const json &o, std::int64_t now) {
                const json &podSpec = memberAt(o, "spec", "template", "spec");
                return json::array({objectName(o), jobStatus(o), completions(o), jobDuration(o, now),
                                    objectAge(o, now), containerNames(podSpec), containerImages(podSpec),
                                    formatLabelSelector(memberAt(o, "spec", "selector"))});
            }};
}

Printer cronJobs()
{
    return {{nameColumn(), column("Schedule", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
             column("Timezone",
                    "The time zone name for the given schedule, see "
                    "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default "
                    "to the time zone of the kube-controller-manager process. The set of valid time zone names and the "
                    "time zone offset is loaded from the system-wide time zone database by the API server during "
                    "CronJob validation and the controller manager during execution. If no system-wide time zone "
                    "database can be found a bundled version of the database is used instead. If the time zone name "
                    "becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the "
                    "controller will stop creating new new Jobs and will create a system event with the reason "
                    "UnknownTimeZone. More information can be found in "
                    "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones"),
             column("Suspend", "This flag tells the controller to suspend subsequent executions, it does not apply to "
                               "already started executions.  Defaults to false.", 0, "boolean"),
             column("Active", "A list of pointers to currently running jobs.", 0, "integer"),
             column("Last Schedule", "Information when was the last time the job was successfully scheduled."),
             ageColumn(), column("Containers", CONTAINERS_DOC, 1), column("Images", IMAGES_DOC, 1),
             column("Selector", JOB_SELECTOR_DOC, 1)},
            [](const json &o, std::int64_t now) {
                const json &spec = member(o, "spec");
                const json &status = member(o, "status");
                const json &lastSchedule = member(status, "lastScheduleTime");
                const json &jobSpec = memberAt(spec, "jobTemplate", "spec");
                const json &podSpec = memberAt(jobSpec, "template", "spec");
                return json::array({objectName(o), model::stringOr(member(spec, "schedule")),
                                    model::stringOr(member(spec, "timeZone"), "<none>"),
                                    boolPointer(member(spec, "suspend")), sizeOf(member(status, "active")),
                                    lastSchedule.is_null() ? "<none>" : age(lastSchedule, now), objectAge(o, now),
                                    containerNames(podSpec), containerImages(podSpec),
                                    formatLabelSelector(member(jobSpec, "selector"))});
            }};
}

} // namespace rvscope::api::table
