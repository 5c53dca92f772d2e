// SPDX-License-Identifier: MIT
#include "fields/ObjectFields.h"

#include <algorithm>
#include <map>

namespace rvscope::fields {
namespace {
std::string join(const std::string &dotted, const std::string &name)
{
    return dotted.empty() ? name : dotted + '.' + name;
}

// An associative-list item's key element: every key field, defaulted where it may be.
std::optional<PathElement> keyOf(const nlohmann::json &item, const ListType &type, std::string *error)
{
    if (!item.is_object()) {
        if (error)
            *error = "associative list with keys has an element that is not a map type";
        return std::nullopt;
    }
    nlohmann::json key = nlohmann::json::object();
    for (const std::string &field : type.keys) {
        auto it = item.find(field);
        if (it != item.end()) {
            key[field] = *it;
        } else if (type.keyDefaults.contains(field)) {
            key[field] = type.keyDefaults[field];
        } else {
            if (error)
                *error = "associative list with keys has an element that omits key field \"" + field
                    + "\" (and doesn't have default value)";
            return std::nullopt;
        }
    }
    return PathElement::key(std::move(key));
}

bool isManagedFields(const Path &path, const std::string &key);
bool isMetadataNode(const Path &path);

// The fields a configuration sets, built top-down: `node` is the set at `path`. The fields
// no manager owns (isManagedFields) are skipped on the way; nodes left empty are dropped.
struct AppliedWalk {
    const FieldSchema &schema;
    FieldSet out;
    std::string error;

    void walk(const nlohmann::json &value, Path &path, const std::string &dotted, FieldSet &node)
    {
        if (value.is_object()) {
            if (!path.empty() && (value.empty() || schema.atomic(dotted))) {
                if (!isMetadataNode(path)) // the metadata node itself is never a member
                    node.setMember();
                return;
            }
            for (auto it = value.begin(); it != value.end(); ++it) {
                if (isManagedFields(path, it.key()))
                    continue;
                member(it.key(), it.value(), path, dotted, node);
            }
            return;
        }
        if (value.is_array()) {
            list(value, path, dotted, node);
            return;
        }
        node.setMember();
    }

    void member(const std::string &key, const nlohmann::json &value, Path &path, const std::string &dotted,
                FieldSet &node)
    {
        PathElement element = PathElement::field(key);
        FieldSet &child = node.child(element);
        path.push_back(std::move(element));
        walk(value, path, join(dotted, key), child);
        path.pop_back();
        node.dropIfEmpty(PathElement::field(key));
    }

    void list(const nlohmann::json &value, Path &path, const std::string &dotted, FieldSet &node)
    {
        const ListType type = schema.list(dotted);
        if (type.kind == ListType::Kind::Atomic) {
            node.setMember();
            return;
        }
        for (const nlohmann::json &item : value) {
            if (type.kind == ListType::Kind::Set) {
                node.child(PathElement::member(item)).setMember();
                continue;
            }
            auto key = keyOf(item, type, &error);
            if (!key)
                return;
            FieldSet &entry = node.child(*key);
            entry.setMember();
            path.push_back(std::move(*key));
            for (auto it = item.begin(); it != item.end(); ++it)
                member(it.key(), it.value(), path, dotted, entry);
            path.pop_back();
        }
    }
};

// The fields no manager ever owns, skipped in place by the compare and applied walks:
// apiVersion, kind, and metadata's name, uid, resourceVersion, managedFields and the like.
bool isManagedFields(const Path &path, const std::string &key)
{
    if (path.empty())
        return key == "apiVersion" || key == "kind";
    if (path.size() != 1 || path[0].kind != PathElement::Kind::Field || path[0].name != "metadata")
        return false;
    static const char *const ignored[] = {"name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
                                          "generation", "managedFields", "resourceVersion"};
    for (const char *name : ignored) {
        if (key == name)
            return true;
    }
    return false;
}

bool isMetadataNode(const Path &path)
{
    return path.size() == 1 && path[0].kind == PathElement::Kind::Field && path[0].name == "metadata";
}

// The schema's dotted path of `path`: its field names, list items reached through the list's own name.
std::string dottedOf(const Path &path)
{
    std::string dotted;
    for (const PathElement &element : path) {
        if (element.kind != PathElement::Kind::Field)
            continue;
        if (!dotted.empty())
            dotted += '.';
        dotted += element.name;
    }
    return dotted;
}

// The compare walk runs on every write: it builds the schema's dotted path only where the
// schema can answer something (a list, or a field that may be an atomic struct).
struct CompareWalk {
    const FieldSchema &schema;
    Changes out;

