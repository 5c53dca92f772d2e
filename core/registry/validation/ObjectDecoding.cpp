// SPDX-License-Identifier: MIT
#include "registry/validation/ObjectDecoding.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "model/JsonWrite.h"
#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"

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
    case Shape::List: return model::isJsonArray(value); // metadata.managedFields is kept raw
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
    {"ReplicaSet", "spec", "replicas", "ReplicaSetSpec.spec.replicas", Shape::Integer},
    {"ReplicaSet", "spec", "selector", "ReplicaSetSpec.spec.selector", Shape::Object},
    {"ReplicaSet", "spec", "template", "ReplicaSetSpec.spec.template", Shape::Object},
    {"StatefulSet", "spec", "replicas", "StatefulSetSpec.spec.replicas", Shape::Integer},
    {"StatefulSet", "spec", "selector", "StatefulSetSpec.spec.selector", Shape::Object},
    {"StatefulSet", "spec", "template", "StatefulSetSpec.spec.template", Shape::Object},
    {"DaemonSet", "spec", "selector", "DaemonSetSpec.spec.selector", Shape::Object},
    {"DaemonSet", "spec", "template", "DaemonSetSpec.spec.template", Shape::Object},
    {"ReplicationController", "spec", "replicas", "ReplicationControllerSpec.spec.replicas", Shape::Integer},
    {"ReplicationController", "spec", "selector", "ReplicationControllerSpec.spec.selector", Shape::StringMap},
    {"Job", "spec", "parallelism", "JobSpec.spec.parallelism", Shape::Integer},
    {"Job", "spec", "completions", "JobSpec.spec.completions", Shape::Integer},
    {"Job", "spec", "backoffLimit", "JobSpec.spec.backoffLimit", Shape::Integer},
    {"Job", "spec", "template", "JobSpec.spec.template", Shape::Object},
    {"CronJob", "spec", "schedule", "CronJobSpec.spec.schedule", Shape::String},
    {"CronJob", "spec", "jobTemplate", "CronJobSpec.spec.jobTemplate", Shape::Object},
    {"HorizontalPodAutoscaler", "spec", "minReplicas", "HorizontalPodAutoscalerSpec.spec.minReplicas", Shape::Integer},
    {"HorizontalPodAutoscaler", "spec", "maxReplicas", "HorizontalPodAutoscalerSpec.spec.maxReplicas", Shape::Integer},
    {"HorizontalPodAutoscaler", "spec", "targetCPUUtilizationPercentage",
     "HorizontalPodAutoscalerSpec.spec.targetCPUUtilizationPercentage", Shape::Integer},
    {"HorizontalPodAutoscaler", "spec", "metrics", "HorizontalPodAutoscalerSpec.spec.metrics", Shape::List},
    {"Role", "", "rules", "Role.rules", Shape::List},
    {"ClusterRole", "", "rules", "ClusterRole.rules", Shape::List},
    {"RoleBinding", "", "subjects", "RoleBinding.subjects", Shape::List},
    {"RoleBinding", "", "roleRef", "RoleBinding.roleRef", Shape::Object},
    {"ClusterRoleBinding", "", "subjects", "ClusterRoleBinding.subjects", Shape::List},
    {"ClusterRoleBinding", "", "roleRef", "ClusterRoleBinding.roleRef", Shape::Object},
    {"PriorityClass", "", "value", "PriorityClass.value", Shape::Integer},
    {"Pod", "spec", "containers", "PodSpec.spec.containers", Shape::List},
    {"ConfigMap", "", "data", "ConfigMap.data", Shape::StringMap},
    {"Secret", "", "data", "Secret.data", Shape::StringMap},
    {"Secret", "", "stringData", "Secret.stringData", Shape::StringMap},
};

// The first field whose JSON type the apiserver's typed decoding would refuse.
struct Mismatch {
    std::string structField; // as encoding/json names it: "ObjectMeta.metadata.labels"
    const nlohmann::json *value;
    Shape shape;
};

std::optional<Mismatch> findMismatch(const nlohmann::json &json, const std::string &kind)
{
    if (auto meta = json.find("metadata"); meta != json.end()) {
        if (!fits(*meta, Shape::Object))
            return Mismatch{kind + ".metadata", &*meta, Shape::Object};
        if (meta->is_object()) {
            for (const Field &field : METADATA_FIELDS) {
                auto value = meta->find(field.name);
                if (value != meta->end() && !fits(*value, field.shape))
                    return Mismatch{"ObjectMeta.metadata." + std::string(field.name), &*value, field.shape};
            }
        }
    }
    for (const char *section : {"spec", "status"}) {
        auto value = json.find(section);
        if (value != json.end() && !fits(*value, Shape::Object))
            return Mismatch{kind + '.' + section, &*value, Shape::Object};
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
            return Mismatch{std::string(field.goStruct), &*value, field.shape};
    }
    return std::nullopt;
}

