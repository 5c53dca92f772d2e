// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

// Non-throwing edits and comparisons of client JSON for the defaulting and update rules of
// the built-in strategies (reads go through model/JsonAccess.h). Nothing here throws: a member
// of the wrong type is left alone, for validation to report.
namespace rvscope::registry::jsonedit {

// The object `parent[key]`, created as {} when absent or null; nullptr when `parent` is not an
// object or the member has another type.
nlohmann::json *childObject(nlohmann::json &parent, std::string_view key);
// The array `parent[key]`, or nullptr when absent or not an array.
nlohmann::json *childArray(nlohmann::json &parent, std::string_view key);
// Sets `object[key] = value` when `object` is an object whose `key` is absent or null (the
// apiserver's defaulting of a zero-valued field).
void setDefault(nlohmann::json &object, std::string_view key, nlohmann::json value);
// Like setDefault, but an empty string counts as unset too (Go's `if x == ""`).
void setDefaultString(nlohmann::json &object, std::string_view key, const char *value);
// An integer JSON value (int64 range), nullopt for anything else.
std::optional<std::int64_t> integer(const nlohmann::json &value);
// apiequality.Semantic.DeepEqual for decoded JSON: null, absent, {} and [] are all the zero
// value and compare equal; numbers compare by value.
bool semanticEqual(const nlohmann::json &a, const nlohmann::json &b);

} // namespace rvscope::registry::jsonedit
