// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

// resource.Quantity, just enough to compare sizes ("1Gi" == "1024Mi") and to tell a
// malformed quantity from a valid one. Pure functions, no exceptions.
namespace rvscope::registry {

// The error detail upstream gives for a string that is not a quantity.
inline constexpr const char *QUANTITY_FORMAT_DETAIL =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// The value of a quantity string: a signed decimal number followed by a binary suffix
// (Ki..Ei), a decimal SI suffix (n, u, m, k, M, G, T, P, E) or an exponent (e3, E-2).
std::optional<long double> parseQuantity(std::string_view text);
// A quantity given as a JSON string or number (clients send both).
std::optional<long double> quantityOf(const nlohmann::json &value);

} // namespace rvscope::registry
