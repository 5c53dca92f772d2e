// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

// RFC 6901 JSON Pointer, as JSON patch (RFC 6902) uses it. Pure functions, no exceptions.
namespace rvscope::patch {

// The reference tokens of a pointer, unescaped ("~1" -> "/", "~0" -> "~"). "" is the whole
// document (no tokens). Returns nullopt for a syntax error: a non-empty pointer that does not
// start with '/', or a '~' not followed by '0' or '1'.
std::optional<std::vector<std::string>> parseJsonPointer(std::string_view pointer);

// An array index token: "0" or a decimal without leading zeros. "-" and anything else
// (signs, leading zeros, too many digits) give nullopt; the caller decides about "-".
std::optional<std::size_t> parseArrayIndex(std::string_view token);

// The value the first `depth` tokens designate inside `document`, or nullptr when it does
// not exist (missing member, index out of range or not an index, scalar on the way).
nlohmann::json *resolveJsonPointer(nlohmann::json &document, const std::vector<std::string> &tokens,
                                   std::size_t depth);

} // namespace rvscope::patch
