// SPDX-License-Identifier: MIT
// batch/v1 Job and CronJob (pkg/apis/batch/v1/defaults.go, pkg/apis/batch/validation,
// pkg/registry/batch/{job,cronjob}/strategy.go).
#include "registry/types/BuiltinRules.h"

#include <sstream>

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

const std::vector<std::string> JOB_RESTART_POLICIES = {"OnFailure", "Never"};
constexpr std::size_t CRONJOB_NAME_MAX = 52;

// --- Job --------------------------------------------------------------------------------
void jobDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    // SetDefaults_Job: a job without labels takes its template's (as the user wrote them,
    // before the generated selector labels are added).
    const nlohmann::json &templateLabels = memberAt(*spec, "template", "metadata", "labels");
    if (templateLabels.is_object() && !templateLabels.empty()) {
        if (nlohmann::json *meta = jsonedit::childObject(object, "metadata"); meta && member(*meta, "labels").empty())
            (*meta)["labels"] = templateLabels;
    }
    // no completions and no parallelism means one pod to run once.
    if (member(*spec, "completions").is_null() && member(*spec, "parallelism").is_null())
        (*spec)["completions"] = 1;
    jsonedit::setDefault(*spec, "parallelism", 1);
    jsonedit::setDefault(*spec, "backoffLimit", member(*spec, "backoffLimitPerIndex").is_null() ? 6 : 2147483647);
    jsonedit::setDefaultString(*spec, "completionMode", "NonIndexed");
    jsonedit::setDefault(*spec, "suspend", false);
    jsonedit::setDefaultString(*spec, "podReplacementPolicy",
                               member(*spec, "podFailurePolicy").is_null() ? "TerminatingOrFailed" : "Failed");
    podtemplate::applyTemplateDefaults(*spec);
}

void validateJobSpec(const nlohmann::json &spec, const std::string &path, const nlohmann::json *selector, Causes &causes)
{
    for (const char *field : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                              "ttlSecondsAfterFinished"})
        checkNonNegative(member(spec, field), path + '.' + field, causes);
    if (!member(spec, "template").is_object()) {
        causes.push_back(requiredField(path + ".template"));
        return;
    }
    podtemplate::validateTemplate(spec, selector && !selector->is_null() ? selector : nullptr, path, JOB_RESTART_POLICIES, causes);
    const std::string mode = model::stringOr(member(spec, "completionMode"));
    if (!mode.empty() && mode != "NonIndexed" && mode != "Indexed")
        causes.push_back(notSupportedField(path + ".completionMode", goQuote(mode), {"NonIndexed", "Indexed"}));
    if (mode == "Indexed" && member(spec, "completions").is_null())
        causes.push_back(requiredField(path + ".completions", "when completion mode is Indexed"));
}

void validateJob(const nlohmann::json &object, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    const nlohmann::json &selector = member(spec, "selector");
    if (selector.is_null())
        causes.push_back(requiredField("spec.selector"));
    validateJobSpec(spec, "spec", &selector, causes);
}

// ValidateJobSpecUpdate: the selector, completions (outside elastic indexed jobs) and, unless
// the job is suspended, the pod template are immutable.
void validateJobUpdate(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    const nlohmann::json &spec = member(object, "spec");
    const nlohmann::json &oldSpec = member(old, "spec");
    podtemplate::validateSelectorUnchanged(spec, oldSpec, "spec", causes);
    const bool indexed = jsonedit::isString(member(spec, "completionMode"), "Indexed");
    if (!indexed && !jsonedit::semanticEqual(member(spec, "completions"), member(oldSpec, "completions")))
        causes.push_back(invalidFieldJson("spec.completions", member(spec, "completions"), "field is immutable"));
    const bool suspended = member(oldSpec, "suspend") == true;
    if (!suspended && !jsonedit::semanticEqual(member(spec, "template"), member(oldSpec, "template")))
        causes.push_back(invalidFieldGo("spec.template", "core.PodTemplateSpec{...}", "field is immutable"));
}

// PrepareForCreate: unless spec.manualSelector, the job selects its pods by its uid, and the
// template carries the labels that select them (generateSelector).
void jobPrepareCreate(nlohmann::json &object)
{
    jobDefaults(object);
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec || member(*spec, "manualSelector") == true)
        return;
    const std::string uid = model::stringOr(memberAt(object, "metadata", "uid"));
    const std::string name = model::stringOr(memberAt(object, "metadata", "name"));
    if (uid.empty() || !member(*spec, "template").is_object())
        return;
    nlohmann::json *templ = jsonedit::childObject(*spec, "template");
    nlohmann::json *meta = templ ? jsonedit::childObject(*templ, "metadata") : nullptr;
    nlohmann::json *labels = meta ? jsonedit::childObject(*meta, "labels") : nullptr;
    if (!labels)
        return;
    (*labels)["batch.kubernetes.io/controller-uid"] = uid;
    (*labels)["batch.kubernetes.io/job-name"] = name;
    (*labels)["controller-uid"] = uid;
    (*labels)["job-name"] = name;
    if (member(*spec, "selector").is_null())
        (*spec)["selector"] = {{"matchLabels", {{"batch.kubernetes.io/controller-uid", uid}}}};
}

