// SPDX-License-Identifier: MIT
#include "registry/validation/ObjectDecoding.h"

#include <string_view>

#include "model/StatusErrors.h"

namespace rvscope::registry {
namespace {
enum class Shape { String, StringMap, StringList, Integer, Object, List };

const char *goType(Shape shape)
{
    switch (shape) {
    case Shape::String: return "string";
    case Shape::StringMap: return "map[string]string";
    case Shape::StringList: return "[]string";
    case Shape::Integer: return "int64";
    case Shape::Object: return "struct";
    case Shape::List: return "slice";
    }
    return "value";
}

// encoding/json's name for the JSON value that did not fit.
const char *jsonTypeName(const nlohmann::json &value)
{
    if (value.is_string())
        return "string";
    if (value.is_boolean())
        return "bool";
    if (value.is_number())
        return "number";
    if (value.is_array())
        return "array";
    return "object";
}

bool fits(const nlohmann::json &value, Shape shape)
{
    if (value.is_null())
        return true; // null is the zero value in Go
    switch (shape) {
    case Shape::String: return value.is_string();
    case Shape::Integer: return value.is_number_integer();
    case Shape::Object: return value.is_object();
    case Shape::List: return value.is_array();
    case Shape::StringMap:
        if (!value.is_object())
            return false;
        for (const auto &[key, item] : value.items()) {
            if (!item.is_string() && !item.is_null())
                return false;
        }
        return true;
    case Shape::StringList:
        if (!value.is_array())
            return false;
        for (const auto &item : value) {
            if (!item.is_string())
                return false;
        }
        return true;
    }
    return false;
}

// string_view keys: the lookups below run on every write, and a const char * key costs a
// strlen per comparison.
struct Field {
    std::string_view name;
    Shape shape;
};

const Field METADATA_FIELDS[] = {
    {"name", Shape::String},           {"generateName", Shape::String},      {"namespace", Shape::String},
    {"uid", Shape::String},            {"resourceVersion", Shape::String},   {"generation", Shape::Integer},
    {"creationTimestamp", Shape::String}, {"deletionTimestamp", Shape::String},
    {"deletionGracePeriodSeconds", Shape::Integer}, {"labels", Shape::StringMap},
    {"annotations", Shape::StringMap}, {"finalizers", Shape::StringList}, {"ownerReferences", Shape::List},
    {"managedFields", Shape::List},
};

// Typed fields of particular kinds whose wrong type would otherwise be stored (a string
// replica count scales nothing and breaks every client that reads it back).
struct KindField {
    std::string_view kind;
    std::string_view section;
    std::string_view field;
    const char *goStruct;
    Shape shape;
};

const KindField KIND_FIELDS[] = {
    {"Deployment", "spec", "replicas", "DeploymentSpec.spec.replicas", Shape::Integer},
    {"Deployment", "spec", "selector", "DeploymentSpec.spec.selector", Shape::Object},
    {"Deployment", "spec", "template", "DeploymentSpec.spec.template", Shape::Object},
    {"Scale", "spec", "replicas", "ScaleSpec.spec.replicas", Shape::Integer},
    {"Pod", "spec", "containers", "PodSpec.spec.containers", Shape::List},
    {"ConfigMap", "", "data", "ConfigMap.data", Shape::StringMap},
    {"Secret", "", "data", "Secret.data", Shape::StringMap},
    {"Secret", "", "stringData", "Secret.stringData", Shape::StringMap},
};
} // namespace

std::optional<model::Status> checkDecodable(const model::Object &object, const std::string &kind,
                                            const std::string &apiVersion)
{
    const nlohmann::json &json = object.json();
    auto refuse = [&](const std::string &structField, const nlohmann::json &value, Shape shape) {
        return model::errors::badRequest(kind + " in version \"" + apiVersion + "\" cannot be handled as a " + kind
                                         + ": json: cannot unmarshal " + jsonTypeName(value) + " into Go struct field "
                                         + structField + " of type " + goType(shape));
    };
    if (!json.is_object())
        return model::errors::badRequest(kind + " in version \"" + apiVersion + "\" cannot be handled as a " + kind
                                         + ": the object is not a JSON object");
    if (auto meta = json.find("metadata"); meta != json.end()) {
        if (!fits(*meta, Shape::Object))
            return refuse(kind + ".metadata", *meta, Shape::Object);
        if (meta->is_object()) {
            for (const Field &field : METADATA_FIELDS) {
                auto value = meta->find(field.name);
                if (value != meta->end() && !fits(*value, field.shape))
                    return refuse("ObjectMeta.metadata." + std::string(field.name), *value, field.shape);
            }
        }
    }
    for (const char *section : {"spec", "status"}) {
        auto value = json.find(section);
        if (value != json.end() && !fits(*value, Shape::Object))
            return refuse(kind + '.' + section, *value, Shape::Object);
    }
    for (const KindField &field : KIND_FIELDS) {
        if (kind != field.kind)
            continue;
        const nlohmann::json *holder = &json;
        if (!field.section.empty()) {
            auto section = json.find(field.section);
            if (section == json.end() || !section->is_object())
                continue;
            holder = &*section;
        }
        auto value = holder->find(field.field);
        if (value != holder->end() && !fits(*value, field.shape))
            return refuse(field.goStruct, *value, field.shape);
    }
    return std::nullopt;
}

} // namespace rvscope::registry
