// SPDX-License-Identifier: MIT
#include "registry/strategies/JsonEdit.h"

namespace rvscope::registry::jsonedit {

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

nlohmann::json *existingObject(nlohmann::json &parent, std::string_view key)
{
    if (!parent.is_object())
        return nullptr;
    auto it = parent.find(key);
    return it != parent.end() && it->is_object() ? &*it : nullptr;
}

nlohmann::json *childArray(nlohmann::json &parent, std::string_view key)
{
    if (!parent.is_object())
        return nullptr;
    auto it = parent.find(key);
    return it != parent.end() && it->is_array() ? &*it : nullptr;
}

nlohmann::json *unsetMember(nlohmann::json &object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    auto it = object.find(key);
    if (it == object.end())
        return &object[std::string(key)];
    return it->is_null() ? &*it : nullptr;
}

nlohmann::json *unsetStringMember(nlohmann::json &object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    auto it = object.find(key);
    if (it == object.end())
        return &object[std::string(key)];
    return it->is_null() || (it->is_string() && it->get_ref<const std::string &>().empty()) ? &*it : nullptr;
}

void setDefaultString(nlohmann::json &object, std::string_view key, const char *value)
{
    if (nlohmann::json *slot = unsetStringMember(object, key))
        *slot = value;
}

bool isString(const nlohmann::json &value, std::string_view text)
{
    return value.is_string() && value.get_ref<const std::string &>() == text;
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

namespace {
// isZero(normalized(value)), without building the normalized copy.
bool normalizesToZero(const nlohmann::json &value)
{
    if (value.is_null())
        return true;
    if (value.is_array())
        return value.empty();
    if (!value.is_object())
        return false;
    for (const auto &[key, member] : value.items()) {
        if (!normalizesToZero(member))
            return false;
    }
    return true;
}
} // namespace

bool semanticEqual(const nlohmann::json &a, const nlohmann::json &b)
{
    // normalized(a) == normalized(b), walked in place: this runs on every update.
    if (a.is_object() && b.is_object()) {
        // Both maps iterate in key order: one merge walk instead of a lookup per key.
        const auto &left = a.get_ref<const nlohmann::json::object_t &>();
        const auto &right = b.get_ref<const nlohmann::json::object_t &>();
        auto l = left.begin();
        auto r = right.begin();
        while (l != left.end() || r != right.end()) {
            const int order = l == left.end() ? 1 : r == right.end() ? -1 : l->first.compare(r->first);
            if (order < 0) {
                if (!normalizesToZero((l++)->second))
                    return false;
            } else if (order > 0) {
                if (!normalizesToZero((r++)->second))
                    return false;
            } else {
                const nlohmann::json &value = (l++)->second;
                const nlohmann::json &other = (r++)->second;
                // Both zero: both normalize away. Otherwise their normalized forms must match,
                // and semanticEqual never holds between a zero and a non-zero value, so it
                // is asked first: unchanged subtrees (nearly all of an update) are then
                // walked once, without looking for zeros in them.
                if (!semanticEqual(value, other) && !(normalizesToZero(value) && normalizesToZero(other)))
                    return false;
            }
        }
        return true;
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            // Array elements are kept by normalization, zero or not.
            const bool zeroA = normalizesToZero(a[i]);
            const bool zeroB = normalizesToZero(b[i]);
            if (zeroA || zeroB) {
                if (!(zeroA && zeroB && (a[i].is_object() || a[i].is_array() || a[i].is_null())
                      && a[i].type() == b[i].type()))
                    return false;
            } else if (!semanticEqual(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }
    return a == b;
}

} // namespace rvscope::registry::jsonedit
