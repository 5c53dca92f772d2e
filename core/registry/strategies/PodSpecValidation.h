// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/Status.h"

// Pod spec validation (pkg/apis/core/validation ValidatePodSpec and ValidatePodUpdate), for
// pods and for the pod templates of workloads, with upstream's field paths and messages.
// The subset that matters to clients: containers (name, image, duplicates, ports, pull and
// termination-message policies), restart and DNS policies, activeDeadlineSeconds, nodeName
// and serviceAccountName. Pure functions, no exceptions.
namespace rvscope::registry::podspec {

// Field errors of `spec` (already defaulted), rooted at `path` ("spec" for a pod,
// "spec.template.spec" for a deployment). An absent spec is validated as an empty one.
std::vector<model::StatusCause> validatePodSpec(const nlohmann::json &spec, std::string_view path);

// ValidatePodUpdate's spec rules: containers may not be added or removed
// (`spec.containers: Forbidden: pod updates may not add or remove containers`), images stay
// required, activeDeadlineSeconds may only be set or lowered, tolerations only added,
// schedulingGates only removed, terminationGracePeriodSeconds only moved from negative to 1;
// any other change is `spec: Forbidden: pod updates may not change fields other than ...`
// followed by a line-per-field rendering of the difference (upstream prints a Go cmp.Diff).
std::vector<model::StatusCause> validatePodSpecUpdate(const nlohmann::json &spec, const nlohmann::json &oldSpec);

// The text of that Forbidden error up to the difference.
extern const char *const POD_UPDATE_FORBIDDEN_DETAIL;

} // namespace rvscope::registry::podspec
