// SPDX-License-Identifier: MIT
#include "registry/validation/ObjectMetaValidation.h"

#include <nlohmann/json.hpp>

#include "registry/validation/FieldErrors.h"

namespace rvscope::registry {
namespace {
void append(std::vector<model::StatusCause> &to, std::vector<model::StatusCause> &&from)
{
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

std::string toLowerAscii(std::string_view text)
{
    std::string lower(text);
    for (char &c : lower) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return lower;
}
} // namespace

std::vector<model::StatusCause> validateLabelName(std::string_view key, const std::string &fieldPath)
{
    std::vector<model::StatusCause> causes;
    for (const std::string &message : isQualifiedName(key))
        causes.push_back(invalidField(fieldPath, key, message));
    return causes;
}

std::vector<model::StatusCause> validateLabels(const std::map<std::string, std::string> &labels,
                                               const std::string &fieldPath)
{
    std::vector<model::StatusCause> causes;
    for (const auto &[key, value] : labels) {
        append(causes, validateLabelName(key, fieldPath));
        for (const std::string &message : isValidLabelValue(value))
            causes.push_back(invalidField(fieldPath, value, message));
    }
    return causes;
}

std::vector<model::StatusCause> validateAnnotations(const std::map<std::string, std::string> &annotations,
                                                    const std::string &fieldPath)
{
    std::vector<model::StatusCause> causes;
    std::size_t totalSize = 0;
    for (const auto &[key, value] : annotations) {
        // Annotation keys are qualified names in which case does not matter.
        for (const std::string &message : isQualifiedName(toLowerAscii(key)))
            causes.push_back(invalidField(fieldPath, key, message));
        totalSize += key.size() + value.size();
    }
    if (totalSize > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES)
        causes.push_back(tooLongField(fieldPath, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
    return causes;
}

std::vector<model::StatusCause> validateObjectMeta(const model::Object &object, bool namespaced,
                                                   ValidateNameFunc validateName)
{
    std::vector<model::StatusCause> causes;
    const std::string generateName = object.generateName();
    if (!generateName.empty()) {
        for (const std::string &message : validateName(generateName, true))
            causes.push_back(invalidField("metadata.generateName", generateName, message));
    }
    append(causes, validateObjectName(object.name(), validateName));
    const std::string ns = object.namespaceName();
    if (namespaced) {
        if (ns.empty()) {
            causes.push_back(requiredField("metadata.namespace"));
        } else {
            for (const std::string &message : nameIsDnsLabel(ns, false))
                causes.push_back(invalidField("metadata.namespace", ns, message));
        }
    } else if (!ns.empty()) {
        causes.push_back(forbiddenField("metadata.namespace", "not allowed on this type"));
    }
    if (const auto generation = object.generation(); generation && *generation < 0)
        causes.push_back(invalidFieldJson("metadata.generation", *generation, "must be greater than or equal to 0"));
    append(causes, validateLabels(object.labels(), "metadata.labels"));
    append(causes, validateAnnotations(object.annotations(), "metadata.annotations"));
    return causes;
}

} // namespace rvscope::registry
