// SPDX-License-Identifier: MIT
#include "fields/ManagedFields.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <QtCore/QDateTime>

#include "fields/ObjectFields.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"
#include "model/Status.h"

namespace rvscope::fields {
namespace {
std::string stringAt(const nlohmann::json &object, const char *name)
{
    auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::int64_t unixSeconds(const std::string &time)
{
    if (time.empty())
        return 0;
    return QDateTime::fromString(QString::fromStdString(time), Qt::ISODate).toSecsSinceEpoch();
}

// How a conflict message names a manager (upstream's printManager).
std::string describe(const ManagerEntry &entry)
{
    std::string text = '"' + entry.manager + '"';
    if (!entry.subresource.empty())
        text += " with subresource \"" + entry.subresource + '"';
    if (entry.operation == "Update")
        text += " using " + entry.apiVersion;
    return text;
}

void dropEmpty(std::vector<ManagerEntry> &entries)
{
    std::erase_if(entries, [](const ManagerEntry &entry) { return entry.fields.empty(); });
}

ManagerEntry &entryFor(std::vector<ManagerEntry> &entries, const Writer &writer, const char *operation)
{
    ManagerEntry wanted;
    wanted.manager = writer.manager.empty() ? "unknown" : writer.manager;
    wanted.operation = operation;
    wanted.apiVersion = writer.apiVersion;
    wanted.subresource = writer.subresource;
    for (ManagerEntry &entry : entries) {
        if (entry.sameIdentity(wanted))
            return entry;
    }
    entries.push_back(std::move(wanted));
    return entries.back();
}
// An entry's identifier as upstream spells it (the JSON of manager, operation, apiVersion
// and subresource): the tie-break among equally old entries.
std::string identifier(const ManagerEntry &entry)
{
    std::string id = "{\"manager\":" + nlohmann::json(entry.manager).dump() + ",\"operation\":\"" + entry.operation
        + "\",\"apiVersion\":" + nlohmann::json(entry.apiVersion).dump();
    if (!entry.subresource.empty())
        id += ",\"subresource\":" + nlohmann::json(entry.subresource).dump();
    return id + '}';
}

// At most MAX_UPDATE_MANAGERS Update entries (reference §1.5): oldest first, the second and
// later entries of an apiVersion fold, with the first, into "ancient-changes" of that
// apiVersion until few enough are left.
void capUpdateManagers(std::vector<ManagerEntry> &entries)
{
    constexpr std::size_t MAX_UPDATE_MANAGERS = 10;
    std::vector<std::size_t> updaters;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].operation == "Update")
            updaters.push_back(i);
    }
    if (updaters.size() <= MAX_UPDATE_MANAGERS)
        return;
    std::sort(updaters.begin(), updaters.end(), [&](std::size_t a, std::size_t b) {
        const std::int64_t ta = unixSeconds(entries[a].time);
        const std::int64_t tb = unixSeconds(entries[b].time);
        return ta != tb ? ta < tb : identifier(entries[a]) < identifier(entries[b]);
    });
    std::map<std::string, std::size_t> firstOfVersion;
    std::vector<bool> gone(entries.size(), false);
    std::size_t length = updaters.size();
    for (std::size_t i = 0; i < updaters.size() && length > MAX_UPDATE_MANAGERS; ++i) {
        ManagerEntry &entry = entries[updaters[i]];
        auto first = firstOfVersion.find(entry.apiVersion);
        if (first == firstOfVersion.end()) {
            firstOfVersion.emplace(entry.apiVersion, updaters[i]);
            continue;
        }
        // The bucket: an existing one of that apiVersion, else the first entry renamed.
        ManagerEntry *bucket = nullptr;
        for (std::size_t j = 0; j < entries.size(); ++j) {
            if (!gone[j] && entries[j].manager == ANCIENT_CHANGES && entries[j].operation == "Update"
                && entries[j].apiVersion == entry.apiVersion && entries[j].subresource.empty())
                bucket = &entries[j];
        }
        if (!bucket) {
            bucket = &entries[first->second];
            bucket->manager = ANCIENT_CHANGES;
            bucket->subresource.clear();
            bucket->decodedFrom = nullptr;
        }
        bucket->fields = bucket->fields.unionWith(entry.fields);
        bucket->time = entry.time; // the merged entry's: the more recent
        bucket->decodedFrom = nullptr;
        gone[updaters[i]] = true;
        --length;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (gone[i])
            continue;
        if (kept != i) // (a self-move would empty the entry)
            entries[kept] = std::move(entries[i]);
        ++kept;
    }
    entries.resize(kept);
}
} // namespace

