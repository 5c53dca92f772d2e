// SPDX-License-Identifier: MIT
#pragma once

#include <compare>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// Sets of field paths, as server-side apply records them in metadata.managedFields
// (structured-merge-diff's fieldpath.Set and its FieldsV1 encoding; reference:
// shared/reference/server-side-apply.md §2).
namespace rvscope::fields {

// One step of a path: a struct field or map key (`f:name`), an associative-list item named
// by its key fields (`k:{"name":"app"}`), a set member (`v:"a"`), or a list index (`i:0`).
struct PathElement final {
    enum class Kind : unsigned char { Field, Key, Value, Index }; // the order FieldsV1 sorts them in
    Kind kind = Kind::Field;
    std::string name;     // Field
    nlohmann::json value; // Key: an object of the key fields; Value: a scalar
    int index = 0;        // Index

    static PathElement field(std::string name);
    static PathElement key(nlohmann::json fields);
    static PathElement member(nlohmann::json value);

    // structured-merge-diff's order: kinds in the order above, names byte-wise, key fields by
    // name then value, values by decoded value (numbers < strings < bools < lists < maps < null).
    std::strong_ordering operator<=>(const PathElement &other) const;
    bool operator==(const PathElement &other) const { return (*this <=> other) == 0; }

    // The FieldsV1 key: "f:name", "k:{...}", "v:...", "i:N".
    std::string encoded() const;
    // The path-string form used in conflict messages: ".name", "[name=\"app\"]", "[=\"a\"]", "[0]".
    std::string text() const;
};

using Path = std::vector<PathElement>;
std::string pathText(const Path &path); // ".spec.containers[name=\"app\"].image"

// A set of paths, stored as a trie. A path belongs to the set when its node is a member; a
// member may have members below it (FieldsV1 writes "." for such a node).
class FieldSet final {
public:
    void insert(const Path &path);
    bool has(const Path &path) const;
    bool empty() const { return !m_member && m_children.empty(); }
    std::size_t size() const; // number of member paths

    FieldSet unionWith(const FieldSet &other) const;
    FieldSet minus(const FieldSet &other) const;     // paths here that are not in other
    FieldSet intersect(const FieldSet &other) const; // paths in both
    // Every member path at or below `path` removed (what a removed subtree takes away).
    void removeSubtree(const Path &path);

    // For walks that build a set top-down: the set below `element` (made if missing) handed
    // to `fill`, and dropped again when it ends up empty; this node as a member. Walks that
    // visit children in order (a JSON object's members are) insert at the end in O(1).
    template <typename Fill>
    void fillChild(PathElement element, Fill &&fill)
    {
        auto it = m_children.emplace_hint(m_children.end(), std::move(element), FieldSet());
        fill(it->second);
        if (it->second.empty())
            m_children.erase(it);
    }
    void setMember() { m_member = true; }

    // Calls `visit` with every member path, in FieldsV1 order.
    void forEach(const std::function<void(const Path &)> &visit) const;

    // FieldsV1: {"f:data":{".":{},"f:a":{}}}. Keys with an unknown prefix are dropped on
    // parse, as upstream does; a value that is not an object is an error (nullopt).
    nlohmann::json toFieldsV1() const;
    // The same as its compact text, in a raw node (model::rawJson): the form objects store.
    nlohmann::json toRawFieldsV1() const;
    // Reads either form; a raw one is decoded once per thread and remembered.
    static std::optional<FieldSet> fromFieldsV1(const nlohmann::json &fields);
    // Whether FieldsV1 (either form) holds `path` as a member, without building a tree.
    static bool encodedHas(const nlohmann::json &fields, const Path &path);
    // Whether the raw FieldsV1 `raw` encodes exactly `set` (false for anything not raw).
    static bool encodes(const nlohmann::json &raw, const FieldSet &set);

    bool operator==(const FieldSet &other) const;

private:
    void forEachFrom(Path &prefix, const std::function<void(const Path &)> &visit) const;
    void appendFieldsV1(std::string &out) const;
    bool prune(); // drops empty non-member children; true when this node is empty

    bool m_member = false;
    std::map<PathElement, FieldSet> m_children;
};

} // namespace rvscope::fields
