// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <qcoro/qcorotask.h>

#include "model/Object.h"
#include "model/Result.h"
#include "patch/PatchType.h"
#include "registry/validation/KnownFields.h"
#include "storage/StorageTypes.h"

namespace rvscope::registry {

// What an update wants, as a function of the current object (k8s rest.UpdatedObjectInfo).
// PUT brings a whole object that ignores `existing`; PATCH brings a transformer that applies
// the patch to `existing`. Both then take the same path through Store::update, which is
// why a PATCH without a resourceVersion never conflicts and one with a stale resourceVersion
// does. Called inside the storage's compare-and-swap loop, possibly more than once.
class UpdatedObjectInfo {
public:
    virtual ~UpdatedObjectInfo() = default;

    // Storage preconditions implied by the request (a PUT body's metadata.uid).
    virtual storage::Preconditions preconditions() const { return {}; }
    // The desired object. `existing` is null when the object is missing and the type allows
    // create-on-update.
    virtual QCoro::Task<model::Result<model::Object>> updatedObject(model::ObjectPtr existing) const = 0;
    // The object updatedObject() returns a copy of whatever `existing` is (a PUT), else null:
    // the store can refuse a stale resourceVersion before copying it.
    virtual const model::Object *unchangedObject() const { return nullptr; }
    // A server-side apply's configuration (the Store merges it by ownership instead of
    // calling updatedObject), else null.
    virtual const nlohmann::json *applyConfiguration() const { return nullptr; }
    // What the last updatedObject() found to warn about (unknown and duplicate fields under
    // fieldValidation=Warn), for the response's Warning headers.
    virtual std::vector<std::string> warnings() const { return {}; }
};

// How a PATCH's result is decoded: the kind's declared fields (null: keep everything) and
// what unknown and duplicate fields get (KnownFields.h).
struct FieldDecoding final {
    const KnownFields *known = nullptr;
    FieldValidation validation = FieldValidation::Warn;
};

// PUT: the client's object, unchanged whatever is stored.
class PutObjectInfo final : public UpdatedObjectInfo {
public:
    explicit PutObjectInfo(model::Object object);
    storage::Preconditions preconditions() const override;
    QCoro::Task<model::Result<model::Object>> updatedObject(model::ObjectPtr existing) const override;
    const model::Object *unchangedObject() const override { return &m_object; }

private:
    model::Object m_object;
};

// PATCH: applies a JSON, merge or strategic merge patch to the current object. `kind`
// selects the strategic-merge schema. The patched object keeps the current
// resourceVersion unless the patch sets (or nulls) it.
class PatchObjectInfo final : public UpdatedObjectInfo {
public:
    // `patchErrors`: what strict decoding found in the patch's own text (repeated keys,
    // a JSON patch operation's unknown members), reported before the result's.
    PatchObjectInfo(patch::PatchType type, nlohmann::json patch, std::string kind, FieldDecoding decoding = {},
                    std::vector<std::string> patchErrors = {});
    QCoro::Task<model::Result<model::Object>> updatedObject(model::ObjectPtr existing) const override;
    const nlohmann::json *applyConfiguration() const override
    {
        return m_type == patch::PatchType::ApplyPatch ? &m_patch : nullptr;
    }
    std::vector<std::string> warnings() const override { return m_warnings; }

private:
    model::Result<nlohmann::json> patchedJson(const nlohmann::json &original) const;

    patch::PatchType m_type;
    nlohmann::json m_patch;
    std::string m_kind;
    FieldDecoding m_decoding;
    std::vector<std::string> m_patchErrors;
    mutable std::vector<std::string> m_warnings; // the last attempt's (core thread only)
};

struct ResourceType;

// The UpdatedObjectInfo of a PATCH request to `type`: 415 UnsupportedMediaType for a
// content type that is not a patch type (or strategic merge on a custom resource), 400 for
// a body that is not JSON. A server-side apply (application/apply-patch+yaml) body is JSON
// or YAML (400 "error decoding YAML: ..."); the Store merges it by field ownership.
model::Result<std::shared_ptr<const UpdatedObjectInfo>> makePatchInfo(const ResourceType &type,
                                                                      std::string_view contentType,
                                                                      std::string_view body);
// The same for an object of `kind` (a subresource's "Scale"), with strategic merge allowed or not.
model::Result<std::shared_ptr<const UpdatedObjectInfo>> makePatchInfo(std::string kind, bool strategicMerge,
                                                                      std::string_view contentType,
                                                                      std::string_view body,
                                                                      FieldDecoding decoding = {});

// The lab's server-side processing delay (admission/webhook latency) wrapped around any
// update: awaited inside the compare-and-swap loop, so that concurrent writers visibly
// retry in storage (DESIGN "Storage contract").
class DelayedObjectInfo final : public UpdatedObjectInfo {
public:
    DelayedObjectInfo(std::shared_ptr<const UpdatedObjectInfo> inner, int delayMs);
    storage::Preconditions preconditions() const override { return m_inner->preconditions(); }
    QCoro::Task<model::Result<model::Object>> updatedObject(model::ObjectPtr existing) const override;
    const nlohmann::json *applyConfiguration() const override { return m_inner->applyConfiguration(); }
    std::vector<std::string> warnings() const override { return m_inner->warnings(); }

private:
    std::shared_ptr<const UpdatedObjectInfo> m_inner;
    int m_delayMs;
};

} // namespace rvscope::registry