    bool atomic(const Path &path) const
    {
        if (path.empty() || path.back().kind != PathElement::Kind::Field)
            return false;
        const std::string &name = path.back().name;
        if (!schema.mayBeAtomic(name))
            return false;
        return schema.atomic(dottedOf(path));
    }

    // A node that did not exist: a member, and so is everything below it.
    void added(const nlohmann::json &value, Path &path)
    {
        if (!path.empty() && !isMetadataNode(path))
            out.added.insert(path);
        if (value.is_object() && !atomic(path)) {
            for (auto it = value.begin(); it != value.end(); ++it) {
                if (isManagedFields(path, it.key()))
                    continue;
                path.push_back(PathElement::field(it.key()));
                added(it.value(), path);
                path.pop_back();
            }
        } else if (value.is_array()) {
            const ListType type = schema.list(dottedOf(path));
            if (type.kind == ListType::Kind::Atomic)
                return;
            for (const nlohmann::json &item : value)
                addedItem(item, type, path);
        }
    }

    void addedItem(const nlohmann::json &item, const ListType &type, Path &path)
    {
        if (type.kind == ListType::Kind::Set) {
            path.push_back(PathElement::member(item));
            out.added.insert(path);
            path.pop_back();
            return;
        }
        auto key = keyOf(item, type, nullptr);
        if (!key)
            return;
        path.push_back(std::move(*key));
        out.added.insert(path);
        for (auto it = item.begin(); it != item.end(); ++it) {
            path.push_back(PathElement::field(it.key()));
            added(it.value(), path);
            path.pop_back();
        }
        path.pop_back();
    }

    void diff(const nlohmann::json &before, const nlohmann::json &after, Path &path)
    {
        // Most of an object is unchanged: one comparison, no path built (managedFields
        // differ between the two only when a client sent its own; then the walk goes in).
        if (before == after)
            return;
        if (before.is_object() && after.is_object() && !atomic(path)) {
            // Both maps are sorted by key: one merge walk, no lookups.
            const auto &old = before.get_ref<const nlohmann::json::object_t &>();
            const auto &now = after.get_ref<const nlohmann::json::object_t &>();
            auto o = old.begin();
            auto n = now.begin();
            while (o != old.end() || n != now.end()) {
                const int order = o == old.end() ? 1 : n == now.end() ? -1 : o->first.compare(n->first);
                const std::string &key = order < 0 ? o->first : n->first;
                if (!isManagedFields(path, key) && (order != 0 || o->second != n->second)) {
                    path.push_back(PathElement::field(key));
                    if (order < 0)
                        out.removed.insert(path);
                    else if (order > 0)
                        added(n->second, path);
                    else
                        diff(o->second, n->second, path);
                    path.pop_back();
                }
                if (order <= 0)
                    ++o;
                if (order >= 0)
                    ++n;
            }
            return;
        }
        if (before.is_array() && after.is_array()) {
            const ListType type = schema.list(dottedOf(path));
            if (type.kind != ListType::Kind::Atomic) {
                diffList(before, after, type, path);
                return;
            }
        }
        if (before != after) {
            out.modified.insert(path);
            if (after.is_object() || after.is_array()) { // a new shape: its members are new
                Path below = path;
                added(after, below);
            }
        }
    }