// --- CronJob ----------------------------------------------------------------------------
void cronJobDefaults(nlohmann::json &object)
{
    nlohmann::json *spec = jsonedit::existingObject(object, "spec");
    if (!spec)
        return;
    jsonedit::setDefaultString(*spec, "concurrencyPolicy", "Allow");
    jsonedit::setDefault(*spec, "suspend", false);
    jsonedit::setDefault(*spec, "successfulJobsHistoryLimit", 3);
    jsonedit::setDefault(*spec, "failedJobsHistoryLimit", 1);
    if (nlohmann::json *jobTemplate = jsonedit::existingObject(*spec, "jobTemplate")) {
        if (nlohmann::json *jobSpec = jsonedit::existingObject(*jobTemplate, "spec"))
            podtemplate::applyTemplateDefaults(*jobSpec);
    }
}

// robfig/cron's standard parser, as the CronJob controller uses it: five fields or a
// descriptor. Returns the parser's error text, empty when the schedule parses.
std::string cronScheduleError(const std::string &schedule)
{
    static const char *const DESCRIPTORS[] = {"@yearly", "@annually", "@monthly", "@weekly",
                                              "@daily", "@midnight", "@hourly"};
    if (!schedule.empty() && schedule[0] == '@') {
        for (const char *descriptor : DESCRIPTORS) {
            if (schedule == descriptor)
                return {};
        }
        if (schedule.rfind("@every ", 0) == 0 && schedule.size() > 7)
            return {};
        return "unrecognized descriptor: " + schedule;
    }
    std::istringstream in(schedule);
    std::vector<std::string> fields;
    for (std::string field; in >> field;)
        fields.push_back(field);
    if (fields.size() != 5) {
        std::string list = "[";
        for (std::size_t i = 0; i < fields.size(); ++i)
            list += (i ? " " : "") + fields[i];
        return "expected exactly 5 fields, found " + std::to_string(fields.size()) + ": " + list + "]";
    }
    static const int BOUNDS[5][2] = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}};
    for (std::size_t i = 0; i < fields.size(); ++i) {
        std::istringstream parts(fields[i]);
        for (std::string part; std::getline(parts, part, ',');) {
            std::string range = part.substr(0, part.find('/'));
            if (range == "*" || range == "?")
                continue;
            const bool numeric = !range.empty() && range.find_first_not_of("0123456789-") == std::string::npos;
            const bool named = i >= 3 && !range.empty() && range.find_first_not_of(
                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-") == std::string::npos;
            if (!numeric && !named)
                return "failed to parse int from " + range + ": strconv.Atoi: parsing " + goQuote(range)
                    + ": invalid syntax";
            if (numeric) {
                const int low = std::atoi(range.c_str());
                const std::size_t dash = range.find('-');
                const int high = dash == std::string::npos ? low : std::atoi(range.c_str() + dash + 1);
                if (low < BOUNDS[i][0])
                    return "beginning of range (" + std::to_string(low) + ") below minimum (" + std::to_string(BOUNDS[i][0]) + "): " + part;
                if (high > BOUNDS[i][1] + (i == 4 ? 1 : 0))
                    return "end of range (" + std::to_string(high) + ") above maximum (" + std::to_string(BOUNDS[i][1]) + "): " + part;
            }
        }
    }
    return {};
}

void validateCronJob(const nlohmann::json &object, Causes &causes)
{
    const std::string name = model::stringOr(memberAt(object, "metadata", "name"));
    if (name.size() > CRONJOB_NAME_MAX)
        causes.push_back(invalidField("metadata.name", name, "must be no more than 52 characters"));
    const nlohmann::json &spec = member(object, "spec");
    const std::string schedule = model::stringOr(member(spec, "schedule"));
    if (schedule.empty()) {
        causes.push_back(requiredField("spec.schedule"));
    } else if (schedule.find("TZ=") != std::string::npos) {
        causes.push_back(invalidField("spec.schedule", schedule,
                                      "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
    } else if (const std::string error = cronScheduleError(schedule); !error.empty()) {
        causes.push_back(invalidField("spec.schedule", schedule, error));
    }
    const std::string policy = model::stringOr(member(spec, "concurrencyPolicy"));
    if (!policy.empty() && policy != "Allow" && policy != "Forbid" && policy != "Replace")
        causes.push_back(notSupportedField("spec.concurrencyPolicy", goQuote(policy), {"Allow", "Forbid", "Replace"}));
    for (const char *field : {"startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"})
        checkNonNegative(member(spec, field), std::string("spec.") + field, causes);
    const nlohmann::json &jobSpec = memberAt(spec, "jobTemplate", "spec");
    const nlohmann::json &selector = member(jobSpec, "selector");
    validateJobSpec(jobSpec, "spec.jobTemplate.spec", selector.is_null() ? nullptr : &selector, causes);
}

} // namespace

TypeRules job()
{
    return {.generation = Generation::Spec, .statusSplit = true, .prepareCreate = jobPrepareCreate,
            .defaults = jobDefaults, .validate = validateJob, .validateUpdate = validateJobUpdate};
}

TypeRules cronJob()
{
    return {.generation = Generation::Spec, .statusSplit = true, .defaults = cronJobDefaults,
            .validate = validateCronJob};
}

} // namespace rvscope::registry::rules
