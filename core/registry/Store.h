// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "registry/FieldManager.h"
#include "registry/ListOptions.h"
#include "registry/ObjectStore.h"
#include "registry/ResourceType.h"
#include "registry/StoreTypes.h"
#include "registry/UpdatedObjectInfo.h"
#include "storage/WatchHandle.h"

namespace rvscope::registry {

// The generic registry store of one resource type (or one subresource such as /status):
// the apiserver's genericregistry.Store. Per-type behaviour comes from the Strategy; this
// class owns the flow, and Store::update is the one place a 409 Conflict is decided:
//   1. read the current object (404 unless the type allows create-on-update);
//   2. newObj = info.updatedObject(current);
//   3. empty resourceVersion: unconditional update if the strategy allows it, else 422;
//      resourceVersion != current: 409 "the object has been modified; ...";
//   4. strategy: keep uid/creationTimestamp, bump generation, validate (422);
//   5. storage guaranteedUpdate commits; its internal CAS retries are not 409s.
// Steps 1-4 run inside guaranteedUpdate's tryUpdate, so they are redone on fresh data when
// a concurrent commit wins the compare-and-swap.
//
// Core thread only. Coroutines keep the Store alive while they run.
class Store final : public ObjectStore, public std::enable_shared_from_this<Store> {
public:
    // `subresource`: the endpoint this store serves ("status"), as managedFields record it.
    Store(std::shared_ptr<const ResourceType> type, std::shared_ptr<const Strategy> strategy,
          std::shared_ptr<StoreEnvironment> environment, std::string subresource = {});

    const ResourceType &type() const { return *m_type; }
    std::string kind() const override { return m_type->kind; }
    std::string apiVersion() const override { return m_type->apiVersion(); }
    const KnownFields *knownFields() const override
    {
        return m_type->custom ? m_type->customFields.get() : ObjectStore::knownFields();
    }
    bool supportsStrategicMerge() const override { return m_strategy->supportsStrategicMerge(); }
    // Whether DELETE of the collection is served (not for namespaces, which go one by one).
    bool allowsDeleteCollection() const { return m_strategy->allowDeleteCollection(); }

    // Creates `object` in `ns` (ignored for cluster-scoped types): fills name (from
    // generateName), uid, creationTimestamp, generation; 409 AlreadyExists, 422 Invalid,
    // 400 for a namespace mismatch, 404/403 when the namespace cannot take objects.
    QCoro::Task<model::Result<ObjectPtr>> create(std::string ns, model::Object object, WriteOptions options);
    QCoro::Task<model::Result<ObjectPtr>> get(std::string ns, std::string name) override;
    // Lists with selectors, pagination and the resourceVersion semantics of the wire
    // contract §6.3 (latest, not-older-than, exact; 410 when too old, 504 when too new).
    QCoro::Task<model::Result<ListResponse>> list(std::string ns, ListOptions options);
    QCoro::Task<model::Result<UpdateResponse>> update(std::string ns, std::string name,
                                                      std::shared_ptr<const UpdatedObjectInfo> info,
                                                      WriteOptions options) override;
    // Deletes honouring preconditions; objects with finalizers get deletionTimestamp and
    // stay until an update removes the last finalizer.
    QCoro::Task<model::Result<DeleteResponse>> remove(std::string ns, std::string name, DeleteOptions options);
    QCoro::Task<model::Result<ListResponse>> removeCollection(std::string ns, DeleteOptions options,
                                                              ListOptions listOptions);
    // Watches `ns` (all namespaces when empty): resourceVersion unset or "0" starts with a
    // synthetic ADDED per matching object; "N" streams every change after N. Objects that
    // start or stop matching the selectors arrive as ADDED / DELETED. With
    // sendInitialEvents, the initial ADDED events end with a BOOKMARK annotated
    // k8s.io/initial-events-end. 410/504 come back as errors before any event.
    QCoro::Task<model::Result<storage::WatchHandle>> watch(std::string ns, ListOptions options, WatchSink sink);

private:
    struct Selection;
    model::Result<std::shared_ptr<const Selection>> selection(const std::string &ns, const ListOptions &options) const;
    std::optional<model::Status> prepareCreate(const std::string &ns, model::Object &object);
    // The checks of prepareUpdate that only read `object`, in its order (400 undecodable or
    // mismatched name/namespace, 422 no resourceVersion where one is required, 409 stale).
    std::optional<model::Status> checkUpdate(const std::string &ns, const std::string &name,
                                             const model::Object &object, const model::ObjectPtr &existing) const;
    // `checked`: checkUpdate already passed on this very object (a PUT's, before its copy).
    model::Result<model::Object> prepareUpdate(const std::string &ns, const std::string &name, model::Object object,
                                               const model::ObjectPtr &existing, bool checked) const;
    QCoro::Task<model::Result<DeleteResponse>> markForDeletion(std::string key, std::string name,
                                                               DeleteOptions options);

    std::shared_ptr<const ResourceType> m_type;
    std::shared_ptr<const Strategy> m_strategy;
    std::shared_ptr<StoreEnvironment> m_environment;
    FieldManager m_fields;
};

} // namespace rvscope::registry
