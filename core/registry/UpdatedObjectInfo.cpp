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

PatchObjectInfo::PatchObjectInfo(patch::PatchType type, nlohmann::json patch, std::string kind)
    : m_type(type)
    , m_patch(std::move(patch))
    , m_kind(std::move(kind))
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
} // namespace

QCoro::Task<model::Result<model::Object>> PatchObjectInfo::updatedObject(model::ObjectPtr existing) const
{
    // A patch to a missing object is a 404 (the Store asks only types that allow
    // create-on-update, where the patch applies to an empty object).
    static const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json &original = existing ? existing->json() : empty;
    model::Result<nlohmann::json> patched = model::errors::badRequest("unsupported patch type");
    switch (m_type) {
    case patch::PatchType::JsonPatch:
        if (touchesManagedFields(m_patch)) {
            // Its operations address inside fieldsV1, which objects keep raw: expand them.
            nlohmann::json expanded = original;
            model::expandRawJson(expanded);
            patched = patch::applyJsonPatch(expanded, m_patch);
        } else {
            patched = patch::applyJsonPatch(original, m_patch);
        }
        break;
    case patch::PatchType::MergePatch:
        patched = patch::applyMergePatchToObject(original, m_patch);
        break;
    case patch::PatchType::StrategicMergePatch:
        patched = patch::applyStrategicMergePatch(original, m_patch, m_kind);
        break;
    case patch::PatchType::ApplyPatch:
        // The Store merges an apply by ownership (applyConfiguration); only a caller outside
        // it gets here, and gets the merge without ownership.
        patched = patch::applyStrategicMergePatch(original, m_patch, m_kind);
        break;
    }
    if (!patched)
        co_return std::move(patched).error();
    if (!patched->is_object())
        co_return model::errors::badRequest("the patched object is not a JSON object");
    if (auto undecodable = checkPatchedDecodable(*patched, m_kind, m_type, m_patch))
        co_return *undecodable;
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
                                                                      std::string_view body)
{
    auto patchType = patch::patchTypeForRequest(contentType, strategicMerge);
    if (!patchType)
        return std::move(patchType).error();
    std::optional<nlohmann::json> parsed = model::parseJson(body);
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
    return std::shared_ptr<const UpdatedObjectInfo>(
        std::make_shared<PatchObjectInfo>(*patchType, std::move(*parsed), std::move(kind)));
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
