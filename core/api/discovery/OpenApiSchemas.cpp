// SPDX-License-Identifier: MIT
#include "api/discovery/OpenApiSchemas_p.h"

#include <cctype>
#include <vector>

namespace rvscope::api::openapi {
namespace {

std::vector<std::string> labels(const std::string &group)
{
    std::vector<std::string> result;
    std::size_t start = 0;
    while (start <= group.size()) {
        const std::size_t dot = group.find('.', start);
        result.push_back(group.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return result;
}

nlohmann::json gvkList(const model::GroupVersionKind &kind)
{
    // Schemas carry a list of kinds (upstream: one per version an object is served as);
    // operations carry a single one (see OpenApi.cpp).
    return nlohmann::json::array({{{"group", kind.group}, {"version", kind.version}, {"kind", kind.kind}}});
}

nlohmann::json typed(const char *type, const char *description)
{
    return {{"type", type}, {"description", description}};
}

nlohmann::json stringMap(const char *description)
{
    return {{"type", "object"},
            {"additionalProperties", {{"type", "string"}, {"default", ""}}},
            {"description", description}};
}

nlohmann::json looseObjectArray(const char *description)
{
    return {{"type", "array"},
            {"items", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}},
            {"description", description}};
}

nlohmann::json typeMetaProperties()
{
    return {
        {"apiVersion", typed("string", "APIVersion defines the versioned schema of this representation of an object.")},
        {"kind", typed("string", "Kind is a string value representing the REST resource this object represents.")},
    };
}

nlohmann::json objectMetaSchema()
{
    nlohmann::json properties = {
        {"name", typed("string", "Name must be unique within a namespace.")},
        {"generateName", typed("string", "An optional prefix the server uses to generate a unique name.")},
        {"namespace", typed("string", "The namespace of a namespaced object; empty for cluster-scoped ones.")},
        {"uid", typed("string", "The unique id of this object in time and space, set by the server.")},
        {"resourceVersion", typed("string", "An opaque value identifying the object's internal version, for "
                                            "optimistic concurrency and watches.")},
        {"generation",
         {{"type", "integer"},
          {"format", "int64"},
          {"description", "A sequence number representing a specific generation of the desired state."}}},
        {"creationTimestamp",
         {{"type", "string"},
          {"format", "date-time"},
          {"description", "When this object was created, set by the server."}}},
        {"deletionTimestamp",
         {{"type", "string"},
          {"format", "date-time"},
          {"description", "When this object will be deleted, set by the server."}}},
        {"deletionGracePeriodSeconds",
         {{"type", "integer"}, {"format", "int64"}, {"description", "Seconds allowed for graceful termination."}}},
        {"labels", stringMap("Map of string keys and values that can be used to organize and select objects.")},
        {"annotations", stringMap("Unstructured key value map stored with a resource.")},
        {"finalizers",
         {{"type", "array"},
          {"items", {{"type", "string"}, {"default", ""}}},
          {"description", "Must be empty before the object is deleted from the registry."},
          {"x-kubernetes-list-type", "set"},
          {"x-kubernetes-patch-strategy", "merge"}}},
        {"ownerReferences", looseObjectArray("Objects depended on by this object.")},
        {"managedFields", looseObjectArray("Which field managers own which fields.")},
    };
    return {{"type", "object"},
            {"description", "ObjectMeta is metadata that all persisted resources must have."},
            {"properties", std::move(properties)}};
}

nlohmann::json looseObject(const char *description)
{
    return {{"type", "object"}, {"description", description}, {"x-kubernetes-preserve-unknown-fields", true}};
}

} // namespace

std::string schemaName(const model::GroupVersionKind &kind, bool custom)
{
    const std::string tail = '.' + kind.version + '.' + kind.kind;
    if (custom) {
        const std::vector<std::string> parts = labels(kind.group);
        std::string reversed;
        for (auto it = parts.rbegin(); it != parts.rend(); ++it)
            reversed += (reversed.empty() ? "" : ".") + *it;
        return reversed + tail;
    }
    if (kind.group == "apiextensions.k8s.io")
        return "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions" + tail;
    if (kind.group.empty())
        return "io.k8s.api.core" + tail;
    // "apps" -> apps, "coordination.k8s.io" -> coordination, "rbac.authorization.k8s.io" -> rbac.
    return "io.k8s.api." + labels(kind.group).front() + tail;
}

nlohmann::json schemaRef(const std::string &name)
{
    return {{"$ref", "#/components/schemas/" + name}};
}

nlohmann::json kindSchema(const model::GroupVersionKind &kind)
{
    nlohmann::json properties = typeMetaProperties();
    // allOf around the $ref, as upstream writes it, so that the description is kept.
    properties["metadata"] = {{"description", "Standard object's metadata."},
                              {"default", nlohmann::json::object()},
                              {"allOf", {schemaRef(OBJECT_META)}}};
    return {
        {"type", "object"},
        {"description", kind.kind + " (rvscope describes metadata only; other fields are accepted as sent and "
                                    "validated by the server)."},
        {"properties", std::move(properties)},
        {"x-kubernetes-preserve-unknown-fields", true},
        {"x-kubernetes-group-version-kind", gvkList(kind)},
    };
}

nlohmann::json listSchema(const model::GroupVersionKind &listKind, const std::string &itemSchema)
{
    nlohmann::json properties = typeMetaProperties();
    properties["metadata"] = {{"description", "Standard list metadata."},
                              {"default", nlohmann::json::object()},
                              {"allOf", {schemaRef(LIST_META)}}};
    properties["items"] = {{"type", "array"},
                           {"description", "The list of objects."},
                           {"items", {{"default", nlohmann::json::object()}, {"allOf", {schemaRef(itemSchema)}}}}};
    return {
        {"type", "object"},
        {"description", listKind.kind + " is a list of objects."},
        {"required", {"items"}},
        {"properties", std::move(properties)},
        {"x-kubernetes-group-version-kind", gvkList(listKind)},
    };
}

void addMetaSchemas(nlohmann::json &schemas)
{
    schemas[OBJECT_META] = objectMetaSchema();
    schemas[LIST_META] = {
        {"type", "object"},
        {"description", "ListMeta describes metadata that synthetic resources must have."},
        {"properties",
         {{"resourceVersion", typed("string", "The resourceVersion the list is consistent with.")},
          {"continue", typed("string", "Set when more results are available; pass it back to get them.")},
          {"remainingItemCount",
           {{"type", "integer"}, {"format", "int64"}, {"description", "The number of items left after this page."}}}}},
    };
    nlohmann::json status = looseObject("Status is the return value for calls that don't return other objects.");
    status["properties"] = typeMetaProperties();
    status["x-kubernetes-group-version-kind"] = gvkList({"", "v1", "Status"});
    schemas[STATUS] = std::move(status);
    schemas[PATCH] = {{"type", "object"},
                      {"description", "Patch is provided to give a concrete name and type to the Kubernetes "
                                      "PATCH request body."}};
    schemas[DELETE_OPTIONS] = looseObject("DeleteOptions may be provided when deleting an API object.");
}

std::string operationGroupVersion(const std::string &group, const std::string &version)
{
    std::string name = group.empty() ? std::string("core") : group;
    const std::string k8sSuffix = ".k8s.io";
    if (name.size() > k8sSuffix.size() && name.ends_with(k8sSuffix))
        name.resize(name.size() - k8sSuffix.size());
    std::string result;
    for (const std::string &part : labels(name)) {
        std::string word;
        for (char c : part) {
            if (c != '-')
                word += c;
        }
        if (!word.empty())
            word[0] = char(std::toupper(static_cast<unsigned char>(word[0])));
        result += word;
    }
    std::string versionWord = version;
    if (!versionWord.empty())
        versionWord[0] = char(std::toupper(static_cast<unsigned char>(versionWord[0])));
    return result + versionWord;
}

} // namespace rvscope::api::openapi
