// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/Object.h"
#include "model/Status.h"
#include "registry/validation/FieldPath.h"
#include "registry/validation/NameValidation.h"

// ObjectMeta validation as the apiserver runs it on create and update
// (k8s.io/apimachinery/pkg/api/validation/objectmeta.go and meta/v1/validation). Every
// function returns field errors (model::StatusCause, see FieldErrors.h), empty when valid,
// for model::errors::invalid() to turn into a 422. Pure functions, no exceptions.
namespace rvscope::registry {

// The sum of the lengths of all annotation keys and values may not exceed 256 KiB.
inline constexpr std::size_t TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

// ValidateLabelName: `key` must be a qualified name; one FieldValueInvalid per problem, all
// on `fieldPath` with the key as the bad value.
std::vector<model::StatusCause> validateLabelName(std::string_view key, const std::string &fieldPath);
// ValidateLabels: every key a qualified name, every value a label value; errors on
// `fieldPath` itself ("metadata.labels"), naming the bad key or value. Keys in sorted order.
std::vector<model::StatusCause> validateLabels(const std::map<std::string, std::string> &labels,
                                               const std::string &fieldPath);
// ValidateAnnotations: keys are qualified names compared case-insensitively (the reported
// value keeps its case); a total size over 256 KiB adds
// `Too long: must have at most 262144 bytes`.
std::vector<model::StatusCause> validateAnnotations(const std::map<std::string, std::string> &annotations,
                                                    const std::string &fieldPath);
// The same two checks on a map held as a JSON object, read in place (members that are not
// strings are skipped, as Object::labels() skips them; a non-object is an empty map). The
// path is rendered only for an error.
std::vector<model::StatusCause> validateLabels(const nlohmann::json &labels, const FieldPath &fieldPath);
std::vector<model::StatusCause> validateAnnotations(const nlohmann::json &annotations, const FieldPath &fieldPath);

// The finalizers the apiserver knows without a domain (core.FinalizerKubernetes and
// metav1's FinalizerOrphanDependents and FinalizerDeleteDependents).
inline constexpr const char *FINALIZER_KUBERNETES = "kubernetes";
inline constexpr const char *FINALIZER_ORPHAN_DEPENDENTS = "orphan";
inline constexpr const char *FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion";

// ValidateFinalizers on metadata.finalizers (read in place; a non-array has none): each name a
// qualified name (errors on "metadata.finalizers", as upstream reports them), and "orphan"
// with "foregroundDeletion" is invalid. With `kubeNames` (built-in types; core validation's
// validateKubeFinalizerName) then, by index, a name without '/' must be a standard one:
// `metadata.finalizers[0]: Invalid value: "a": name is neither a standard finalizer name nor
// is it fully qualified`.
std::vector<model::StatusCause> validateFinalizers(const nlohmann::json &finalizers, bool kubeNames);

// metadata.<field> of `object` when it is a string, "" otherwise: Object::metadataString()
// without the copy, valid while `object` is neither changed nor destroyed.
std::string_view metadataText(const model::Object &object, const char *field);

// ValidateObjectMetaAccessor for a create or update, in upstream's order:
// - metadata.generateName, when set, checked with `validateName(generateName, true)`;
// - metadata.name: `Required value: name or generateName is required` when empty (the Store
//   generates names before validating, so both were empty), else `validateName(name, false)`;
// - metadata.namespace: required and a DNS-1123 label when `namespaced`, otherwise
//   `Forbidden: not allowed on this type`;
// - metadata.generation not negative; metadata.labels; metadata.annotations;
// - metadata.finalizers (validateFinalizers, with `kubeFinalizerNames` for built-in types).
// Reads the object in place: it runs on every write.
// Owner references and managedFields are not checked.
std::vector<model::StatusCause> validateObjectMeta(const model::Object &object, bool namespaced,
                                                   ValidateNameFunc validateName, bool kubeFinalizerNames);

} // namespace rvscope::registry
