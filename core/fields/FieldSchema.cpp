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
std::string joined(const std::string &path, const std::string &name)
{
    return path.empty() ? name : path + '.' + name;
}
} // namespace

FieldSchema FieldSchema::forKind(std::string kind, bool custom)
{
    FieldSchema schema;
    schema.m_deduced = custom || !patch::supportsStrategicMerge(kind);
    schema.m_kind = std::move(kind);
    return schema;
}

FieldSchema FieldSchema::fromOpenApi(std::string kind, const nlohmann::json &openApiV3Schema)
{
    FieldSchema schema = forKind(std::move(kind), true);
    auto markers = std::make_shared<Markers>();
    // Fields by dotted path; an array's items are reached through the array's own name.
    // ObjectMeta is typed anyway, and a map's values (additionalProperties) have no path.
    std::vector<std::pair<const nlohmann::json *, std::string>> pending{{&openApiV3Schema, std::string()}};
    while (!pending.empty()) {
        auto [node, path] = pending.back();
        pending.pop_back();
        if (!node->is_object() || path == "metadata")
            continue;
        const std::string listType = node->value("x-kubernetes-list-type", "");
        if (listType == "set") {
            markers->lists[path] = ListType{ListType::Kind::Set, {}, nlohmann::json::object()};
        } else if (listType == "map") {
            ListType type{ListType::Kind::Map, {}, nlohmann::json::object()};
            const nlohmann::json items = node->value("items", nlohmann::json::object());
            const nlohmann::json properties = items.is_object() ? items.value("properties", nlohmann::json::object())
                                                                : nlohmann::json::object();
            for (const nlohmann::json &key : node->value("x-kubernetes-list-map-keys", nlohmann::json::array())) {
                if (!key.is_string())
                    continue;
                const std::string name = key.get<std::string>();
                type.keys.push_back(name);
                if (auto field = properties.find(name); field != properties.end() && field->is_object()
                    && field->contains("default"))
                    type.keyDefaults[name] = (*field)["default"];
            }
            if (!type.keys.empty())
                markers->lists[path] = std::move(type);
        }
        if (node->value("x-kubernetes-map-type", "") == "atomic" && !path.empty())
            markers->atomicMaps.insert(path);
        if (auto properties = node->find("properties"); properties != node->end() && properties->is_object()) {
            for (auto it = properties->begin(); it != properties->end(); ++it)
                pending.emplace_back(&it.value(), joined(path, it.key()));
        }
        if (auto items = node->find("items"); items != node->end())
            pending.emplace_back(&*items, path);
    }
    schema.m_markers = std::move(markers);
    return schema;
}

namespace {
// Built-in kinds: metav1.LabelSelector is an atomic struct wherever it appears (selector,
// podSelector, namespaceSelector, labelSelector, ...), and the plain selector maps (a
// Service's, a ReplicationController's, a pod's nodeSelector) are +mapType=atomic.
bool selectorName(std::string_view name)
{
    return name == "selector" || name.ends_with("Selector");
}
} // namespace

bool FieldSchema::mayBeAtomic(std::string_view name) const
{
    return (m_markers && !m_markers->atomicMaps.empty()) || selectorName(name);
}

ListType FieldSchema::list(std::string_view path) const
{
    // ObjectMeta is typed in every object, custom resources included.
    if (endsWith(path, "metadata.finalizers") && isMetadataPath(path))
        return ListType{ListType::Kind::Set, {}, nlohmann::json::object()};
    if (endsWith(path, "metadata.ownerReferences") && isMetadataPath(path))
        return mapKeyed({"uid"});
    if (m_markers) {
        auto it = m_markers->lists.find(path);
        return it == m_markers->lists.end() ? ListType{} : it->second;
    }
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
    if (m_markers)
        return m_markers->atomicMaps.contains(path);
    if (m_deduced)
        return false;
    const std::size_t dot = path.rfind('.');
    return selectorName(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

} // namespace rvscope::fields
