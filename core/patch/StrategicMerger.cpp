// SPDX-License-Identifier: MIT
#include "patch/StrategicMerger.h"

#include <vector>

#include "model/StatusErrors.h"
#include "patch/PatchErrors.h"

namespace rvscope::patch::detail {
namespace {

using nlohmann::json;

bool startsWith(const std::string &text, std::string_view prefix)
{
    return std::string_view(text).substr(0, prefix.size()) == prefix;
}

// Upstream compares Go types; for the merge decision only "map", "list" and "anything
// else" matter, since scalars of any type simply replace each other.
int shapeOf(const json &value)
{
    return value.is_object() ? 1 : value.is_array() ? 2 : 0;
}

bool containsString(const json &list, const std::string &value)
{
    for (const json &item : list) {
        if (item.is_string() && item.get_ref<const std::string &>() == value)
            return true;
    }
    return false;
}

// $retainKeys: every non-null patch member must be listed, then the original keeps only the
// listed keys. Used for union types, where setting one member must clear its siblings.
model::VoidResult applyRetainKeys(json &original, json &patch)
{
    auto directive = patch.find(RETAIN_KEYS_DIRECTIVE);
    if (directive == patch.end())
        return model::Done{};
    const json keys = *directive;
    patch.erase(directive);
    if (!keys.is_array())
        return model::errors::badRequest("invalid patch format of retainKeys");
    for (const auto &[key, value] : patch.items()) {
        if (value.is_null() || startsWith(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX)
            || startsWith(key, SET_ELEMENT_ORDER_PREFIX))
            continue;
        if (!containsString(keys, key))
            return model::errors::badRequest("invalid patch format of retainKeys");
    }
    std::vector<std::string> dropped;
    for (const auto &[key, value] : original.items()) {
        if (!containsString(keys, key))
            dropped.push_back(key);
    }
    for (const std::string &key : dropped)
        original.erase(key);
    return model::Done{};
}

// Whether applyRetainKeys or applySetElementOrder has anything to do in `patch`.
bool hasMapDirective(const json &patch)
{
    for (const auto &[key, value] : patch.items()) {
        if (key == RETAIN_KEYS_DIRECTIVE || startsWith(key, SET_ELEMENT_ORDER_PREFIX))
            return true;
    }
    return false;
}

} // namespace

std::string childPath(const std::string &path, const std::string &key)
{
    return path.empty() ? key : path + '.' + key;
}

std::optional<std::string> directiveTarget(const std::string &key, std::string_view prefix)
{
    if (!startsWith(key, prefix) || key.size() <= prefix.size() || key[prefix.size()] != '/')
        return std::nullopt;
    return key.substr(prefix.size() + 1);
}

model::Status badPatchType(const json &directive, const json &map)
{
    return model::errors::badRequest("unknown patch type: " + describeJson(directive)
                                     + " in map: " + describeJson(map));
}

model::Result<MergedValue> StrategicMerger::mergeMap(json original, const json &patch,
                                                     const std::string &path) const
{
    if (auto directive = patch.find(PATCH_DIRECTIVE); directive != patch.end()) {
        if (*directive == "replace") {
            json replacement = patch;
            replacement.erase(PATCH_DIRECTIVE);
            // Merging into {} instead of taking the map verbatim strips nested directives
            // and nulls, which upstream leaves for its typed decoding to drop.
            return mergeMap(json::object(), replacement, path);
        }
        if (*directive == "delete")
            return MergedValue{json::object(), true};
        return badPatchType(*directive, patch);
    }

    json result = original.is_object() ? std::move(original) : json::object();
    // The directives below edit their copy of the patch map; a map without them (nearly
    // every one) is read in place: copying and freeing the patch at every level of a deep
    // patch cost more than the merge itself.
    json remaining;
    const json *members = &patch;
    if (hasMapDirective(patch)) {
        remaining = patch;
        members = &remaining;
        if (model::VoidResult retained = applyRetainKeys(result, remaining); !retained)
            return std::move(retained).error();
        // Ordered lists are merged here, before the other members, and removed from `remaining`.
        if (model::VoidResult ordered = applySetElementOrder(result, remaining, path); !ordered)
            return std::move(ordered).error();
    }

    for (const auto &[key, value] : members->items()) {
        if (startsWith(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
            if (model::VoidResult deleted = deleteFromPrimitiveList(result, key, value); !deleted)
                return std::move(deleted).error();
            continue;
        }
        if (value.is_null()) {
            result.erase(key);
            continue;
        }
        auto existing = result.find(key);
        model::Result<MergedValue> merged =
            mergeMember(existing == result.end() ? nullptr : &*existing, value, childPath(path, key));
        if (!merged)
            return std::move(merged).error();
        if (merged->deleted)
            result.erase(key);
        else
            result[key] = std::move(merged->value);
    }
    return MergedValue{std::move(result), false};
}

model::Result<MergedValue> StrategicMerger::mergeMember(json *existing, const json &patch,
                                                        const std::string &path) const
{
    // A member the original lacks (or holds with another shape) is merged into an empty
    // value of the patch's shape, so that directives inside it are applied, not stored.
    const bool sameShape = existing && shapeOf(*existing) == shapeOf(patch);
    if (patch.is_object()) {
        bool replace = false;
        if (m_replacesMaps) {
            const std::optional<FieldPatchMeta> meta = findFieldPatchMeta(m_kind, path);
            replace = meta && meta->replaceMap;
        }
        return mergeMap(sameShape && !replace ? std::move(*existing) : json::object(), patch, path);
    }
    if (patch.is_array()) {
        model::Result<json> list = mergeList(sameShape ? std::move(*existing) : json::array(), patch, path);
        if (!list)
            return std::move(list).error();
        return MergedValue{std::move(*list), false};
    }
    return MergedValue{patch, false};
}

model::VoidResult StrategicMerger::deleteFromPrimitiveList(json &result, const std::string &directive,
                                                           const json &values) const
{
    const std::optional<std::string> field = directiveTarget(directive, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
    if (!field || !values.is_array())
        return model::errors::badRequest("invalid patch format of primitive list");
    auto list = result.find(*field);
    // Upstream applies the parallel deletion list whatever the field's strategy; deleting from
    // a list that is absent (or not a list) is a no-op.
    if (list == result.end() || !list->is_array())
        return model::Done{};
    json kept = json::array();
    for (json &item : *list) {
        bool doomed = false;
        for (const json &value : values)
            doomed = doomed || item == value;
        if (!doomed)
            kept.push_back(std::move(item));
    }
    *list = std::move(kept);
    return model::Done{};
}

} // namespace rvscope::patch::detail
