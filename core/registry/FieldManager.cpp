// SPDX-License-Identifier: MIT
#include "registry/FieldManager.h"

#include <algorithm>

#include "fields/ManagedFields.h"
#include "fields/ObjectFields.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"
#include "model/StatusErrors.h"
#include "registry/ResourceType.h"

namespace rvscope::registry {
namespace {
const nlohmann::json &managedFieldsOf(const nlohmann::json &object)
{
    static const nlohmann::json none;
    auto metadata = object.find("metadata");
    if (metadata == object.end() || !metadata->is_object())
        return none;
    auto managed = metadata->find("managedFields");
    return managed == metadata->end() ? none : *managed;
}

// The entries of a stored object's list (none when it has none or they do not decode),
// remembered per thread for the last raw text: an object applied again and again keeps the
// same text, so it is parsed once. The reference lasts until the next call on the thread.
const std::vector<fields::ManagerEntry> &storedEntries(const model::Object *object)
{
    static const std::vector<fields::ManagerEntry> none;
    if (!object)
        return none;
    thread_local std::string text; // the raw text `entries` were decoded from; "" for none
    thread_local std::vector<fields::ManagerEntry> entries;
    const nlohmann::json &list = managedFieldsOf(object->json());
    const std::string_view raw = model::isRawJson(list) ? model::rawJsonText(list) : std::string_view();
    if (raw.empty() || raw != text) {
        text.clear(); // (no stale pairing if the decode throws)
        entries = fields::decodeManagedFields(list).value_or(std::vector<fields::ManagerEntry>());
        text.assign(raw);
    }
    return entries;
}

bool sameEntries(const std::vector<fields::ManagerEntry> &a, const std::vector<fields::ManagerEntry> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto &x, const auto &y) {
        return x.manager == y.manager && x.operation == y.operation && x.apiVersion == y.apiVersion
            && x.time == y.time && x.subresource == y.subresource && x.fields == y.fields;
    });
}

void store(model::Object &object, const std::vector<fields::ManagerEntry> &entries)
{
    nlohmann::json &metadata = object.mutableJson()["metadata"];
    if (entries.empty())
        metadata.erase("managedFields");
    else
        metadata["managedFields"] = fields::encodeManagedFieldsRaw(entries);
}

// A managedFields list as a tree: itself, or the tree of a raw list (model::parseObjectJson
// keeps stored objects' lists raw) parsed into `scratch` (null when it does not parse).
const nlohmann::json &treeOf(const nlohmann::json &list, nlohmann::json &scratch)
{
    if (!model::isRawJson(list))
        return list;
    scratch = model::parseManagedFieldsJson(model::rawJsonText(list)).value_or(nlohmann::json());
    return scratch;
}

// The same for a stored list, remembered per thread for the last text: a hot object's list
// stays the same text write after write, so its entries are parsed once.
const nlohmann::json &storedTreeOf(const nlohmann::json &list)
{
    if (!model::isRawJson(list))
        return list;
    thread_local std::string text;
    thread_local nlohmann::json tree;
    const std::string_view raw = model::rawJsonText(list);
    if (raw != text) {
        text.clear(); // (no stale pairing if the parse throws)
        treeOf(list, tree);
        text.assign(raw);
    }
    return tree;
}

bool sameRawText(const nlohmann::json &a, const nlohmann::json &b)
{
    return model::isRawJson(a) && model::isRawJson(b) && model::rawJsonText(a) == model::rawJsonText(b);
}
} // namespace

FieldManager::FieldManager(const ResourceType &type, std::string subresource)
    : m_schema(type.custom && type.openApiSchema.is_object()
                   ? fields::FieldSchema::fromOpenApi(type.kind, type.openApiSchema)
                   : fields::FieldSchema::forKind(type.kind, type.custom))
    , m_apiVersion(type.storageApiVersion())
    , m_subresource(std::move(subresource))
{
}

namespace {
bool isReset(const nlohmann::json &sent)
{
    return sent.is_array() && (sent.empty() || (sent.size() == 1 && sent[0] == nlohmann::json::object()));
}

// Whether `entry`'s string `field` is `expected` (absent counts as empty), without a copy.
bool fieldIs(const nlohmann::json &entry, const char *field, std::string_view expected)
{
    const nlohmann::json &value = model::member(entry, field);
    return value.is_string() ? value.get_ref<const std::string &>() == expected : expected.empty();
}

// The index of `writer`'s Update entry in an encoded list, or -1.
int writerEntry(const nlohmann::json &list, const fields::Writer &writer)
{
    for (std::size_t i = 0; i < list.size(); ++i) {
        const nlohmann::json &entry = list[i];
        if (fieldIs(entry, "operation", "Update") && fieldIs(entry, "manager", writer.manager)
            && fieldIs(entry, "apiVersion", writer.apiVersion) && fieldIs(entry, "subresource", writer.subresource))
            return int(i);
    }
    return -1;
}

// The common write, read in place: nothing removed, and what changed is the writer's already,
// no one else's, within the second its entry was stamped. Then the list stays as it is.
bool unchangedOwnership(const nlohmann::json &list, const fields::Changes &changes, const fields::Writer &writer)
{
    if (!list.is_array() || !changes.removed.empty())
        return false;
    if (changes.added.empty() && changes.modified.empty())
        return true;
    const int mine = writerEntry(list, writer);
    if (mine < 0 || !fieldIs(list[std::size_t(mine)], "time", writer.now))
        return false;
    bool unchanged = true;
    const auto check = [&](const fields::Path &path) {
        for (std::size_t i = 0; i < list.size() && unchanged; ++i) {
            const bool owns = fields::FieldSet::encodedHas(model::member(list[i], "fieldsV1"), path);
            unchanged = int(i) == mine ? owns : !owns;
        }
    };
    changes.added.forEach(check);
    changes.modified.forEach(check);
    return unchanged;
}
} // namespace

