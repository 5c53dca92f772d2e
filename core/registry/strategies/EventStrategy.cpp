// SPDX-License-Identifier: MIT
#include "registry/strategies/EventStrategy.h"

#include "model/JsonAccess.h"
#include "registry/strategies/StrategyErrors.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
const char *const INVOLVED_OBJECT_FIELDS[] = {"kind",       "namespace",       "name",     "uid",
                                              "apiVersion", "resourceVersion", "fieldPath"};
} // namespace

std::vector<model::StatusCause> EventStrategy::validate(const model::Object &object) const
{
    std::vector<model::StatusCause> causes = Strategy::validate(object);
    const nlohmann::json &json = object.json();
    if (!model::member(json, "eventTime").is_null())
        return causes;
    const std::string involved = model::stringOr(model::memberAt(json, "involvedObject", "namespace"));
    const std::string ns = object.namespaceName();
    const bool matches = involved.empty() ? ns.empty() || ns == "default" : ns == involved;
    if (!matches)
        causes.push_back(invalidField("involvedObject.namespace", involved, "does not match event.namespace"));
    return causes;
}

std::map<std::string, std::string> EventStrategy::selectableFields(const model::Object &object) const
{
    std::map<std::string, std::string> fields = Strategy::selectableFields(object);
    const nlohmann::json &json = object.json();
    const nlohmann::json &involved = model::member(json, "involvedObject");
    for (const char *field : INVOLVED_OBJECT_FIELDS)
        fields[std::string("involvedObject.") + field] = model::stringOr(model::member(involved, field));
    fields["reason"] = model::stringOr(model::member(json, "reason"));
    const std::string reporting = model::stringOr(model::member(json, "reportingComponent"));
    fields["reportingComponent"] = reporting;
    const std::string source = model::stringOr(model::memberAt(json, "source", "component"));
    fields["source"] = source.empty() ? reporting : source;
    fields["type"] = model::stringOr(model::member(json, "type"));
    return fields;
}

std::vector<std::string> EventStrategy::extraFieldLabels() const
{
    std::vector<std::string> labels;
    for (const char *field : INVOLVED_OBJECT_FIELDS)
        labels.push_back(std::string("involvedObject.") + field);
    for (const char *field : {"reason", "reportingComponent", "source", "type"})
        labels.emplace_back(field);
    return labels;
}

} // namespace rvscope::registry
