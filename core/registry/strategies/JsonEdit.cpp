// SPDX-License-Identifier: MIT
#include "registry/strategies/JsonEdit.h"

namespace rvscope::registry::jsonedit {
namespace {
bool isZero(const nlohmann::json &value)
{
    return value.is_null() || ((value.is_object() || value.is_array()) && value.empty());
}

// Drops zero-valued members recursively so that an omitted field equals an explicit empty one.
nlohmann::json normalized(const nlohmann::json &value)
{
    if (value.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto &[key, member] : value.items()) {
            nlohmann::json child = normalized(member);
            if (!isZero(child))
                out[key] = std::move(child);
        }
        return out;
    }
    if (value.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const nlohmann::json &element : value)
            out.push_back(normalized(element));
        return out;
    }
    return value;
}
} // namespace

nlohmann::json *childObject(nlohmann::json &parent, std::string_view key)
{
    if (!parent.is_object())
        return nullptr;
    auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) {
        nlohmann::json &created = parent[std::string(key)];
        created = nlohmann::json::object();
        return &created;
    }
    return it->is_object() ? &*it : nullptr;
}

nlohmann::json *childArray(nlohmann::json &parent, std::string_view key)
{
    if (!parent.is_object())
        return nullptr;
    auto it = parent.find(key);
    return it != parent.end() && it->is_array() ? &*it : nullptr;
}

void setDefault(nlohmann::json &object, std::string_view key, nlohmann::json value)
{
    if (!object.is_object())
        return;
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        object[std::string(key)] = std::move(value);
}

void setDefaultString(nlohmann::json &object, std::string_view key, const char *value)
{
    if (!object.is_object())
        return;
    auto it = object.find(key);
    if (it == object.end() || it->is_null() || (it->is_string() && it->get_ref<const std::string &>().empty()))
        object[std::string(key)] = value;
}

std::optional<std::int64_t> integer(const nlohmann::json &value)
{
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(INT64_MAX))
            return std::nullopt;
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    return std::nullopt;
}

bool semanticEqual(const nlohmann::json &a, const nlohmann::json &b)
{
    // Identical trees are the common case on every update path; normalizing copies both.
    if (a == b)
        return true;
    return normalized(a) == normalized(b);
}

} // namespace rvscope::registry::jsonedit
