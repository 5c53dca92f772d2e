// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/Status.h"

// Field errors of the built-in strategies that validation/FieldErrors.h does not build: the
// ones whose bad value upstream prints with Go's %v or %#v (an int, a map, a struct) rather
// than as a quoted string, plus field.Duplicate and field.NotSupported. Same conventions:
// `type` is the field.ErrorType, `message` the ErrorBody. Pure functions, no exceptions.
namespace rvscope::registry {

// `Invalid value: <goValue>[: <detail>]`, goValue already rendered (see the go* helpers).
model::StatusCause invalidFieldGo(std::string field, std::string goValue, std::string_view detail);
// `Invalid value: 5: <detail>`.
model::StatusCause invalidFieldInt(std::string field, std::int64_t value, std::string_view detail);
// field.Duplicate: `Duplicate value: <goValue>`.
model::StatusCause duplicateField(std::string field, std::string goValue);
// field.NotSupported: `Unsupported value: <goValue>: supported values: "a", "b"`.
model::StatusCause notSupportedField(std::string field, std::string goValue,
                                     const std::vector<std::string> &supported);
// A member whose JSON type the Go struct would not decode (upstream: 400 at decoding): a
// FieldValueTypeInvalid `Invalid value: <json>: must be <expected>`, as validation/ does it.
model::StatusCause typeInvalidField(std::string field, const nlohmann::json &value, const char *expected);
// ValidateNonnegativeField: `Invalid value: -1: must be greater than or equal to 0` when
// `value` is an integer below zero; appends nothing otherwise.
void checkNonNegative(const nlohmann::json &value, std::string_view field, std::vector<model::StatusCause> &causes);

// Go's %#v of a map[string]string held as a JSON object: `map[string]string{"a":"b", "c":"d"}`
// (keys sorted), `map[string]string{}` for {}, `map[string]string(nil)` when absent or null.
std::string goStringMap(const nlohmann::json &map);
// %#v of a metav1.LabelSelector: `v1.LabelSelector{MatchLabels:..., MatchExpressions:...}`.
std::string goLabelSelector(const nlohmann::json &selector);
// %#v of an intstr.IntOrString: `intstr.IntOrString{Type:1, IntVal:0, StrVal:"25%"}`.
std::string goIntOrString(const nlohmann::json &value);
// %#v of a []string held as a JSON array: `[]string{"a", "b"}`, `[]string(nil)` when absent.
std::string goStringSlice(const nlohmann::json &values);
// A rendering, in the spirit of the cmp.Diff(old, new) that upstream appends to its
// "... is immutable" errors, of the top-level members that differ between two JSON objects:
// "  core.PodSpec{\n- \tRestartPolicy: \"Always\",\n+ \tRestartPolicy: \"Never\",\n  }\n".
std::string goStructDiff(const char *typeName, const nlohmann::json &before, const nlohmann::json &after);
// A JSON scalar as Go's %v would print the decoded field: strings %q, numbers and booleans
// plain, anything else compact JSON.
std::string goScalar(const nlohmann::json &value);

// Appends the causes of `more` not already in `causes` (same type, field and message): the
// base class's validateUpdate() may or may not have run the type's validate() already.
void appendUnique(std::vector<model::StatusCause> &causes, std::vector<model::StatusCause> more);

} // namespace rvscope::registry
