// SPDX-License-Identifier: MIT
// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding
// (pkg/apis/rbac/validation/validation.go). Their names are path segments, not DNS names, so
// that "system:controller:job-controller" is a valid name. Stored only: rvscope's own
// authorizer reads its policy file, not these objects.
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

constexpr const char *RBAC_GROUP = "rbac.authorization.k8s.io";

bool nonEmptyList(const nlohmann::json &value)
{
    return value.is_array() && !value.empty();
}

// ValidatePolicyRule.
void validateRule(const nlohmann::json &rule, const std::string &path, bool namespaced, Causes &causes)
{
    if (!nonEmptyList(member(rule, "verbs")))
        causes.push_back(requiredField(path + ".verbs", "verbs must contain at least one value"));
    const nlohmann::json &urls = member(rule, "nonResourceURLs");
    if (nonEmptyList(urls)) {
        if (namespaced)
            causes.push_back(invalidFieldGo(path + ".nonResourceURLs", goStringSlice(urls),
                                            "namespaced rules cannot apply to non-resource URLs"));
        if (nonEmptyList(member(rule, "apiGroups")) || nonEmptyList(member(rule, "resources"))
            || nonEmptyList(member(rule, "resourceNames")))
            causes.push_back(invalidFieldGo(path + ".nonResourceURLs", goStringSlice(urls),
                                            "rules cannot apply to both regular resources and non-resource URLs"));
        return;
    }
    if (!nonEmptyList(member(rule, "apiGroups")))
        causes.push_back(requiredField(path + ".apiGroups", "resource rules must supply at least one api group"));
    if (!nonEmptyList(member(rule, "resources")))
        causes.push_back(requiredField(path + ".resources", "resource rules must supply at least one resource"));
}

void validateRules(const nlohmann::json &object, bool namespaced, Causes &causes)
{
    const nlohmann::json &rules = member(object, "rules");
    if (!rules.is_array())
        return;
    for (std::size_t i = 0; i < rules.size(); ++i)
        validateRule(rules[i], "rules[" + std::to_string(i) + ']', namespaced, causes);
}

void validateRole(const nlohmann::json &object, Causes &causes)
{
    validateRules(object, true, causes);
}

void validateClusterRole(const nlohmann::json &object, Causes &causes)
{
    validateRules(object, false, causes);
    const nlohmann::json &aggregation = member(object, "aggregationRule");
    if (aggregation.is_null())
        return;
    const nlohmann::json &selectors = member(aggregation, "clusterRoleSelectors");
    if (!nonEmptyList(selectors)) {
        causes.push_back(requiredField("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil"));
        return;
    }
    for (std::size_t i = 0; i < selectors.size(); ++i)
        appendUnique(causes, validateLabelSelector(selectors[i], "aggregationRule.clusterRoleSelectors[" + std::to_string(i) + ']'));
}

// ValidateRoleBindingSubject.
void validateSubject(const nlohmann::json &subject, const std::string &path, bool namespaced, Causes &causes)
{
    const std::string name = model::stringOr(member(subject, "name"));
    const std::string kind = model::stringOr(member(subject, "kind"));
    const std::string apiGroup = model::stringOr(member(subject, "apiGroup"));
    if (name.empty())
        causes.push_back(requiredField(path + ".name"));
    if (kind == "ServiceAccount") {
        if (!apiGroup.empty())
            causes.push_back(notSupportedField(path + ".apiGroup", goQuote(apiGroup), {""}));
        if (!namespaced && model::stringOr(member(subject, "namespace")).empty())
            causes.push_back(requiredField(path + ".namespace"));
    } else if (kind == "User" || kind == "Group") {
        if (apiGroup != RBAC_GROUP)
            causes.push_back(notSupportedField(path + ".apiGroup", goQuote(apiGroup), {RBAC_GROUP}));
    } else {
        causes.push_back(notSupportedField(path + ".kind", goQuote(kind), {"ServiceAccount", "User", "Group"}));
    }
}

