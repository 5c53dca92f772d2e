// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

// Non-throwing edits and comparisons of client JSON for the defaulting and update rules of
// the built-in strategies (reads go through model/JsonAccess.h). Nothing here throws: a member
// of the wrong type is left alone, for validation to report.
namespace rvscope::registry::jsonedit {

// The object `parent[key]`, created as {} when absent or null; nullptr when `parent` is not an
// object or the member has another type.
nlohmann::json *childObject(nlohmann::json &parent, std::string_view key);
// The object `parent[key]` when it is one, else nullptr (nothing is created).
nlohmann::json *existingObject(nlohmann::json &parent, std::string_view key);
// The array `parent[key]`, or nullptr when absent or not an array.
nlohmann::json *childArray(nlohmann::json &parent, std::string_view key);
// The member `key` of `object` when it is absent or null, inserted as null if absent, for a
// default to fill; nullptr when it is set or `object` is not an object.
nlohmann::json *unsetMember(nlohmann::json &object, std::string_view key);
// Like unsetMember, but an empty string counts as unset too (Go's `if x == ""`).
nlohmann::json *unsetStringMember(nlohmann::json &object, std::string_view key);
// Sets `object[key] = value` when `object` is an object whose `key` is absent or null (the
// apiserver's defaulting of a zero-valued field). `value` becomes JSON only when it is
// applied: defaulting runs on every update, where nearly every field is already set. Pass
// nlohmann::json::value_t::object for {}.
template <typename Value>
void setDefault(nlohmann::json &object, std::string_view key, Value &&value)
{
    if (nlohmann::json *slot = unsetMember(object, key))
        *slot = std::forward<Value>(value);
}
// Like setDefault, but an empty string counts as unset too.
void setDefaultString(nlohmann::json &object, std::string_view key, const char *value);
// Whether `value` is the string `text` (no JSON value is built to compare).
bool isString(const nlohmann::json &value, std::string_view text);
// An integer JSON value (int64 range), nullopt for anything else.
std::optional<std::int64_t> integer(const nlohmann::json &value);
// apiequality.Semantic.DeepEqual for decoded JSON: null, absent, {} and [] are all the zero
// value and compare equal; numbers compare by value.
bool semanticEqual(const nlohmann::json &a, const nlohmann::json &b);

} // namespace rvscope::registry::jsonedit
