// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/Status.h"

// Field-level validation errors as k8s.io/apimachinery/pkg/util/validation/field builds them.
// Each is a model::StatusCause whose `type` is the field.ErrorType ("FieldValueInvalid", ...),
// `field` the field path ("metadata.name") and `message` the field.Error's ErrorBody
// ("Invalid value: \"Bad_x\": <detail>"), so that model::errors::invalid() renders the 422
// message exactly as the apiserver does. Pure functions, no exceptions.
namespace rvscope::registry {

// field.Invalid with a string bad value: `Invalid value: "<value>"[: <detail>]`, the value
// quoted the way Go's %q does.
model::StatusCause invalidField(std::string field, std::string_view value, std::string_view detail);
// field.Invalid with a non-string bad value, rendered as JSON (`null`, `["a","b"]`, `5`).
model::StatusCause invalidFieldJson(std::string field, const nlohmann::json &value, std::string_view detail);
// field.Required: `Required value[: <detail>]`.
model::StatusCause requiredField(std::string field, std::string_view detail = {});
// field.Forbidden: `Forbidden[: <detail>]`.
model::StatusCause forbiddenField(std::string field, std::string_view detail);
// field.TooLong: `Too long: must have at most <maxBytes> bytes` (the value is never shown).
model::StatusCause tooLongField(std::string field, std::size_t maxBytes);

// field.Error.Error(): "<field>: <message>". A field path that upstream leaves nil prints as
// "<nil>", which callers pass literally.
std::string fieldErrorText(const model::StatusCause &cause);
// utilerrors.NewAggregate(list).Error(): the one message alone, otherwise "[m1, m2, ...]" with
// duplicate messages dropped. Empty for an empty list.
std::string aggregateErrorText(const std::vector<model::StatusCause> &causes);

// Go's strconv.Quote (fmt %q): double quotes, backslash escapes for quotes, backslashes and
// control characters, \x.. for bytes that are not UTF-8. Printable non-ASCII stays as it is.
std::string goQuote(std::string_view text);

} // namespace rvscope::registry
