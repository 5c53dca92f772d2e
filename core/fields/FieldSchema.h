// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rvscope::fields {

// How server-side apply treats a list (reference §7): one leaf (atomic), one member per
// value (set), or one member per item named by its key fields (map).
struct ListType final {
    enum class Kind { Atomic, Set, Map };
    Kind kind = Kind::Atomic;
    std::vector<std::string> keys; // Map: the key fields
    nlohmann::json keyDefaults = nlohmann::json::object(); // Map: a key field's default when an item omits it
};

// The structure of one kind as server-side apply sees it: list types and atomic structs or
// maps, looked up by dotted field path ("spec.template.spec.containers.ports"; list items are
// reached through the list's own name). Built-in kinds follow their k8s.io/api v0.32 markers
// (the strategic-merge table plus where SSA differs: ports keyed with protocol, finalizers a
// set); unknown kinds use the deduced type (every list atomic, every map granular), and so
// do custom resources, but for what their version's openAPIV3Schema marks with
// x-kubernetes-list-type (atomic, set, or map keyed by x-kubernetes-list-map-keys, a key's
// `default` standing in when an item omits it) and x-kubernetes-map-type: atomic. ObjectMeta
// is typed as for any object. Copies share the markers.
class FieldSchema final {
public:
    static FieldSchema forKind(std::string kind, bool custom);
    // A custom resource's schema, from its version's openAPIV3Schema.
    static FieldSchema fromOpenApi(std::string kind, const nlohmann::json &openApiV3Schema);

    ListType list(std::string_view path) const;
    // An atomic struct or map (LabelSelector, a Service's selector): owned and replaced whole.
    bool atomic(std::string_view path) const;
    // False when no struct or map named `name` can be atomic: a cheap test before atomic().
    bool mayBeAtomic(std::string_view name) const;

private:
    struct Markers {
        std::map<std::string, ListType, std::less<>> lists;
        std::set<std::string, std::less<>> atomicMaps;
    };

    std::string m_kind;
    bool m_deduced = false;
    std::shared_ptr<const Markers> m_markers; // a custom resource's, from its schema
};

} // namespace rvscope::fields
