// SPDX-License-Identifier: MIT
#include "registry/UpdatedObjectInfo.h"

#include <chrono>

#include <qcoro/qcorotimer.h>

#include "model/GoJson.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"
#include "model/YamlParse.h"
#include "model/StatusErrors.h"
#include "patch/JsonPatch.h"
#include "patch/MergePatch.h"
#include "patch/StrategicMergePatch.h"
#include "registry/FieldManager.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/ObjectDecoding.h"
#include "registry/ResourceType.h"

namespace rvscope::registry {

PutObjectInfo::PutObjectInfo(model::Object object)
    : m_object(std::move(object))
{
}

storage::Preconditions PutObjectInfo::preconditions() const
{
    storage::Preconditions preconditions;
    if (const std::string uid = m_object.uid(); !uid.empty())
        preconditions.uid = uid;
    return preconditions;
}

QCoro::Task<model::Result<model::Object>> PutObjectInfo::updatedObject(model::ObjectPtr) const
{
    co_return model::Object(m_object); // a copy: QCoro moves from a co_returned lvalue
}

PatchObjectInfo::PatchObjectInfo(patch::PatchType type, nlohmann::json patch, std::string kind,
                                 FieldDecoding decoding, std::vector<std::string> patchErrors)
    : m_type(type)
    , m_patch(std::move(patch))
    , m_kind(std::move(kind))
    , m_decoding(decoding)
    , m_patchErrors(std::move(patchErrors))
{
}

namespace {
bool touchesManagedFields(const nlohmann::json &jsonPatch)
{
    if (!jsonPatch.is_array())
        return false;
    for (const nlohmann::json &operation : jsonPatch) {
        for (const char *field : {"path", "from"}) {
            const nlohmann::json &pointer = model::member(operation, field);
            if (pointer.is_string() && pointer.get_ref<const std::string &>().find("/managedFields") != std::string::npos)
                return true;
        }
    }
    return false;
}

// structured-merge-diff's "field not declared in schema", one error or a list of them, as
// the apiserver answers it (500, no reason: a plain error).
model::Status undeclaredInApply(const nlohmann::json &config, const std::vector<std::string> &paths)
{
    std::string message = typedPatchObjectFailure(config);
    if (paths.size() > 1)
        message += "errors:";
    const std::size_t listed = std::min(paths.size(), model::errors::MAX_LISTED_FIELD_ERRORS);
    for (std::size_t i = 0; i < listed; ++i) {
        if (paths.size() > 1)
            message += "\n  ";
        message += '.' + paths[i] + ": field not declared in schema";
    }
    model::Status status;
    status.code = 500;
    status.message = std::move(message);
    return status;
}

bool hasUnknownOperationMember(const nlohmann::json &jsonPatch)
{
    if (!jsonPatch.is_array())
        return false;
    for (const nlohmann::json &operation : jsonPatch) {
        if (!operation.is_object())
            continue;
        for (auto it = operation.begin(); it != operation.end(); ++it) {
            const std::string &name = it.key();
            if (name != "op" && name != "path" && name != "from" && name != "value")
                return true;
        }
    }
    return false;
}
} // namespace

model::Result<nlohmann::json> PatchObjectInfo::patchedJson(const nlohmann::json &original) const
{
    switch (m_type) {
    case patch::PatchType::JsonPatch:
        if (touchesManagedFields(m_patch)) {
            // Its operations address inside fieldsV1, which objects keep raw: expand them.
            nlohmann::json expanded = original;
            model::expandRawJson(expanded);
            return patch::applyJsonPatch(expanded, m_patch);
        }
        return patch::applyJsonPatch(original, m_patch);
    case patch::PatchType::MergePatch:
        return patch::applyMergePatchToObject(original, m_patch);
    case patch::PatchType::StrategicMergePatch:
    case patch::PatchType::ApplyPatch:
        // The Store merges an apply by ownership (applyConfiguration); only a caller outside
        // it gets here, and gets the merge without ownership.
        return patch::applyStrategicMergePatch(original, m_patch, m_kind);
    }
    return model::errors::badRequest("unsupported patch type");
}

QCoro::Task<model::Result<model::Object>> PatchObjectInfo::updatedObject(model::ObjectPtr existing) const
{
    // A patch to a missing object is a 404 (the Store asks only types that allow
    // create-on-update, where the patch applies to an empty object).
    static const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json &original = existing ? existing->json() : empty;
    m_warnings.clear();
    model::Result<nlohmann::json> patched = patchedJson(original);
    // The result is decoded into the kind's struct: undeclared fields are dropped, and named
    // (in Go's map order, as the patched map is encoded) after the patch's own errors.
    std::vector<std::string> removed;
    if (patched && patched->is_object() && m_decoding.known) {
        removed = m_decoding.known->prune(*patched);
        if (!removed.empty() && existing) {
            // Undeclared fields already stored (written before rvscope knew the kind's
            // fields, or restored) are dropped silently, as decoding the stored object drops
            // them upstream: the patch applies to the object without them.
            nlohmann::json declared = original;
            if (!m_decoding.known->prune(declared).empty()) {
                patched = patchedJson(declared);
                if (patched && patched->is_object())
                    removed = m_decoding.known->prune(*patched);
            }
        }
    }
    if (!patched)
        co_return std::move(patched).error();
    if (!patched->is_object())
        co_return model::errors::badRequest("the patched object is not a JSON object");
    if (auto undecodable = checkPatchedDecodable(*patched, m_kind, m_type, m_patch))
        co_return *undecodable;
    if (m_decoding.known && m_decoding.validation != FieldValidation::Ignore) {
        std::vector<std::string> errors = m_patchErrors;
        for (const std::string &path : removed) {
            if (errors.size() < MAX_STRICT_ERRORS)
                errors.push_back("unknown field " + goQuote(path));
        }
        if (m_decoding.validation == FieldValidation::Strict && !errors.empty())
            co_return model::errors::badRequest(strictDecodingMessage(errors));
        m_warnings = std::move(errors);
    }
    co_return model::Object(std::move(patched).value());
}

model::Result<std::shared_ptr<const UpdatedObjectInfo>> makePatchInfo(const ResourceType &type,
                                                                      std::string_view contentType,
                                                                      std::string_view body)
{
    return makePatchInfo(type.kind, type.strategy->supportsStrategicMerge(), contentType, body);
}

model::Result<std::shared_ptr<const UpdatedObjectInfo>> makePatchInfo(std::string kind, bool strategicMerge,
                                                                      std::string_view contentType,
                                                                      std::string_view body, FieldDecoding decoding)
{
    auto patchType = patch::patchTypeForRequest(contentType, strategicMerge);
    if (!patchType)
        return std::move(patchType).error();
    bool duplicateKeys = false;
    std::optional<nlohmann::json> parsed = model::parseJson(body, &duplicateKeys);
    if (!parsed && *patchType == patch::PatchType::ApplyPatch) {
        // YAML (JSON is YAML too: kubectl sends JSON, people send YAML).
        auto yaml = model::parseYaml(body);
        if (auto *error = std::get_if<std::string>(&yaml))
            return model::errors::badRequest("error decoding YAML: " + *error);
        parsed = std::move(std::get<nlohmann::json>(yaml));
    }
    if (parsed && *patchType == patch::PatchType::ApplyPatch && !parsed->is_object())
        return model::errors::badRequest("error decoding YAML: the configuration is not an object");
    if (!parsed) {
        // patch.go: a merge patch fails in jsonpatch.MergePatch, the others in Go's decoder.
        if (*patchType == patch::PatchType::MergePatch)
            return model::errors::badRequest("Invalid JSON Patch");
        return model::errors::badRequest(model::goJsonSyntaxError(body));
    }
    // An applied configuration is converted to the kind's typed value whatever fieldValidation
    // says, and in 1.32 a field the kind does not declare fails that with a 500 (reference
    // server-side-apply §4.1; structured-merge-diff names each field, its lists by index here).
    if (decoding.known && *patchType == patch::PatchType::ApplyPatch) {
        nlohmann::json pruned = *parsed;
        if (const std::vector<std::string> removed = decoding.known->prune(pruned); !removed.empty())
            return undeclaredInApply(*parsed, removed);
    }
    // The patch's own text, decoded strictly (into a map; a JSON patch into its operations).
    std::vector<std::string> patchErrors;
    if (decoding.known && decoding.validation != FieldValidation::Ignore) {
        if (*patchType == patch::PatchType::JsonPatch && (duplicateKeys || hasUnknownOperationMember(*parsed)))
            patchErrors = jsonPatchFieldErrors(body);
        else if (*patchType != patch::PatchType::ApplyPatch && duplicateKeys)
            patchErrors = duplicateFields(body);
    }
    return std::shared_ptr<const UpdatedObjectInfo>(std::make_shared<PatchObjectInfo>(
        *patchType, std::move(*parsed), std::move(kind), decoding, std::move(patchErrors)));
}

DelayedObjectInfo::DelayedObjectInfo(std::shared_ptr<const UpdatedObjectInfo> inner, int delayMs)
    : m_inner(std::move(inner))
    , m_delayMs(delayMs)
{
}

QCoro::Task<model::Result<model::Object>> DelayedObjectInfo::updatedObject(model::ObjectPtr existing) const
{
    // Hold the inner info across the wait: the caller's reference may be all there is.
    std::shared_ptr<const UpdatedObjectInfo> inner = m_inner;
    co_await QCoro::sleepFor(std::chrono::milliseconds(m_delayMs));
    co_return co_await inner->updatedObject(std::move(existing));
}

} // namespace rvscope::registry
