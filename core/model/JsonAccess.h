// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

// Non-throwing reads of client-supplied JSON: nlohmann's operator[] and value() throw (or
// assert) on the wrong type, and a bad request must never take the core down.
namespace rvscope::model {

// The member `key` of `object`, or a null value when `object` is not an object or lacks it.
inline const nlohmann::json &member(const nlohmann::json &object, std::string_view key)
{
    static const nlohmann::json null;
    if (!object.is_object())
        return null;
    auto it = object.find(key);
    return it == object.end() ? null : *it;
}

// member(member(object, a), b)...
template <typename... Keys>
const nlohmann::json &memberAt(const nlohmann::json &object, std::string_view key, Keys... rest)
{
    const nlohmann::json &next = member(object, key);
    if constexpr (sizeof...(rest) == 0)
        return next;
    else
        return memberAt(next, rest...);
}

inline std::string stringOr(const nlohmann::json &value, std::string fallback = {})
{
    return value.is_string() ? value.get<std::string>() : std::move(fallback);
}

} // namespace rvscope::model
