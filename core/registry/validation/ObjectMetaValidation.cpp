// SPDX-License-Identifier: MIT
#include "registry/validation/ObjectMetaValidation.h"

#include <nlohmann/json.hpp>

#include "model/JsonAccess.h"
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

bool hasUpperAscii(std::string_view text)
{
    for (char c : text) {
        if (c >= 'A' && c <= 'Z')
            return true;
    }
    return false;
}

void checkLabel(std::string_view key, std::string_view value, const FieldPath &fieldPath,
                std::vector<model::StatusCause> &causes)
{
    for (const std::string &message : isQualifiedName(key))
        causes.push_back(invalidField(fieldPath.toString(), key, message));
    for (const std::string &message : isValidLabelValue(value))
        causes.push_back(invalidField(fieldPath.toString(), value, message));
}

void checkAnnotationKey(std::string_view key, const FieldPath &fieldPath, std::vector<model::StatusCause> &causes)
{
    // Annotation keys are qualified names in which case does not matter.
    const std::vector<std::string> messages =
        hasUpperAscii(key) ? isQualifiedName(toLowerAscii(key)) : isQualifiedName(key);
    for (const std::string &message : messages)
        causes.push_back(invalidField(fieldPath.toString(), key, message));
}

std::vector<model::StatusCause> annotationsTooLong(std::size_t totalSize, const FieldPath &fieldPath)
{
    if (totalSize > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES)
        return {tooLongField(fieldPath.toString(), TOTAL_ANNOTATION_SIZE_LIMIT_BYTES)};
    return {};
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
    const FieldPath path(fieldPath);
    for (const auto &[key, value] : labels)
        checkLabel(key, value, path, causes);
    return causes;
}

std::vector<model::StatusCause> validateLabels(const nlohmann::json &labels, const FieldPath &fieldPath)
{
    std::vector<model::StatusCause> causes;
    if (!labels.is_object())
        return causes;
    for (const auto &[key, value] : labels.items()) {
        if (value.is_string())
            checkLabel(key, value.get_ref<const std::string &>(), fieldPath, causes);
    }
    return causes;
}

std::vector<model::StatusCause> validateAnnotations(const std::map<std::string, std::string> &annotations,
                                                    const std::string &fieldPath)
{
    std::vector<model::StatusCause> causes;
    const FieldPath path(fieldPath);
    std::size_t totalSize = 0;
    for (const auto &[key, value] : annotations) {
        checkAnnotationKey(key, path, causes);
        totalSize += key.size() + value.size();
    }
    append(causes, annotationsTooLong(totalSize, path));
    return causes;
}

std::vector<model::StatusCause> validateAnnotations(const nlohmann::json &annotations, const FieldPath &fieldPath)
{
    std::vector<model::StatusCause> causes;
    if (!annotations.is_object())
        return causes;
    std::size_t totalSize = 0;
    for (const auto &[key, value] : annotations.items()) {
        if (!value.is_string())
            continue;
        checkAnnotationKey(key, fieldPath, causes);
        totalSize += key.size() + value.get_ref<const std::string &>().size();
    }
    append(causes, annotationsTooLong(totalSize, fieldPath));
    return causes;
}

std::string_view metadataText(const model::Object &object, const char *field)
{
    const nlohmann::json &value = model::memberAt(object.json(), "metadata", field);
    return value.is_string() ? std::string_view(value.get_ref<const std::string &>()) : std::string_view();
}

std::vector<model::StatusCause> validateFinalizers(const nlohmann::json &finalizers, bool kubeNames)
{
    std::vector<model::StatusCause> causes;
    if (!finalizers.is_array())
        return causes;
    bool orphan = false;
    bool foreground = false;
    for (const nlohmann::json &finalizer : finalizers) {
        if (!finalizer.is_string())
            continue;
        const std::string &name = finalizer.get_ref<const std::string &>();
        for (const std::string &message : isQualifiedName(name))
            causes.push_back(invalidField("metadata.finalizers", name, message));
        orphan = orphan || name == FINALIZER_ORPHAN_DEPENDENTS;
        foreground = foreground || name == FINALIZER_DELETE_DEPENDENTS;
    }
    if (orphan && foreground) {
        causes.push_back(invalidFieldJson("metadata.finalizers", finalizers,
                                          std::string("finalizer ") + FINALIZER_ORPHAN_DEPENDENTS + " and " +
                                              FINALIZER_DELETE_DEPENDENTS + " cannot be both set"));
    }
    if (!kubeNames)
        return causes;
    // Core validation's validateKubeFinalizerName, by index: a name without '/' must be one of
    // the standard finalizers.
    for (std::size_t i = 0; i < finalizers.size(); ++i) {
        if (!finalizers[i].is_string())
            continue;
        const std::string &name = finalizers[i].get_ref<const std::string &>();
        if (name.find('/') == std::string::npos && name != FINALIZER_KUBERNETES &&
            name != FINALIZER_ORPHAN_DEPENDENTS && name != FINALIZER_DELETE_DEPENDENTS) {
            causes.push_back(invalidField("metadata.finalizers[" + std::to_string(i) + ']', name,
                                          "name is neither a standard finalizer name nor is it fully qualified"));
        }
    }
    return causes;
}

std::vector<model::StatusCause> validateObjectMeta(const model::Object &object, bool namespaced,
                                                   ValidateNameFunc validateName, bool kubeFinalizerNames)
{
    std::vector<model::StatusCause> causes;
    const std::string_view generateName = metadataText(object, "generateName");
    if (!generateName.empty()) {
        for (const std::string &message : validateName(generateName, true))
            causes.push_back(invalidField("metadata.generateName", generateName, message));
    }
    append(causes, validateObjectName(metadataText(object, "name"), validateName));
    const std::string_view ns = metadataText(object, "namespace");
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
    const nlohmann::json &metadata = model::member(object.json(), "metadata");
    append(causes, validateLabels(model::member(metadata, "labels"), FieldPath("metadata.labels")));
    append(causes, validateAnnotations(model::member(metadata, "annotations"), FieldPath("metadata.annotations")));
    append(causes, validateFinalizers(model::member(metadata, "finalizers"), kubeFinalizerNames));
    return causes;
}

} // namespace rvscope::registry
