// SPDX-License-Identifier: MIT
#include "patch/StrategicMerger.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "model/StatusErrors.h"
#include "patch/PatchErrors.h"
#include "patch/PatchSchema.h"

namespace rvscope::patch::detail {
namespace {

using nlohmann::json;

constexpr std::size_t NOT_FOUND = std::numeric_limits<std::size_t>::max();

model::Status noMergeKey(const json &map, std::string_view mergeKey)
{
    return model::errors::badRequest("map: " + describeJson(map)
                                     + " does not contain declared merge key: " + std::string(mergeKey));
}

// What identifies a list element: the element itself in a primitive list, its merge key
// value in a list of maps (nullptr when it has none).
const json *identityOf(const json &item, std::string_view mergeKey)
{
    if (mergeKey.empty())
        return &item;
    if (!item.is_object())
        return nullptr;
    auto it = item.find(mergeKey); // heterogeneous lookup: no key string is built
    return it == item.end() ? nullptr : &*it;
}

bool sameIdentity(const json &a, const json &b, std::string_view mergeKey)
{
    const json *left = identityOf(a, mergeKey);
    const json *right = identityOf(b, mergeKey);
    return left && right && *left == *right;
}

std::size_t indexIn(const json &list, const json &item, std::string_view mergeKey)
{
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (sameIdentity(list[i], item, mergeKey))
            return i;
    }
    return NOT_FOUND;
}

// Upstream sliceElementType: every element of both lists has one type, and it is not a list.
model::VoidResult checkElementTypes(const json &original, const json &patch)
{
    const json *first = nullptr;
    for (const json *list : {&original, &patch}) {
        for (const json &item : *list) {
            if (item.is_array())
                return unprocessablePatch(); // mergepatch.ErrNoListOfLists, a 422 upstream
            if (!first) {
                first = &item;
            } else if (first->type() != item.type() && !(first->is_number() && item.is_number())) {
                return model::errors::badRequest("list element types are not identical: "
                                                 + describeJson(original) + ", " + describeJson(patch));
            }
        }
    }
    return model::Done{};
}

std::vector<json> sortedBy(std::vector<json> items, const json &order, std::string_view mergeKey)
{
    std::vector<std::pair<std::size_t, json>> ranked;
    ranked.reserve(items.size());
    for (json &item : items) {
        const std::size_t rank = indexIn(order, item, mergeKey);
        ranked.emplace_back(rank, std::move(item));
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<json> sorted;
    sorted.reserve(ranked.size());
    for (auto &entry : ranked)
        sorted.push_back(std::move(entry.second));
    return sorted;
}

// The merge-key stubs of `list` ({"name":"a"}), or the values of a primitive list: all that
// ordering compares.
json identities(const json &list, std::string_view mergeKey)
{
    if (mergeKey.empty())
        return list;
    json stubs = json::array();
    for (const json &item : list) {
        const json *identity = identityOf(item, mergeKey);
        stubs.push_back(identity ? json{{std::string(mergeKey), *identity}} : json::object());
    }
    return stubs;
}

// Upstream normalizeElementOrder + mergeSortedSlice: patch items take the patch (or
// $setElementOrder) order, server-only items keep their live order, and the two are
// interleaved by live position. A server-only item goes first only when both are live items
// and it was earlier, so an item new to the list lands before the remaining server-only ones.
json normalizeElementOrder(std::vector<json> patchItems, std::vector<json> serverOnly,
                           const json &patchOrder, const json &serverOrder, std::string_view mergeKey)
{
    patchItems = sortedBy(std::move(patchItems), patchOrder, mergeKey);
    serverOnly = sortedBy(std::move(serverOnly), serverOrder, mergeKey);
    json merged = json::array();
    std::size_t left = 0;
    std::size_t right = 0;
    while (left < serverOnly.size() || right < patchItems.size()) {
        bool takeLeft = right >= patchItems.size();
        if (left < serverOnly.size() && right < patchItems.size()) {
            const std::size_t l = indexIn(serverOrder, serverOnly[left], mergeKey);
            const std::size_t r = indexIn(serverOrder, patchItems[right], mergeKey);
            takeLeft = l != NOT_FOUND && r != NOT_FOUND && l < r;
        }
        merged.push_back(std::move(takeLeft ? serverOnly[left++] : patchItems[right++]));
    }
    return merged;
}

// Splits `merged` into the items `selector` names and the rest (upstream
// partitionMapsByPresentInList / partitionPrimitivesByPresentInList).
model::Result<std::pair<std::vector<json>, std::vector<json>>>
partitionBy(json merged, const json &selector, std::string_view mergeKey)
{
    std::pair<std::vector<json>, std::vector<json>> parts;
    for (json &item : merged) {
        if (!identityOf(item, mergeKey))
            return noMergeKey(item, mergeKey);
        (indexIn(selector, item, mergeKey) != NOT_FOUND ? parts.first : parts.second).push_back(std::move(item));
    }
    return parts;
}

// Upstream validatePatchWithSetOrderList: the patch list's items (deletions aside) must all be
// named in $setElementOrder, in the same relative order.
model::VoidResult checkOrderMatchesPatch(const json &patchList, const json &order, std::string_view mergeKey)
{
    std::vector<const json *> items;
    for (const json &item : patchList) {
        if (!mergeKey.empty() && !item.is_object())
            return noMergeKey(item, mergeKey);
        if (item.is_object() && item.contains(PATCH_DIRECTIVE))
            continue;
        items.push_back(&item);
    }
    std::size_t p = 0;
    for (std::size_t o = 0; p < items.size() && o < order.size(); ++o) {
        if (!identityOf(*items[p], mergeKey))
            return noMergeKey(*items[p], mergeKey);
        if (!identityOf(order[o], mergeKey))
            return noMergeKey(order[o], mergeKey);
        if (sameIdentity(*items[p], order[o], mergeKey))
            ++p;
    }
    if (p < items.size() && !order.empty())
        return model::errors::badRequest("the order in patch list:\n" + describeJson(patchList)
                                         + "\n doesn't match $setElementOrder list:\n"
                                         + describeJson(order));
    return model::Done{};
}

} // namespace

model::Result<json> StrategicMerger::mergeList(json original, const json &patch,
                                               const std::string &path) const
{
    const std::optional<FieldPatchMeta> meta = findFieldPatchMeta(m_kind, path);
    if (meta && meta->mergeList)
        return mergeKeyedList(std::move(original), patch, meta->mergeKey, path);
    return replacementList(patch, path);
}

model::Result<json> StrategicMerger::replacementList(const json &patch, const std::string &path) const
{
    json list = json::array();
    for (const json &item : patch) {
        if (!item.is_object()) {
            list.push_back(item);
            continue;
        }
        // Like upstream removeDirectives: a directive element means nothing in a list that
        // is replaced whole, so it is dropped.
        if (item.contains(PATCH_DIRECTIVE))
            continue;
        model::Result<MergedValue> clean = mergeMap(json::object(), item, path);
        if (!clean)
            return std::move(clean).error();
        list.push_back(std::move(clean->value));
    }
    return list;
}

model::Result<json> StrategicMerger::mergeKeyedList(json original, const json &patch,
                                                    std::string_view mergeKey,
                                                    const std::string &path) const
{
    if (original.empty() && patch.empty())
        return original;
    if (model::VoidResult types = checkElementTypes(original, patch); !types)
        return std::move(types).error();
    const bool maps = (!original.empty() ? original.front() : patch.front()).is_object();

    if (!maps) {
        if (!mergeKey.empty())
            return model::errors::badRequest("list " + path + " merges on \"" + std::string(mergeKey)
                                             + "\" but holds elements that are not maps");
        json merged = json::array();
        for (const json *list : {static_cast<const json *>(&original), &patch}) {
            for (const json &item : *list) {
                if (indexIn(merged, item, mergeKey) == NOT_FOUND)
                    merged.push_back(item);
            }
        }
        model::Result<std::pair<std::vector<json>, std::vector<json>>> parts =
            partitionBy(std::move(merged), patch, mergeKey);
        if (!parts)
            return std::move(parts).error();
        return normalizeElementOrder(std::move(parts->first), std::move(parts->second), patch,
                                     original, mergeKey);
    }

    if (mergeKey.empty())
        return model::errors::badRequest("cannot merge lists without merge key for " + path);
    // The patch items without a directive, by pointer: copied only when ordering needs them.
    std::vector<const json *> plain;
    plain.reserve(patch.size());
    bool replace = false;
    for (const json &item : patch) {
        auto directive = item.find(PATCH_DIRECTIVE);
        if (directive == item.end()) {
            plain.push_back(&item);
        } else if (*directive == "delete") {
            const json *key = identityOf(item, mergeKey);
            if (!key)
                return noMergeKey(item, mergeKey);
            json kept = json::array();
            for (json &existing : original) {
                if (!sameIdentity(existing, item, mergeKey))
                    kept.push_back(std::move(existing));
            }
            original = std::move(kept);
        } else if (*directive == "replace") {
            replace = true;
        } else if (*directive == "merge") {
            return model::errors::badRequest("merging lists cannot yet be specified in the patch");
        } else {
            return badPatchType(*directive, item);
        }
    }

    // The common kubectl case: every patch item names an existing item, in live order, with
    // no directives. Upstream's ordering then keeps the live order, so merge in place.
    if (!replace && plain.size() == patch.size()) {
        std::size_t previous = 0;
        bool inLiveOrder = true;
        std::vector<std::size_t> positions;
        positions.reserve(plain.size());
        for (const json *item : plain) {
            const std::size_t index = identityOf(*item, mergeKey) ? indexIn(original, *item, mergeKey) : NOT_FOUND;
            if (index == NOT_FOUND || (!positions.empty() && index <= previous)) {
                inLiveOrder = false;
                break;
            }
            positions.push_back(index);
            previous = index;
        }
        if (inLiveOrder) {
            for (std::size_t i = 0; i < positions.size(); ++i) {
                model::Result<MergedValue> value = mergeMap(std::move(original[positions[i]]), *plain[i], path);
                if (!value)
                    return std::move(value).error();
                original[positions[i]] = std::move(value->value);
            }
            return original;
        }
    }

    json plainItems = json::array();
    for (const json *item : plain)
        plainItems.push_back(*item);
    // Ordering needs only the live items' identities; the items themselves move.
    const json liveOrder = identities(original, mergeKey);
    json merged = replace ? json::array() : std::move(original);
    for (const json &item : plainItems) {
        if (!identityOf(item, mergeKey))
            return noMergeKey(item, mergeKey);
        const std::size_t index = replace ? NOT_FOUND : indexIn(merged, item, mergeKey);
        model::Result<MergedValue> value =
            mergeMap(index == NOT_FOUND ? json::object() : std::move(merged[index]), item, path);
        if (!value)
            return std::move(value).error();
        if (index == NOT_FOUND)
            merged.push_back(std::move(value->value));
        else
            merged[index] = std::move(value->value);
    }
    // With "$patch": "replace" the plain items are the whole list, in their own order.
    if (replace)
        return merged;

    model::Result<std::pair<std::vector<json>, std::vector<json>>> parts =
        partitionBy(std::move(merged), plainItems, mergeKey);
    if (!parts)
        return std::move(parts).error();
    return normalizeElementOrder(std::move(parts->first), std::move(parts->second), plainItems,
                                 liveOrder, mergeKey);
}

model::VoidResult StrategicMerger::applySetElementOrder(json &result, json &patch,
                                                        const std::string &path) const
{
    std::vector<std::string> directives;
    for (const auto &[key, value] : patch.items()) {
        if (std::string_view(key).substr(0, SET_ELEMENT_ORDER_PREFIX.size()) == SET_ELEMENT_ORDER_PREFIX)
            directives.push_back(key);
    }
    for (const std::string &directive : directives) {
        const json order = patch[directive];
        patch.erase(directive);
        const std::optional<std::string> field = directiveTarget(directive, SET_ELEMENT_ORDER_PREFIX);
        if (!field || !order.is_array())
            return model::errors::badRequest("invalid patch format of setElementOrder list");

        auto live = result.find(*field);
        auto patchList = patch.find(*field);
        // A null patch value deletes the list; the main merge loop does that.
        if (patchList != patch.end() && patchList->is_null())
            continue;
        if ((live != result.end() && !live->is_array()) || (patchList != patch.end() && !patchList->is_array()))
            return model::errors::badRequest("invalid patch format of setElementOrder list: "
                                             + childPath(path, *field) + " is not a list");
        const std::string fieldPath = childPath(path, *field);
        const std::optional<FieldPatchMeta> meta = findFieldPatchMeta(m_kind, fieldPath);
        const std::string_view mergeKey = meta ? meta->mergeKey : std::string_view();
        const json liveList = live != result.end() ? *live : json::array();

        json merged;
        if (patchList != patch.end()) {
            if (model::VoidResult matches = checkOrderMatchesPatch(*patchList, order, mergeKey); !matches)
                return std::move(matches).error();
            model::Result<json> list = mergeList(liveList, *patchList, fieldPath);
            if (!list)
                return std::move(list).error();
            merged = std::move(*list);
            patch.erase(patchList);
        } else if (live != result.end()) {
            merged = liveList;
        } else {
            continue;
        }
        model::Result<std::pair<std::vector<json>, std::vector<json>>> parts =
            partitionBy(std::move(merged), order, mergeKey);
        if (!parts)
            return std::move(parts).error();
        result[*field] = normalizeElementOrder(std::move(parts->first), std::move(parts->second),
                                               order, liveList, mergeKey);
    }
    return model::Done{};
}

} // namespace rvscope::patch::detail