void validateBinding(const nlohmann::json &object, bool namespaced, Causes &causes)
{
    const nlohmann::json &roleRef = member(object, "roleRef");
    const std::string apiGroup = model::stringOr(member(roleRef, "apiGroup"));
    const std::string kind = model::stringOr(member(roleRef, "kind"));
    if (apiGroup != RBAC_GROUP)
        causes.push_back(notSupportedField("roleRef.apiGroup", goQuote(apiGroup), {RBAC_GROUP}));
    if (namespaced && kind != "Role" && kind != "ClusterRole")
        causes.push_back(notSupportedField("roleRef.kind", goQuote(kind), {"Role", "ClusterRole"}));
    if (!namespaced && kind != "ClusterRole")
        causes.push_back(notSupportedField("roleRef.kind", goQuote(kind), {"ClusterRole"}));
    if (model::stringOr(member(roleRef, "name")).empty())
        causes.push_back(requiredField("roleRef.name"));
    const nlohmann::json &subjects = member(object, "subjects");
    if (subjects.is_array()) {
        for (std::size_t i = 0; i < subjects.size(); ++i)
            validateSubject(subjects[i], "subjects[" + std::to_string(i) + ']', namespaced, causes);
    }
}

void validateRoleBinding(const nlohmann::json &object, Causes &causes)
{
    validateBinding(object, true, causes);
}

void validateClusterRoleBinding(const nlohmann::json &object, Causes &causes)
{
    validateBinding(object, false, causes);
}

// ValidateRoleBindingUpdate: a binding never changes the role it grants.
void roleRefImmutable(const nlohmann::json &object, const nlohmann::json &old, Causes &causes)
{
    const nlohmann::json &roleRef = member(object, "roleRef");
    if (!jsonedit::semanticEqual(roleRef, member(old, "roleRef")))
        causes.push_back(invalidFieldGo("roleRef", "rbac.RoleRef{APIGroup:" + goQuote(model::stringOr(member(roleRef, "apiGroup")))
                                            + ", Kind:" + goQuote(model::stringOr(member(roleRef, "kind")))
                                            + ", Name:" + goQuote(model::stringOr(member(roleRef, "name"))) + '}',
                                        "cannot change roleRef"));
}

// SetDefaults_RoleBinding / _ClusterRoleBinding / _Subject: the RBAC group where a
// reference or a user or group subject leaves it out.
void bindingDefaults(nlohmann::json &object)
{
    if (nlohmann::json *roleRef = jsonedit::existingObject(object, "roleRef"))
        jsonedit::setDefaultString(*roleRef, "apiGroup", RBAC_GROUP);
    nlohmann::json *subjects = jsonedit::childArray(object, "subjects");
    if (!subjects)
        return;
    for (nlohmann::json &subject : *subjects) {
        const std::string kind = model::stringOr(member(subject, "kind"));
        if (subject.is_object() && (kind == "User" || kind == "Group"))
            jsonedit::setDefaultString(subject, "apiGroup", RBAC_GROUP);
    }
}

constexpr auto PATH_SEGMENT = Strategy::NameRule::PathSegment;
} // namespace

// Upstream's RBAC strategies allow create on update (PUT creates a missing role or binding).
TypeRules role()
{
    return {.createOnUpdate = true, .nameRule = PATH_SEGMENT, .validate = validateRole};
}

TypeRules clusterRole()
{
    return {.namespaced = false, .createOnUpdate = true, .nameRule = PATH_SEGMENT, .validate = validateClusterRole};
}

TypeRules roleBinding()
{
    return {.createOnUpdate = true, .nameRule = PATH_SEGMENT, .defaults = bindingDefaults,
            .validate = validateRoleBinding, .validateUpdate = roleRefImmutable};
}

TypeRules clusterRoleBinding()
{
    return {.namespaced = false, .createOnUpdate = true, .nameRule = PATH_SEGMENT, .defaults = bindingDefaults,
            .validate = validateClusterRoleBinding, .validateUpdate = roleRefImmutable};
}

} // namespace rvscope::registry::rules
