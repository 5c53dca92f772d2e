// SPDX-License-Identifier: MIT
#include "registry/strategies/DeclaredStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/JsonEdit.h"
#include "registry/strategies/StrategyErrors.h"

namespace rvscope::registry {
namespace {
// The members besides metadata and status (and the type fields): spec, or data, rules,
// subjects, ... for types without a spec.
bool specLike(const std::string &key)
{
    return key != "metadata" && key != "status" && key != "kind" && key != "apiVersion";
}

void fillStatusCounters(nlohmann::json &object, const TypeRules &rules)
{
    if (!rules.statusCounters)
        return;
    nlohmann::json *status = jsonedit::childObject(object, "status");
    if (!status)
        return;
    for (const char *const *field = rules.statusCounters; *field; ++field)
        jsonedit::setDefault(*status, *field, 0);
}
} // namespace

DeclaredStrategy::DeclaredStrategy(TypeRules rules)
    : m_rules(rules)
{
}

void DeclaredStrategy::prepareForCreate(model::Object &object) const
{
    // Go encodes the zeroed status struct as {} (omitempty does not drop structs).
    if (m_rules.statusSplit)
        object.mutableJson()["status"] = nlohmann::json::object();
    if (m_rules.prepareCreate)
        m_rules.prepareCreate(object.mutableJson());
    else if (m_rules.defaults)
        m_rules.defaults(object.mutableJson());
    fillStatusCounters(object.mutableJson(), m_rules);
}

bool DeclaredStrategy::generationChanged(const model::Object &object, const model::Object &old) const
{
    const nlohmann::json &after = object.json();
    const nlohmann::json &before = old.json();
    for (const auto &[key, value] : after.items()) {
        if (specLike(key) && !jsonedit::semanticEqual(value, model::member(before, key)))
            return true;
    }
    for (const auto &[key, value] : before.items()) {
        if (specLike(key) && !after.contains(key) && !jsonedit::semanticEqual(value, nullptr))
            return true;
    }
    return false;
}

void DeclaredStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    if (m_rules.defaults)
        m_rules.defaults(object.mutableJson());
    if (m_rules.statusSplit)
        keepField(object, old, "status");
    fillStatusCounters(object.mutableJson(), m_rules);
}

std::vector<model::StatusCause> DeclaredStrategy::validate(const model::Object &object) const
{
    Causes causes = Strategy::validate(object);
    if (m_rules.validate) {
        Causes own;
        m_rules.validate(object.json(), own);
        appendUnique(causes, std::move(own));
    }
    return causes;
}

std::vector<model::StatusCause> DeclaredStrategy::validateUpdate(const model::Object &object,
                                                                 const model::Object &old) const
{
    Causes causes = Strategy::validateUpdate(object, old);
    if (m_rules.validate) {
        Causes own;
        m_rules.validate(object.json(), own);
        appendUnique(causes, std::move(own));
    }
    if (m_rules.validateUpdate) {
        Causes own;
        m_rules.validateUpdate(object.json(), old.json(), own);
        appendUnique(causes, std::move(own));
    }
    return causes;
}

DeclaredStatusStrategy::DeclaredStatusStrategy(TypeRules rules)
    : m_rules(rules)
{
}

void DeclaredStatusStrategy::prepareForUpdate(model::Object &object, const model::Object &old) const
{
    nlohmann::json &json = object.mutableJson();
    const nlohmann::json &before = old.json();
    // Every spec-like member comes from `old`.
    for (auto it = json.begin(); it != json.end();) {
        if (specLike(it.key()) && !before.contains(it.key()))
            it = json.erase(it);
        else
            ++it;
    }
    for (const auto &[key, value] : before.items()) {
        if (specLike(key))
            json[key] = value;
    }
    fillStatusCounters(json, m_rules);
}

std::vector<model::StatusCause> DeclaredStatusStrategy::validateUpdate(const model::Object &object,
                                                                       const model::Object &old) const
{
    Causes causes = Strategy::validateUpdate(object, old);
    if (m_rules.statusCounters) {
        const nlohmann::json &status = model::member(object.json(), "status");
        for (const char *const *field = m_rules.statusCounters; *field; ++field)
            checkNonNegative(model::member(status, *field), std::string("status.") + *field, causes);
    }
    return causes;
}

} // namespace rvscope::registry