bool ManagerEntry::sameIdentity(const ManagerEntry &other) const
{
    return manager == other.manager && operation == other.operation && subresource == other.subresource
        && (operation == "Apply" || apiVersion == other.apiVersion);
}

std::optional<std::vector<ManagerEntry>> decodeManagedFields(const nlohmann::json &list)
{
    if (model::isRawJson(list)) {
        const std::optional<nlohmann::json> tree = model::parseManagedFieldsJson(model::rawJsonText(list));
        return tree ? decodeManagedFields(*tree) : std::nullopt;
    }
    std::vector<ManagerEntry> entries;
    if (list.is_null())
        return entries;
    if (!list.is_array())
        return std::nullopt;
    for (const nlohmann::json &item : list) {
        if (!item.is_object())
            return std::nullopt;
        ManagerEntry entry;
        entry.manager = stringAt(item, "manager");
        entry.operation = stringAt(item, "operation");
        entry.apiVersion = stringAt(item, "apiVersion");
        entry.time = stringAt(item, "time");
        entry.subresource = stringAt(item, "subresource");
        if ((entry.operation != "Apply" && entry.operation != "Update") || entry.apiVersion.empty()
            || stringAt(item, "fieldsType") != "FieldsV1")
            return std::nullopt;
        auto fields = FieldSet::fromFieldsV1(item.value("fieldsV1", nlohmann::json::object()));
        if (!fields)
            return std::nullopt;
        entry.fields = std::move(*fields);
        if (const nlohmann::json &raw = model::member(item, "fieldsV1"); model::isRawJson(raw))
            entry.decodedFrom = raw;
        entries.push_back(std::move(entry));
    }
    return entries;
}

nlohmann::json encodeManagedFields(const std::vector<ManagerEntry> &entries)
{
    // Sorted as upstream: operation, time, manager, apiVersion, subresource. An order of
    // indices, each time parsed once (no copies of the entries and their sets).
    std::vector<std::int64_t> seconds;
    seconds.reserve(entries.size());
    for (const ManagerEntry &entry : entries)
        seconds.push_back(unixSeconds(entry.time));
    std::vector<std::size_t> order(entries.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
        const ManagerEntry &a = entries[i], &b = entries[j];
        return std::tie(a.operation, seconds[i], a.manager, a.apiVersion, a.subresource)
            < std::tie(b.operation, seconds[j], b.manager, b.apiVersion, b.subresource);
    });
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t index : order) {
        const ManagerEntry &entry = entries[index];
        nlohmann::json item = {{"manager", entry.manager},
                               {"operation", entry.operation},
                               {"apiVersion", entry.apiVersion},
                               {"fieldsType", "FieldsV1"},
                               {"fieldsV1", FieldSet::encodes(entry.decodedFrom, entry.fields)
                                                ? entry.decodedFrom
                                                : entry.fields.toRawFieldsV1()}};
        if (!entry.time.empty())
            item["time"] = entry.time;
        if (!entry.subresource.empty())
            item["subresource"] = entry.subresource;
        list.push_back(std::move(item));
    }
    return list;
}

