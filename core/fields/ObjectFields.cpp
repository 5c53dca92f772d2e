// SPDX-License-Identifier: MIT
#include "fields/ObjectFields.h"

#include <algorithm>
#include <map>

namespace rvscope::fields {
namespace {
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

// Where a walk is: the object's root, its metadata, or anywhere else. Only the first two
// have members no manager owns.
enum class Level { Root, Metadata, Other };

Level levelBelow(Level level, const std::string &key)
{
    return level == Level::Root && key == "metadata" ? Level::Metadata : Level::Other;
}

bool isManagedFields(Level level, const std::string &key);

// A schema path kept in one buffer: entering a field appends ".name", leaving cuts it again
// (the walks run on every write; a string per member showed up in profiles).
struct DottedPath {
    std::string text;

    template <typename Body>
    void enter(const std::string &name, Body &&body)
    {
        const std::size_t mark = text.size();
        if (mark != 0)
            text += '.';
        text += name;
        body();
        text.resize(mark);
    }
};

// The fields a configuration sets, built top-down: `node` is the set at the walk's place.
// The fields no manager owns (isManagedFields) are skipped on the way; nodes left empty are
// dropped.
struct AppliedWalk {
    const FieldSchema &schema;
    DottedPath dotted;
    std::string error;

    void walk(const nlohmann::json &value, Level level, FieldSet &node)
    {
        if (value.is_object()) {
            if (level != Level::Root && (value.empty() || schema.atomic(dotted.text))) {
                if (level != Level::Metadata) // the metadata node itself is never a member
                    node.setMember();
                return;
            }
            for (auto it = value.begin(); it != value.end(); ++it) {
                if (!isManagedFields(level, it.key()))
                    member(it.key(), it.value(), levelBelow(level, it.key()), node);
            }
            return;
        }
        if (value.is_array()) {
            list(value, node);
            return;
        }
        node.setMember();
    }

    void member(const std::string &key, const nlohmann::json &value, Level level, FieldSet &node)
    {
        node.fillChild(PathElement::field(key), [&](FieldSet &child) {
            dotted.enter(key, [&] { walk(value, level, child); });
        });
    }

    void list(const nlohmann::json &value, FieldSet &node)
    {
        const ListType type = schema.list(dotted.text);
        if (type.kind == ListType::Kind::Atomic) {
            node.setMember();
            return;
        }
        for (const nlohmann::json &item : value) {
            if (type.kind == ListType::Kind::Set) {
                node.fillChild(PathElement::member(item), [](FieldSet &entry) { entry.setMember(); });
                continue;
            }
            auto key = keyOf(item, type, &error);
            if (!key)
                return;
            node.fillChild(std::move(*key), [&](FieldSet &entry) {
                entry.setMember();
                for (auto it = item.begin(); it != item.end(); ++it)
                    member(it.key(), it.value(), Level::Other, entry);
            });
        }
    }
};

// The fields no manager ever owns, skipped in place by the compare and applied walks:
// apiVersion, kind, and metadata's name, uid, resourceVersion, managedFields and the like.
bool isManagedFields(Level level, const std::string &key)
{
    if (level == Level::Root)
        return key == "apiVersion" || key == "kind";
    if (level != Level::Metadata)
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

Level levelOf(const Path &path)
{
    return path.empty() ? Level::Root : isMetadataNode(path) ? Level::Metadata : Level::Other;
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
            const Level level = levelOf(path);
            for (auto it = value.begin(); it != value.end(); ++it) {
                if (isManagedFields(level, it.key()))
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
        if (before.is_object() && after.is_object() && !atomic(path)) {
            // Both maps are sorted by key: one merge walk, no lookups. A member that is a map
            // on both sides is walked into (its changes, or none, found in one pass); any other
            // is compared first. No comparison of a whole map first: it would compare
            // everything up to the first change twice.
            const auto &old = before.get_ref<const nlohmann::json::object_t &>();
            const auto &now = after.get_ref<const nlohmann::json::object_t &>();
            const Level level = levelOf(path);
            auto o = old.begin();
            auto n = now.begin();
            while (o != old.end() || n != now.end()) {
                const int order = o == old.end() ? 1 : n == now.end() ? -1 : o->first.compare(n->first);
                const std::string &key = order < 0 ? o->first : n->first;
                // Two maps are walked into without a comparison first (the walk finds their
                // changes, or none, in one pass; a `!=` would also compare metadata's
                // managedFields, which the walk skips); other values are compared.
                const bool walk = order == 0 && o->second.is_object() && n->second.is_object();
                if (!isManagedFields(level, key) && (order != 0 || walk || o->second != n->second)) {
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
        if (before != after) { // from a keyed list's items, which are not compared first
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
void mergeInto(nlohmann::json &out, const nlohmann::json &config, const FieldSchema &schema, DottedPath &dotted,
               bool itemRoot)
{
    if (out.is_object() && config.is_object() && (itemRoot || !schema.atomic(dotted.text))) {
        for (auto it = config.begin(); it != config.end(); ++it) {
            auto old = out.find(it.key());
            if (old == out.end())
                out[it.key()] = it.value();
            else
                dotted.enter(it.key(), [&] { mergeInto(*old, it.value(), schema, dotted, false); });
        }
        return;
    }
    if (out.is_array() && config.is_array()) {
        const ListType type = schema.list(dotted.text);
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
    if (out.is_primitive() && out == config)
        return; // most of an applied configuration is what is there already: no copy
    out = config;
}
} // namespace

AppliedFields appliedFields(const nlohmann::json &config, const FieldSchema &schema)
{
    AppliedWalk walk{schema, {}, {}};
    FieldSet fields;
    walk.walk(config, Level::Root, fields);
    return AppliedFields{std::move(fields), std::move(walk.error)};
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
    DottedPath dotted;
    mergeInto(merged, config, schema, dotted, true);
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
