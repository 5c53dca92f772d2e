// SPDX-License-Identifier: MIT
#include "registry/strategies/DeploymentStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/types/PodTemplateRules.h"

namespace rvscope::registry {
namespace {
using Causes = std::vector<model::StatusCause>;
using model::member;

const char *const PERCENT_DETAIL = "a valid percent string must be a numeric string followed by an ending '%' "
                                   "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

// The number in "25%" (isPercent) or 5; nullopt when it is neither.
std::optional<std::int64_t> intOrPercentValue(const nlohmann::json &value, bool &isPercent)
{
    isPercent = false;
    if (const auto number = jsonedit::integer(value))
        return number;
    const std::string text = model::stringOr(value);
    if (text.size() < 2 || text.back() != '%' || text.find_first_not_of("0123456789") != text.size() - 1)
        return std::nullopt;
    isPercent = true;
    return std::stoll(text.substr(0, std::min<std::size_t>(text.size() - 1, 18)));
}

// ValidatePositiveIntOrPercent.
void validateIntOrPercent(const nlohmann::json &value, const char *path, Causes &causes)
{
    bool isPercent = false;
    if (value.is_string()) {
        if (!intOrPercentValue(value, isPercent))
            causes.push_back(invalidFieldGo(path, goIntOrString(value), PERCENT_DETAIL));
    } else if (jsonedit::integer(value)) {
        checkNonNegative(value, path, causes);
    } else if (!value.is_null()) {
        causes.push_back(invalidFieldGo(path, goIntOrString(value), "must be an integer or percentage (e.g '5%')"));
    }
}

void validateStrategy(const nlohmann::json &strategy, Causes &causes)
{
    const std::string type = model::stringOr(member(strategy, "type"));
    const nlohmann::json &rollingUpdate = member(strategy, "rollingUpdate");
    if (type == "Recreate") {
        if (!rollingUpdate.is_null())
            causes.push_back(forbiddenField("spec.strategy.rollingUpdate",
                                            "may not be specified when strategy `type` is 'Recreate'"));
    } else if (type == "RollingUpdate") {
        if (rollingUpdate.is_null()) {
            causes.push_back(requiredField("spec.strategy.rollingUpdate", "this should be defaulted and never be nil"));
            return;
        }
        const nlohmann::json &maxUnavailable = member(rollingUpdate, "maxUnavailable");
        const nlohmann::json &maxSurge = member(rollingUpdate, "maxSurge");
        validateIntOrPercent(maxUnavailable, "spec.strategy.rollingUpdate.maxUnavailable", causes);
        validateIntOrPercent(maxSurge, "spec.strategy.rollingUpdate.maxSurge", causes);
        bool unavailablePercent = false;
        bool surgePercent = false;
        const auto unavailable = intOrPercentValue(maxUnavailable, unavailablePercent);
        const auto surge = intOrPercentValue(maxSurge, surgePercent);
        if (unavailable.value_or(0) == 0 && surge.value_or(0) == 0)
            causes.push_back(invalidFieldGo("spec.strategy.rollingUpdate.maxUnavailable", goIntOrString(maxUnavailable),
                                            "may not be 0 when `maxSurge` is 0"));
        if (unavailablePercent && unavailable.value_or(0) > 100)
            causes.push_back(invalidFieldGo("spec.strategy.rollingUpdate.maxUnavailable", goIntOrString(maxUnavailable),
                                            "must not be greater than 100%"));
    } else {
        const std::string rendered = "apps.DeploymentStrategy{Type:" + goQuote(type) + ", RollingUpdate:"
            + (rollingUpdate.is_null() ? "(*apps.RollingUpdateDeployment)(nil)" : "&apps.RollingUpdateDeployment{...}") + '}';
        causes.push_back(notSupportedField("spec.strategy", rendered, {"Recreate", "RollingUpdate"}));
    }
}

Causes validateDeploymentSpec(const nlohmann::json &spec)
{
    Causes causes;
    checkNonNegative(member(spec, "replicas"), "spec.replicas", causes);
    podtemplate::validateRequiredSelector(spec, "spec", "deployment", causes);
    podtemplate::validateTemplate(spec, &member(spec, "selector"), "spec", {"Always"}, causes);
    if (!model::memberAt(spec, "template", "spec", "activeDeadlineSeconds").is_null())
        causes.push_back(forbiddenField("spec.template.spec.activeDeadlineSeconds",
                                        "activeDeadlineSeconds in ReplicaSet is not Supported"));
    validateStrategy(member(spec, "strategy"), causes);
    checkNonNegative(member(spec, "minReadySeconds"), "spec.minReadySeconds", causes);
    checkNonNegative(member(spec, "revisionHistoryLimit"), "spec.revisionHistoryLimit", causes);
    const nlohmann::json &deadline = member(spec, "progressDeadlineSeconds");
    if (const auto seconds = jsonedit::integer(deadline)) {
        checkNonNegative(deadline, "spec.progressDeadlineSeconds", causes);
        if (*seconds <= jsonedit::integer(member(spec, "minReadySeconds")).value_or(0))
            causes.push_back(invalidFieldInt("spec.progressDeadlineSeconds", *seconds, "must be greater than minReadySeconds"));
    }
    return causes;
}
} // namespace

void DeploymentStrategy::applyDefaults(model::Object &object)
{
    nlohmann::json *spec = jsonedit::childObject(object.mutableJson(), "spec");
    if (!spec)
        return;
    jsonedit::setDefault(*spec, "replicas", 1);
    if (nlohmann::json *strategy = jsonedit::childObject(*spec, "strategy")) {
        jsonedit::setDefaultString(*strategy, "type", "RollingUpdate");
        if (jsonedit::isString(member(*strategy, "type"), "RollingUpdate")) {
            if (nlohmann::json *rollingUpdate = jsonedit::childObject(*strategy, "rollingUpdate")) {
                jsonedit::setDefault(*rollingUpdate, "maxUnavailable", "25%");
                jsonedit::setDefault(*rollingUpdate, "maxSurge", "25%");
            }
        }
    }
    jsonedit::setDefault(*spec, "revisionHistoryLimit", 10);
    jsonedit::setDefault(*spec, "progressDeadlineSeconds", 600);
    podtemplate::applyTemplateDefaults(*spec);
}

bool DeploymentStrategy::generationChanged(const model::Object &object, const model::Object &old) const
{
    // Annotations count because the controller copies them to the ReplicaSets.
    return !jsonedit::semanticEqual(member(object.json(), "spec"), member(old.json(), "spec"))
        || !jsonedit::semanticEqual(model::memberAt(object.json(), "metadata", "annotations"),
                                    model::memberAt(old.json(), "metadata", "annotations"));
}

void DeploymentStrategy::prepareForCreate(model::Object &object) const
{
    object.mutableJson()["status"] = nlohmann::json::object();
    applyDefaults(object);
}

void DeploymentStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    applyDefaults(object);
    keepField(object, old, "status");
}

std::vector<model::StatusCause> DeploymentStrategy::validate(const model::Object &object) const
{
    Causes causes = Strategy::validate(object);
    appendUnique(causes, validateDeploymentSpec(member(object.json(), "spec")));
    return causes;
}

std::vector<model::StatusCause> DeploymentStrategy::validateUpdate(const model::Object &object,
                                                                   const model::Object &old) const
{
    Causes causes = Strategy::validateUpdate(object, old);
    podtemplate::validateSelectorUnchanged(member(object.json(), "spec"), member(old.json(), "spec"), "spec", causes);
    return causes;
}

} // namespace rvscope::registry