    void diffList(const nlohmann::json &before, const nlohmann::json &after, const ListType &type, Path &path)
    {
        if (type.kind == ListType::Kind::Set) {
            for (const auto &value : after) {
                if (std::find(before.begin(), before.end(), value) == before.end())
                    addedItem(value, type, path);
            }
            for (const auto &value : before) {
                if (std::find(after.begin(), after.end(), value) != after.end())
                    continue;
                path.push_back(PathElement::member(value));
                out.removed.insert(path);
                path.pop_back();
            }
            return;
        }
        std::map<PathElement, const nlohmann::json *> old;
        for (const auto &item : before) {
            if (auto key = keyOf(item, type, nullptr))
                old.emplace(std::move(*key), &item);
        }
        for (const auto &item : after) {
            auto key = keyOf(item, type, nullptr);
            if (!key)
                continue;
            auto found = old.find(*key);
            if (found == old.end()) {
                addedItem(item, type, path);
                continue;
            }
            path.push_back(*key);
            diff(*found->second, item, path);
            path.pop_back();
            old.erase(found);
        }
        for (const auto &[key, item] : old) {
            path.push_back(key);
            out.removed.insert(path);
            path.pop_back();
        }
    }
};

// The index of `element` in the list `list` (an item with those key fields, or that value).
std::optional<std::size_t> findItem(const nlohmann::json &list, const PathElement &element)
{
    for (std::size_t i = 0; i < list.size(); ++i) {
        const nlohmann::json &item = list[i];
        if (element.kind == PathElement::Kind::Value && item == element.value)
            return i;
        if (element.kind == PathElement::Kind::Key && item.is_object()) {
            bool all = true;
            for (auto it = element.value.begin(); it != element.value.end() && all; ++it) {
                auto field = item.find(it.key());
                // A key field the item omits matches its default (the key holds it).
                all = field == item.end() ? true : *field == it.value();
            }
            if (all)
                return i;
        }
        if (element.kind == PathElement::Kind::Index && std::size_t(element.index) == i)
            return i;
    }
    return std::nullopt;
}

// Merges `config` into `out` (a copy of the live object), in place: a copy per level would
// copy the deepest fields once per level above them.
void mergeInto(nlohmann::json &out, const nlohmann::json &config, const FieldSchema &schema, const std::string &dotted,
               bool root)
{
    if (out.is_object() && config.is_object() && (root || !schema.atomic(dotted))) {
        for (auto it = config.begin(); it != config.end(); ++it) {
            auto old = out.find(it.key());
            if (old == out.end())
                out[it.key()] = it.value();
            else
                mergeInto(*old, it.value(), schema, join(dotted, it.key()), false);
        }
        return;
    }
    if (out.is_array() && config.is_array()) {
        const ListType type = schema.list(dotted);
        if (type.kind == ListType::Kind::Set) {
            for (const auto &value : config) {
                if (std::find(out.begin(), out.end(), value) == out.end())
                    out.push_back(value);
            }
            return;
        }
        if (type.kind == ListType::Kind::Map) {
            for (const auto &item : config) {
                auto key = keyOf(item, type, nullptr);
                auto at = key ? findItem(out, *key) : std::nullopt;
                if (at)
                    mergeInto(out[*at], item, schema, dotted, true);
                else
                    out.push_back(item);
            }
            return;
        }
    }
    out = config;
}
} // namespace

AppliedFields appliedFields(const nlohmann::json &config, const FieldSchema &schema)
{
    AppliedWalk walk{schema, {}, {}};
    Path path;
    walk.walk(config, path, std::string(), walk.out);
    return AppliedFields{std::move(walk.out), std::move(walk.error)};
}

Changes compareObjects(const nlohmann::json &before, const nlohmann::json &after, const FieldSchema &schema)
{
    CompareWalk walk{schema, {}};
    Path path;
    static const nlohmann::json empty = nlohmann::json::object();
    walk.diff(before.is_null() ? empty : before, after, path);
    return std::move(walk.out); // the ignored fields were skipped on the way
}

nlohmann::json mergeApplied(const nlohmann::json &live, const nlohmann::json &config, const FieldSchema &schema)
{
    nlohmann::json merged = live.is_null() ? nlohmann::json::object() : live;
    mergeInto(merged, config, schema, std::string(), true);
    return merged;
}

void removeAt(nlohmann::json &object, const Path &path)
{
    nlohmann::json *node = &object;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const PathElement &element = path[i];
        const bool last = i + 1 == path.size();
        if (element.kind == PathElement::Kind::Field) {
            if (!node->is_object())
                return;
            auto it = node->find(element.name);
            if (it == node->end())
                return;
            if (last) {
                node->erase(it);
                return;
            }
            node = &*it;
            continue;
        }
        if (!node->is_array())
            return;
        auto at = findItem(*node, element);
        if (!at)
            return;
        if (last) {
            node->erase(*at);
            return;
        }
        node = &(*node)[*at];
    }
}

} // namespace rvscope::fields
