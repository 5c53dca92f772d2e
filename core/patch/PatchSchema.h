// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

// The strategic-merge-patch metadata of the built-in types rvscope serves: which fields carry
// `patchStrategy` / `patchMergeKey` struct tags in k8s.io/api v0.32. A data table, walked by
// the one generic algorithm in StrategicMergePatch.
namespace rvscope::patch {

// The patch metadata of one field.
struct FieldPatchMeta final {
    // patchStrategy "merge": a list of maps merges element by element on `mergeKey`; a list
    // of primitives (empty `mergeKey`) takes the deduplicated union. Without it a list is
    // replaced whole.
    bool mergeList = false;
    // patchStrategy "retainKeys" (union types: volumes[], Deployment spec.strategy). It only
    // documents where clients send `$retainKeys`; the directive is honoured on any map.
    bool retainKeys = false;
    std::string_view mergeKey;
    // patchStrategy "replace" on a map (PodDisruptionBudget spec.selector): the patch's map
    // replaces the original's whole, as a `$patch: replace` inside it would.
    bool replaceMap = false;
};

// True for the built-in kinds whose PATCH accepts application/strategic-merge-patch+json:
// every built-in kind rvscope serves (see the KINDS table), and Scale. Case-sensitive. Custom resources must answer
// 415 instead; a CRD may reuse a built-in kind name, so callers serving a custom resource
// must decide that before asking here.
bool supportsStrategicMerge(std::string_view kind);

// Whether some map field of `kind` has patchStrategy "replace".
bool hasMapReplacements(std::string_view kind);

// The metadata of the field at `fieldPath` in an object of `kind`, or nullopt when the field
// has no patch strategy (maps then merge, lists are replaced). `fieldPath` is dotted and
// names no list indices: a field of a list element is reached through the list's own name,
// e.g. "spec.template.spec.containers.env" for a Deployment. Unknown kinds have no entries.
std::optional<FieldPatchMeta> findFieldPatchMeta(std::string_view kind, std::string_view fieldPath);

} // namespace rvscope::patch