void FieldManager::recordUpdate(const model::Object *before, model::Object &after, const std::string &manager,
                                const std::string &now) const
{
    // The entries this write starts from: on the main resource, what the client sent counts
    // (valid entries replace the stored ones, `[]` or `[{}]` reset them); else the stored ones.
    static const nlohmann::json nothing;
    // (Both branches lvalues: `before ? before->json() : json()` would copy the whole object.)
    const nlohmann::json &previous = before ? before->json() : nothing;
    const nlohmann::json &storedNode = managedFieldsOf(previous);
    const nlohmann::json &sentNode = managedFieldsOf(after.json());
    // Usually the client's copy is the stored list (a PATCH carries it, a read-modify-write
    // PUT sends it back): the same text, compared once and read as the stored tree.
    const bool sameText = sameRawText(sentNode, storedNode);
    const nlohmann::json &stored = storedTreeOf(storedNode);
    nlohmann::json sentScratch;
    const nlohmann::json &sent = sameText ? stored : treeOf(sentNode, sentScratch);
    if (m_subresource.empty() && isReset(sent)) {
        store(after, {}); // untracked until an apply, and this write records nothing
        return;
    }
    const bool carried = sameText || sent == stored;
    std::optional<std::vector<fields::ManagerEntry>> fromClient;
    if (m_subresource.empty() && sent.is_array() && !carried)
        fromClient = fields::decodeManagedFields(sent);
    const nlohmann::json &base = fromClient ? sent : stored;
    if (before && !(base.is_array() && !base.empty())) {
        store(after, {}); // an update of an untracked object records nothing
        return;
    }
    const fields::Changes changes = fields::compareObjects(previous, after.json(), m_schema);
    const fields::Writer writer{manager, m_apiVersion, m_subresource, now};
    if (before && unchangedOwnership(base, changes, writer)) {
        if (fromClient)
            store(after, *fromClient); // what the client sent, in the stored form
        else if (!sameText)
            after.mutableJson()["metadata"]["managedFields"] = storedNode; // a PUT without them, a subresource
        return;
    }
    std::vector<fields::ManagerEntry> entries;
    if (fromClient)
        entries = std::move(*fromClient);
    else
        entries = fields::decodeManagedFields(stored).value_or(std::vector<fields::ManagerEntry>());
    store(after, fields::recordUpdate(std::move(entries), changes, !before, writer));
}

model::Result<model::Object> FieldManager::apply(const model::Object *live, const nlohmann::json &config,
                                                 const std::string &manager, bool force, const std::string &now) const
{
    if (auto metadata = config.find("metadata"); metadata != config.end() && !metadata->is_null()
                                                  && !metadata->is_object()) {
        // The apiserver's typed conversion of the configuration fails, and its error, no
        // Status, is answered as a 500 without a reason (apierrors.ErrorToAPIStatus), like
        // its "field not declared in schema".
        model::Status status;
        status.code = 500;
        status.message = typedPatchObjectFailure(config) + ".metadata: expected map";
        return status;
    }
    if (!managedFieldsOf(config).is_null())
        return model::errors::badRequest("metadata.managedFields must be nil");
    // The live object as it is: the merge and the comparisons pass over its managedFields
    // (store() below replaces them), so no copy without them is needed.
    static const nlohmann::json none = nlohmann::json::object();
    const nlohmann::json &current = live ? live->json() : none;
    const std::vector<fields::ManagerEntry> &stored = storedEntries(live);
    fields::ApplyResult result = fields::apply(current, config, stored,
                                               fields::Writer{manager, m_apiVersion, m_subresource, now}, force,
                                               m_schema);
    if (!result.error.empty())
        return model::errors::badRequest(result.error);
    if (!result.conflicts.empty())
        return fields::conflictStatus(result.conflicts);
    model::Object merged(std::move(result.object));
    // The merge keeps the live list (an applied configuration has none): when ownership
    // did not change, as on most applies of the same configuration, it stays as it is.
    const bool kept = live && !stored.empty() && sameEntries(result.entries, stored)
        && sameRawText(managedFieldsOf(merged.json()), managedFieldsOf(live->json()));
    if (!kept)
        store(merged, result.entries);
    return merged;
}

std::string typedPatchObjectFailure(const nlohmann::json &config)
{
    const auto text = [](const nlohmann::json &object, const char *key) {
        const nlohmann::json &value = model::member(object, key);
        return value.is_string() ? value.get<std::string>() : std::string();
    };
    const nlohmann::json &metadata = model::member(config, "metadata");
    std::string apiVersion = text(config, "apiVersion");
    if (apiVersion.find('/') == std::string::npos)
        apiVersion.insert(0, "/");
    return "failed to create typed patch object (" + text(metadata, "namespace") + '/' + text(metadata, "name") + "; "
        + apiVersion + ", Kind=" + text(config, "kind") + "): ";
}

std::string managerFromUserAgent(const std::string &userAgent)
{
    std::string name;
    for (char c : userAgent) {
        if (c == '/')
            break;
        if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)
            name += c;
    }
    if (name.size() > 128)
        name.resize(128);
    return name.empty() ? "unknown" : name;
}

} // namespace rvscope::registry
