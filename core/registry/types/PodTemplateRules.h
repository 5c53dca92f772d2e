// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/Status.h"

// The rules every controller type shares about its pod template and label selector
// (apps/validation ValidatePodTemplateSpecForReplicaSet and friends, the template defaults).
// Paths are dotted prefixes such as "spec" or "spec.jobTemplate.spec".
namespace rvscope::registry::podtemplate {

using Causes = std::vector<model::StatusCause>;

// The pod spec defaults on `<spec>.template.spec`, when `spec` holds a template.
void applyTemplateDefaults(nlohmann::json &spec);

// `<path>.selector` as a metav1.LabelSelector: required, valid, and not empty ("empty
// selector is invalid for <what>").
void validateRequiredSelector(const nlohmann::json &spec, const std::string &path, const char *what, Causes &causes);

// `<path>.template`: its labels must match `*selector` (a metav1.LabelSelector; a null one
// selects nothing, as upstream's nil selector; nullptr skips the check), its labels and annotations must be valid, its pod spec valid, and its
// restartPolicy one of `restartPolicies` (upstream's Unsupported value on anything else).
void validateTemplate(const nlohmann::json &spec, const nlohmann::json *selector, const std::string &path,
                      const std::vector<std::string> &restartPolicies, Causes &causes);

// `<path>.selector` unchanged from `old` ("field is immutable").
void validateSelectorUnchanged(const nlohmann::json &spec, const nlohmann::json &oldSpec, const std::string &path,
                               Causes &causes);

} // namespace rvscope::registry::podtemplate
