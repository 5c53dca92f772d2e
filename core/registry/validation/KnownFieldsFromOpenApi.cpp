// SPDX-License-Identifier: MIT
// KnownFields of a custom resource, read from its CRD's openAPIV3Schema.
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "registry/validation/KnownFields.h"
#include "registry/validation/KnownFieldsTables.h"

namespace rvscope::registry {
namespace {
using Ref = KnownFields::Ref;

// Copies `index` of the built-in tables, and what it refers to, into `to` (ObjectMeta for a
// custom resource's tables).
int copyType(const KnownFields::Tables &from, int index, KnownFields::Tables &to, std::map<int, int> &copied)
{
    if (auto it = copied.find(index); it != copied.end())
        return it->second;
    const int at = static_cast<int>(to.types.size());
    copied[index] = at;
    to.types.emplace_back();
    to.preserveUnknown.push_back(0);
    for (const auto &[name, ref] : from.types[static_cast<std::size_t>(index)]) {
        Ref local = ref;
        if (ref.terminal == Ref::Terminal::Struct)
            local.type = copyType(from, ref.type, to, copied);
        to.types[static_cast<std::size_t>(at)][name] = local;
    }
    return at;
}

bool flag(const nlohmann::json &schema, const char *name)
{
    auto it = schema.find(name);
    return it != schema.end() && it->is_boolean() && it->get<bool>();
}
} // namespace

std::shared_ptr<const KnownFields> KnownFields::fromOpenApi(const nlohmann::json &openApiV3Schema)
{
    if (!openApiV3Schema.is_object())
        return nullptr;
    const Tables &builtin = loadTables();
    auto tables = std::make_shared<Tables>();
    tables->custom = true;
    std::map<int, int> copied;
    // ObjectMeta, as a built-in kind's metadata field names it.
    const KnownFields &configMap = builtin.kinds.at("v1/ConfigMap");
    const int builtinObjectMeta = builtin.types[static_cast<std::size_t>(configMap.m_rootType)].at("metadata").type;
    const int objectMeta = copyType(builtin, builtinObjectMeta, *tables, copied);
    tables->objectMeta = objectMeta;
    // Each struct found is filled in turn (a worklist, not recursion: schemas nest deep).
    std::vector<std::pair<int, const nlohmann::json *>> pending;
    auto newStruct = [&tables, &pending](const nlohmann::json *schema, bool preserve) {
        const int index = static_cast<int>(tables->types.size());
        tables->types.emplace_back();
        // additionalProperties given as a boolean keeps every key too (structural pruning
        // sees a non-nil AdditionalProperties).
        auto additional = schema->find("additionalProperties");
        tables->preserveUnknown.push_back(preserve || flag(*schema, "x-kubernetes-preserve-unknown-fields")
                                          || (additional != schema->end() && additional->is_boolean()));
        pending.emplace_back(index, schema);
        return index;
    };
    auto refOf = [&newStruct](const nlohmann::json *schema) {
        Ref ref;
        bool preserveItems = false; // a list marked preserve-unknown-fields keeps its items' too
        while (true) {
            if (!schema->is_object()) {
                ref.terminal = Ref::Terminal::Any;
                return ref;
            }
            if (flag(*schema, "x-kubernetes-int-or-string"))
                return ref; // a scalar
            auto typeField = schema->find("type");
            const std::string type = typeField != schema->end() && typeField->is_string() ? typeField->get<std::string>()
                                                                                          : std::string();
            if (type == "array") {
                preserveItems = preserveItems || flag(*schema, "x-kubernetes-preserve-unknown-fields");
                auto items = schema->find("items");
                if (items == schema->end() || !items->is_object()) {
                    ref.terminal = Ref::Terminal::Any;
                    return ref;
                }
                ref.containers += '[';
                schema = &*items;
                continue;
            }
            const bool preserve = flag(*schema, "x-kubernetes-preserve-unknown-fields");
            auto additional = schema->find("additionalProperties");
            const bool embedded = flag(*schema, "x-kubernetes-embedded-resource");
            if (type == "object" || schema->contains("properties") || embedded) {
                if (!schema->contains("properties") && !embedded && additional != schema->end()
                    && additional->is_object()) {
                    ref.containers += '{';
                    schema = &*additional;
                    continue;
                }
                if (!schema->contains("properties") && !embedded
                    && (preserve || (additional != schema->end() && *additional == true))) {
                    ref.terminal = Ref::Terminal::Any;
                    return ref;
                }
                ref.terminal = Ref::Terminal::Struct;
                ref.type = newStruct(schema, preserveItems);
                return ref;
            }
            if (type.empty())
                ref.terminal = Ref::Terminal::Any; // no type: nothing to prune by
            return ref;
        }
    };
    const int root = newStruct(&openApiV3Schema, false);
    while (!pending.empty()) {
        const auto [index, schema] = pending.back();
        pending.pop_back();
        std::map<std::string, Ref, std::less<>> fields;
        if (auto properties = schema->find("properties"); properties != schema->end() && properties->is_object()) {
            for (auto it = properties->begin(); it != properties->end(); ++it)
                fields[it.key()] = refOf(&it.value());
        }
        if (index == root || flag(*schema, "x-kubernetes-embedded-resource")) {
            fields["apiVersion"] = Ref{};
            fields["kind"] = Ref{};
            fields["metadata"] = Ref{"", Ref::Terminal::Struct, objectMeta};
        }
        tables->types[static_cast<std::size_t>(index)] = std::move(fields);
    }
    for (std::size_t i = 0; i < tables->types.size(); ++i)
        tables->structs.push_back(Ref{"", Ref::Terminal::Struct, static_cast<int>(i)});
    const Tables *raw = tables.get();
    return std::make_shared<const KnownFields>(raw, root, std::move(tables));
}

} // namespace rvscope::registry