std::string unmarshalError(const Mismatch &mismatch)
{
    return std::string("json: cannot unmarshal ") + jsonTypeName(*mismatch.value) + " into Go struct field "
        + mismatch.structField + " of type " + goType(mismatch.shape);
}

// reflect.Kind of the value the unstructured converter holds for a JSON value.
const char *unstructuredKind(const nlohmann::json &value)
{
    if (value.is_object())
        return "map";
    if (value.is_array())
        return "slice";
    if (value.is_string())
        return "string";
    if (value.is_boolean())
        return "bool";
    return value.is_number_float() ? "float64" : "int64";
}

// runtime.DefaultUnstructuredConverter.FromUnstructured's error for a value that does not
// fit (what a strategic merge patch result gets instead of encoding/json's message).
std::string restoreError(const nlohmann::json &value, Shape shape)
{
    const std::string kind = unstructuredKind(value);
    switch (shape) {
    case Shape::Object:
        return "cannot restore struct from: " + kind;
    case Shape::StringMap:
        if (!value.is_object())
            return "cannot restore map from " + kind;
        for (const auto &[key, item] : value.items()) {
            if (!item.is_string() && !item.is_null())
                return restoreError(item, Shape::String);
        }
        break;
    case Shape::List:
    case Shape::StringList:
        if (!value.is_array())
            return "cannot restore slice from " + kind;
        for (const auto &item : value) {
            if (!item.is_string())
                return restoreError(item, Shape::String);
        }
        break;
    case Shape::String:
        // Go converts an integer to a string type (and refuses it); nothing else converts.
        return value.is_number_integer() ? "cannot convert int64 to string" : "unrecognized type: string";
    case Shape::Integer:
        return value.is_number_float() ? "cannot convert float64 to int64" : "unrecognized type: int64";
    }
    return "unrecognized type: " + kind;
}

void appendGoFloat(std::string &out, double value)
{
    // fmt's %v: the shortest digits, in %e form when the exponent is < -4 or >= 21.
    char buffer[64];
    const auto scientific = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string_view text(buffer, std::size_t(scientific.ptr - buffer));
    const std::size_t e = text.find('e');
    const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
    if (exponent < -4 || exponent >= 21) {
        out.append(text.substr(0, e));
        out += exponent < 0 ? "e-" : "e+";
        const int magnitude = std::abs(exponent);
        if (magnitude < 10)
            out += '0';
        out += std::to_string(magnitude);
        return;
    }
    const auto fixed = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
    out.append(buffer, fixed.ptr);
}

// fmt's %+v of the map[string]interface{} a patch decodes to: map[a:1 b:map[c:x]], keys
// sorted, strings bare, slices [a b], null <nil>.
void appendGoValue(std::string &out, const nlohmann::json &value)
{
    if (value.is_object()) {
        out += "map[";
        bool first = true;
        for (const auto &[key, item] : value.items()) {
            if (!first)
                out += ' ';
            first = false;
            out += key;
            out += ':';
            appendGoValue(out, item);
        }
        out += ']';
    } else if (value.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (i > 0)
                out += ' ';
            appendGoValue(out, value[i]);
        }
        out += ']';
    } else if (value.is_string()) {
        out += value.get_ref<const std::string &>();
    } else if (value.is_null()) {
        out += "<nil>";
    } else if (value.is_number_float()) {
        appendGoFloat(out, value.get<double>());
    } else {
        out += value.dump();
    }
}
} // namespace

std::optional<model::Status> checkDecodable(const model::Object &object, const std::string &kind,
                                            const std::string &apiVersion)
{
    const nlohmann::json &json = object.json();
    const std::string prefix = kind + " in version \"" + apiVersion + "\" cannot be handled as a " + kind + ": ";
    if (!json.is_object())
        return model::errors::badRequest(prefix + "the object is not a JSON object");
    if (auto mismatch = findMismatch(json, kind))
        return model::errors::badRequest(prefix + unmarshalError(*mismatch));
    return std::nullopt;
}

std::optional<model::Status> checkPatchedDecodable(const nlohmann::json &patched, const std::string &kind,
                                                   patch::PatchType type, const nlohmann::json &patch)
{
    const auto mismatch = findMismatch(patched, kind);
    if (!mismatch)
        return std::nullopt;
    // patch.go answers NewInvalid(schema.GroupKind{}, "", field.Invalid("patch", ...)): the
    // strategic path converts the merged map to the typed object (the patch as %+v), the
    // JSON and merge paths decode the patched JSON.
    if (type == patch::PatchType::StrategicMergePatch || type == patch::PatchType::ApplyPatch) {
        std::string shown;
        appendGoValue(shown, patch);
        return model::errors::invalid("", "", {invalidField("patch", shown, restoreError(*mismatch->value, mismatch->shape))});
    }
    return model::errors::invalid("", "", {invalidField("patch", model::dumpJson(patched), unmarshalError(*mismatch))});
}

} // namespace rvscope::registry
