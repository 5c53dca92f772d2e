// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/Status.h"

namespace rvscope::registry {

// metav1validation.ValidateLabelSelector for a metav1.LabelSelector in JSON
// (`{"matchLabels":{...},"matchExpressions":[{"key","operator","values"}]}`), as Deployment
// and ReplicaSet validation run it on spec.selector before the selector is ever used. Field
// errors on `fieldPath` ("spec.selector"), empty when valid; null or absent is valid:
// - matchLabels: keys and values as in validateLabels, on "<fieldPath>.matchLabels";
// - per expression i, on "<fieldPath>.matchExpressions[i]":
//   `values: Required value: must be specified when `operator` is 'In' or 'NotIn'`,
//   `values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'`,
//   `operator: Invalid value: "Foo": not a valid selector operator`, then key and values.
// A member of the wrong JSON type (which upstream rejects while decoding) is reported as
// FieldValueTypeInvalid on that member.
std::vector<model::StatusCause> validateLabelSelector(const nlohmann::json &selector, const std::string &fieldPath);

} // namespace rvscope::registry
