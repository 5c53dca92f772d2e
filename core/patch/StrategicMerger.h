// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/Result.h"
#include "patch/PatchSchema.h"

// Internal to core/patch: the strategic merge algorithm behind applyStrategicMergePatch.
// It follows k8s.io/apimachinery strategicpatch's server-side merge (mergeMap with
// MergeParallelList and IgnoreUnmatchedNulls), reading list strategies from PatchSchema.
namespace rvscope::patch::detail {

inline constexpr const char *PATCH_DIRECTIVE = "$patch";
inline constexpr const char *RETAIN_KEYS_DIRECTIVE = "$retainKeys";
inline constexpr std::string_view SET_ELEMENT_ORDER_PREFIX = "$setElementOrder";
inline constexpr std::string_view DELETE_FROM_PRIMITIVE_LIST_PREFIX = "$deleteFromPrimitiveList";

// A merged map, or the instruction to drop it from its parent ("$patch": "delete").
struct MergedValue final {
    nlohmann::json value;
    bool deleted = false;
};

// Errors come back as Statuses: 400 BadRequest for a malformed patch (bad directive, missing
// merge key, element types that differ, a $setElementOrder that contradicts the patch list),
// 422 for a list of lists. Members may throw only nlohmann/allocation exceptions; the public
// entry point catches those.
class StrategicMerger final {
public:
    explicit StrategicMerger(std::string_view kind)
        : m_kind(kind)
        , m_replacesMaps(hasMapReplacements(kind))
    {
    }

    // Merges the patch map into `original` (a non-object original counts as {}). `path` is
    // the dotted field path of the map, "" for the object root. Takes `original` by value:
    // each level moves its members down instead of copying them (a deep patch would
    // otherwise copy the object once per level).
    model::Result<MergedValue> mergeMap(nlohmann::json original, const nlohmann::json &patch,
                                        const std::string &path) const;

private:
    // StrategicMerger.cpp: maps and directives.
    // Consumes *existing (moved from) when it is merged into.
    model::Result<MergedValue> mergeMember(nlohmann::json *existing, const nlohmann::json &patch,
                                           const std::string &path) const;
    model::VoidResult deleteFromPrimitiveList(nlohmann::json &result, const std::string &directive,
                                              const nlohmann::json &values) const;

    // StrategicMergerLists.cpp: lists, $setElementOrder and element order.
    model::Result<nlohmann::json> mergeList(nlohmann::json original,
                                            const nlohmann::json &patch,
                                            const std::string &path) const;
    model::Result<nlohmann::json> mergeKeyedList(nlohmann::json original, const nlohmann::json &patch,
                                                 std::string_view mergeKey,
                                                 const std::string &path) const;
    model::Result<nlohmann::json> replacementList(const nlohmann::json &patch,
                                                  const std::string &path) const;
    model::VoidResult applySetElementOrder(nlohmann::json &result, nlohmann::json &patch,
                                           const std::string &path) const;

    std::string_view m_kind;
    // Whether any map of this kind has patchStrategy "replace" (most have none, and then no
    // map member needs a schema lookup).
    bool m_replacesMaps;
};

// "spec" + "containers" -> "spec.containers"; list elements add no segment.
std::string childPath(const std::string &path, const std::string &key);
// The field a "$setElementOrder/<field>" or "$deleteFromPrimitiveList/<field>" key names;
// empty optional when the key does not have exactly that prefix followed by '/'.
std::optional<std::string> directiveTarget(const std::string &key, std::string_view prefix);
model::Status badPatchType(const nlohmann::json &directive, const nlohmann::json &map);

} // namespace rvscope::patch::detail
