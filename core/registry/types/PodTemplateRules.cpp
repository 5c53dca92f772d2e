// SPDX-License-Identifier: MIT
#include "registry/types/PodTemplateRules.h"

#include "model/JsonAccess.h"
#include "registry/selection/LabelSelector.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/PodSpecDefaults.h"
#include "registry/strategies/PodSpecValidation.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/LabelSelectorValidation.h"
#include "registry/validation/ObjectMetaValidation.h"

namespace rvscope::registry::podtemplate {
namespace {
using model::member;

std::map<std::string, std::string> stringMap(const nlohmann::json &json)
{
    std::map<std::string, std::string> map;
    if (json.is_object()) {
        for (const auto &[key, value] : json.items()) {
            if (value.is_string())
                map.emplace(key, value.get<std::string>());
        }
    }
    return map;
}

// "spec" + "template" → "spec.template"; "" + "template" → "template".
std::string child(const std::string &path, const char *name)
{
    return path.empty() ? std::string(name) : path + '.' + name;
}
} // namespace

void applyTemplateDefaults(nlohmann::json &spec)
{
    if (nlohmann::json *templ = jsonedit::existingObject(spec, "template")) {
        if (nlohmann::json *podSpec = jsonedit::childObject(*templ, "spec"))
            podspec::applyPodSpecDefaults(*podSpec);
    }
}

void validateRequiredSelector(const nlohmann::json &spec, const std::string &path, const char *what, Causes &causes)
{
    const nlohmann::json &selector = member(spec, "selector");
    const std::string field = child(path, "selector");
    if (selector.is_null()) {
        causes.push_back(requiredField(field));
        return;
    }
    appendUnique(causes, validateLabelSelector(selector, field));
    if (member(selector, "matchLabels").empty() && member(selector, "matchExpressions").empty())
        causes.push_back(invalidFieldGo(field, goLabelSelector(selector), std::string("empty selector is invalid for ") + what));
}

void validateTemplate(const nlohmann::json &spec, const nlohmann::json *selector, const std::string &path,
                      const std::vector<std::string> &restartPolicies, Causes &causes)
{
    const nlohmann::json &templ = member(spec, "template");
    const std::string templatePath = child(path, "template");
    const nlohmann::json &labels = model::memberAt(templ, "metadata", "labels");
    if (selector) {
        auto parsed = LabelSelector::fromJson(*selector);
        if (!parsed) {
            causes.push_back(invalidFieldGo(child(path, "selector"), goLabelSelector(*selector), "invalid label selector"));
        } else if (!parsed->empty() && !parsed->matches(stringMap(labels))) {
            causes.push_back(invalidFieldGo(templatePath + ".metadata.labels", goStringMap(labels),
                                            "`selector` does not match template `labels`"));
        }
    }
    appendUnique(causes, validateLabels(labels, FieldPath(templatePath + ".metadata.labels")));
    appendUnique(causes, validateAnnotations(model::memberAt(templ, "metadata", "annotations"),
                                             FieldPath(templatePath + ".metadata.annotations")));
    const nlohmann::json &podSpec = member(templ, "spec");
    appendUnique(causes, podspec::validatePodSpec(podSpec, templatePath + ".spec"));
    const std::string restartPolicy = model::stringOr(member(podSpec, "restartPolicy"));
    // Empty only before defaulting, which fills Always.
    bool allowed = restartPolicy.empty();
    for (const std::string &policy : restartPolicies)
        allowed = allowed || restartPolicy == policy;
    if (!allowed)
        causes.push_back(notSupportedField(templatePath + ".spec.restartPolicy", goQuote(restartPolicy), restartPolicies));
}

void validateSelectorUnchanged(const nlohmann::json &spec, const nlohmann::json &oldSpec, const std::string &path,
                               Causes &causes)
{
    const nlohmann::json &selector = member(spec, "selector");
    if (!jsonedit::semanticEqual(selector, member(oldSpec, "selector")))
        causes.push_back(invalidFieldGo(child(path, "selector"), goLabelSelector(selector), "field is immutable"));
}

} // namespace rvscope::registry::podtemplate
