// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rvscope::model {

// Compact JSON, exactly as nlohmann's dump(-1, ' ', false, error_handler_t::replace) writes
// it (members in key order, UTF-8 as is, control characters escaped, invalid UTF-8 replaced
// by U+FFFD), with one addition: a raw node (rawJson) is written as the JSON text it holds.
//
// Raw nodes are how objects keep metadata.managedFields (and the field manager, reading such
// a list, each entry's fieldsV1), as the apiserver's metav1.FieldsV1 keeps its Raw bytes: the
// list is about as large as the object itself, and every write copies, compares, serializes
// and frees the stored tree, so a tree of it would cost every write a third more. Only the
// field manager looks inside (fields::decodeManagedFields and FieldSet::fromFieldsV1 read
// both forms).
void appendJson(std::string &out, const nlohmann::json &value);
// One JSON string, as appendJson writes strings.
void appendJsonString(std::string &out, std::string_view text);
std::string dumpJson(const nlohmann::json &value);

// A node holding `text`, which must be one valid JSON value, to be written as it is.
nlohmann::json rawJson(std::string_view text);
inline bool isRawJson(const nlohmann::json &value) { return value.is_binary(); }
// The text of a raw node.
std::string_view rawJsonText(const nlohmann::json &value);
// Whether `value` is a JSON array, as a tree or as a raw node.
inline bool isJsonArray(const nlohmann::json &value)
{
    return value.is_array() || (value.is_binary() && !value.get_binary().empty() && value.get_binary()[0] == '[');
}
// Replaces every raw node under `value` by the tree its text parses to (for code that edits
// inside them: a JSON patch of managedFields).
void expandRawJson(nlohmann::json &value);

} // namespace rvscope::model