nlohmann::json encodeManagedFieldsRaw(const std::vector<ManagerEntry> &entries)
{
    return model::rawJson(model::dumpJson(encodeManagedFields(entries)));
}

std::vector<ManagerEntry> recordUpdate(std::vector<ManagerEntry> entries, const nlohmann::json &before,
                                       const nlohmann::json &after, const Writer &writer, const FieldSchema &schema)
{
    const bool create = before.is_null() || before.empty();
    if (entries.empty() && !create)
        return entries;
    return recordUpdate(std::move(entries), compareObjects(before, after, schema), create, writer);
}

std::vector<ManagerEntry> recordUpdate(std::vector<ManagerEntry> entries, const Changes &changes, bool create,
                                       const Writer &writer)
{
    // An object nobody tracks stays untracked until an apply (reference §5.3).
    if (entries.empty() && !create)
        return entries;
    const FieldSet changed = changes.added.unionWith(changes.modified);
    std::vector<Path> removed;
    changes.removed.forEach([&removed](const Path &path) { removed.push_back(path); });

    ManagerEntry &mine = entryFor(entries, writer, "Update");
    const ManagerEntry identity = mine; // a copy: `mine` may move when entries change
    for (ManagerEntry &entry : entries) {
        for (const Path &path : removed)
            entry.fields.removeSubtree(path);
        if (!entry.sameIdentity(identity))
            entry.fields = entry.fields.minus(changed);
    }
    for (ManagerEntry &entry : entries) {
        if (!entry.sameIdentity(identity))
            continue;
        entry.fields = entry.fields.unionWith(changed);
        if (!changed.empty())
            entry.time = writer.now;
    }
    dropEmpty(entries);
    capUpdateManagers(entries);
    return entries;
}

ApplyResult apply(const nlohmann::json &live, const nlohmann::json &config, std::vector<ManagerEntry> entries,
                  const Writer &writer, bool force, const FieldSchema &schema)
{
    ApplyResult result;
    AppliedFields applied = appliedFields(config, schema);
    if (!applied.error.empty()) {
        result.error = std::move(applied.error);
        return result;
    }
    if (entries.empty() && live.is_object() && !live.empty()) {
        // The first apply to an untracked object: everything there is first recorded as
        // "before-first-apply"'s, and the apply can conflict with it (reference §5.3).
        ManagerEntry before;
        before.manager = BEFORE_FIRST_APPLY;
        before.operation = "Update";
        before.apiVersion = writer.apiVersion;
        before.time = writer.now;
        before.fields = compareObjects(nlohmann::json(), live, schema).added;
        if (!before.fields.empty())
            entries.push_back(std::move(before));
    }
    ManagerEntry identity;
    identity.manager = writer.manager;
    identity.operation = "Apply";
    identity.subresource = writer.subresource;

    const FieldSet *previous = nullptr;
    for (const ManagerEntry &entry : entries) {
        if (entry.sameIdentity(identity))
            previous = &entry.fields;
    }
    nlohmann::json merged = mergeApplied(live, config, schema);
    // What this manager applied before, no longer applies, and nobody else owns goes.
    if (previous && !(*previous == applied.fields)) { // (the same configuration again: nothing goes)
        previous->minus(applied.fields).forEach([&](const Path &path) {
            const bool owned = std::any_of(entries.begin(), entries.end(), [&](const ManagerEntry &entry) {
                return !entry.sameIdentity(identity) && entry.fields.has(path);
            });
            if (!owned)
                removeAt(merged, path);
        });
    }

    const Changes changes = compareObjects(live, merged, schema);
    const FieldSet changed = changes.added.unionWith(changes.modified);
    for (const ManagerEntry &entry : entries) {
        if (entry.sameIdentity(identity))
            continue;
        entry.fields.intersect(changed).forEach([&](const Path &path) {
            result.conflicts.push_back(FieldConflict{describe(entry), path});
        });
    }
    if (!result.conflicts.empty() && !force) {
        result.object = live;
        result.entries = std::move(entries);
        return result;
    }
    // (Changes found settle it; else the fields no manager owns may still differ.)
    const bool objectChanged = !changed.empty() || !changes.removed.empty() || merged != live;
    if (!result.conflicts.empty()) { // forced: the others lose what this apply changed
        for (ManagerEntry &entry : entries) {
            if (!entry.sameIdentity(identity))
                entry.fields = entry.fields.minus(changed);
        }
    }
    result.conflicts.clear();
    ManagerEntry &mine = entryFor(entries, writer, "Apply");
    mine.apiVersion = writer.apiVersion;
    mine.fields = std::move(applied.fields);
    if (objectChanged)
        mine.time = writer.now;
    dropEmpty(entries);
    result.object = std::move(merged);
    result.entries = std::move(entries);
    return result;
}

