// SPDX-License-Identifier: MIT
#pragma once

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
// set); custom resources and unknown kinds use the deduced type (every list atomic, every map
// granular), with ObjectMeta typed as for any object.
class FieldSchema final {
public:
    static FieldSchema forKind(std::string kind, bool custom);

    ListType list(std::string_view path) const;
    // An atomic struct or map (LabelSelector, a Service's selector): owned and replaced whole.
    bool atomic(std::string_view path) const;

private:
    std::string m_kind;
    bool m_deduced = false;
};

} // namespace rvscope::fields
