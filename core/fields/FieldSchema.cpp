// SPDX-License-Identifier: MIT
#include "fields/FieldSchema.h"

#include "patch/PatchSchema.h"

namespace rvscope::fields {
namespace {
bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool isMetadataPath(std::string_view path)
{
    return path.starts_with("metadata.") || path.find(".metadata.") != std::string_view::npos;
}

ListType mapKeyed(std::vector<std::string> keys, nlohmann::json defaults = nlohmann::json::object())
{
    ListType type;
    type.kind = ListType::Kind::Map;
    type.keys = std::move(keys);
    type.keyDefaults = std::move(defaults);
    return type;
}
} // namespace

FieldSchema FieldSchema::forKind(std::string kind, bool custom)
{
    FieldSchema schema;
    schema.m_deduced = custom || !patch::supportsStrategicMerge(kind);
    schema.m_kind = std::move(kind);
    return schema;
}

ListType FieldSchema::list(std::string_view path) const
{
    // ObjectMeta is typed in every object, custom resources included.
    if (endsWith(path, "metadata.finalizers") && isMetadataPath(path))
        return ListType{ListType::Kind::Set, {}, nlohmann::json::object()};
    if (endsWith(path, "metadata.ownerReferences") && isMetadataPath(path))
        return mapKeyed({"uid"});
    if (m_deduced)
        return {};
    // Where the SSA keys differ from the strategic-merge key: ports are keyed with protocol.
    if (endsWith(path, "containers.ports") || endsWith(path, "initContainers.ports")
        || endsWith(path, "ephemeralContainers.ports"))
        return mapKeyed({"containerPort", "protocol"}, {{"protocol", "TCP"}});
    if (m_kind == "Service" && path == "spec.ports")
        return mapKeyed({"port", "protocol"}, {{"protocol", "TCP"}});
    const auto meta = patch::findFieldPatchMeta(m_kind, path);
    if (!meta || !meta->mergeList)
        return {};
    if (meta->mergeKey.empty())
        return ListType{ListType::Kind::Set, {}, nlohmann::json::object()};
    return mapKeyed({std::string(meta->mergeKey)});
}

bool FieldSchema::atomic(std::string_view path) const
{
    // LabelSelector is an atomic struct, a Service's selector an atomic map.
    return !m_deduced && (path == "spec.selector" || endsWith(path, "labelSelector"));
}

} // namespace rvscope::fields