std::vector<std::string> ownershipLines(const nlohmann::json &object, bool withTime)
{
    std::vector<std::string> lines;
    const auto entries = decodeManagedFields(model::memberAt(object, "metadata", "managedFields"));
    if (!entries)
        return lines;
    for (const ManagerEntry &entry : *entries) {
        std::string line = entry.manager + " (" + entry.operation;
        if (!entry.subresource.empty())
            line += ", /" + entry.subresource;
        line += "):";
        bool first = true;
        entry.fields.forEach([&](const Path &path) {
            line += first ? " " : ", ";
            line += pathText(path);
            first = false;
        });
        if (withTime && !entry.time.empty())
            line += "  at " + entry.time;
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<ManagerConflicts> parseConflictMessage(std::string_view message)
{
    std::vector<ManagerConflicts> parsed;
    constexpr std::string_view head = "Apply failed with ";
    if (!message.starts_with(head))
        return parsed;
    const std::size_t colon = message.find(": ");
    if (colon == std::string_view::npos)
        return parsed;
    std::string_view rest = message.substr(colon + 2);
    constexpr std::string_view one = "conflict with ";
    constexpr std::string_view many = "conflicts with ";
    if (rest.starts_with(one)) {
        // conflict with "alice": .data.owner (a path always starts with a dot)
        const std::size_t split = rest.find(": .");
        if (split == std::string_view::npos)
            return parsed;
        parsed.push_back({std::string(rest.substr(one.size(), split - one.size())), {std::string(rest.substr(split + 2))}});
        return parsed;
    }
    // conflicts with "alice":\n- .data.a\n- .data.b\nconflicts with "bob" using v1:\n- .c
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (line.starts_with(many) && line.ends_with(':'))
            parsed.push_back({std::string(line.substr(many.size(), line.size() - many.size() - 1)), {}});
        else if (line.starts_with("- ") && !parsed.empty())
            parsed.back().paths.emplace_back(line.substr(2));
        else
            return {};
    }
    return parsed;
}

model::Status conflictStatus(const std::vector<FieldConflict> &conflicts)
{
    model::Status status;
    status.code = 409;
    status.reason = "Conflict";
    std::map<std::string, std::vector<std::string>> byManager;
    for (const FieldConflict &conflict : conflicts) {
        byManager[conflict.manager].push_back(pathText(conflict.path));
        status.details.causes.push_back(
            model::StatusCause{"FieldManagerConflict", "conflict with " + conflict.manager, pathText(conflict.path)});
    }
    if (conflicts.size() == 1) {
        status.message = "Apply failed with 1 conflict: conflict with " + conflicts.front().manager + ": "
            + pathText(conflicts.front().path);
        return status;
    }
    status.message = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: ";
    bool first = true;
    for (auto &[manager, paths] : byManager) {
        std::sort(paths.begin(), paths.end());
        if (!first)
            status.message += '\n';
        first = false;
        status.message += "conflicts with " + manager + ":";
        for (const std::string &path : paths)
            status.message += "\n- " + path;
    }
    return status;
}

} // namespace rvscope::fields
