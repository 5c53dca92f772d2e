// SPDX-License-Identifier: MIT
// Store: delete and deletecollection, with preconditions and finalizers.
#include "registry/Store.h"

#include "model/StatusErrors.h"
#include "registry/ErrorTranslation.h"
#include "storage/Storage.h"

namespace rvscope::registry {

QCoro::Task<model::Result<DeleteResponse>> Store::remove(std::string ns, std::string name, DeleteOptions options)
{
    auto self = shared_from_this();
    if (auto invalid = invalidKeyName(name))
        co_return *invalid;
    const ResourceType &type = *m_type;
    const std::string key = type.key(ns, name);
    auto current = co_await type.storage->get(key);
    if (!current)
        co_return interpretGetError(std::move(current).error(), type.groupResource(), name);
    const ObjectPtr existing = current.value();
    if (auto failed = options.preconditions.check(key, *existing))
        co_return interpretDeleteError(std::move(*failed), type.groupResource(), name);

    const bool finalizing = !existing->finalizers().empty() || !existing->deletionTimestamp().empty();
    if (options.dryRun)
        co_return DeleteResponse{type.served(existing), !finalizing};
    if (finalizing)
        co_return co_await markForDeletion(key, name, options);

    auto removed = co_await type.storage->remove(key, options.preconditions);
    if (!removed)
        co_return interpretDeleteError(std::move(removed).error(), type.groupResource(), name);
    if (m_environment->afterDelete)
        m_environment->afterDelete(type.gvr.resource, *removed->object);
    co_return DeleteResponse{type.served(removed->object), true, removed->revision};
}

// Objects with finalizers are not removed: they get deletionTimestamp (once) and whoever
// owns the finalizers removes them, which deletes the object (Store::update).
QCoro::Task<model::Result<DeleteResponse>> Store::markForDeletion(std::string key, std::string name,
                                                                  DeleteOptions options)
{
    auto self = shared_from_this();
    const ResourceType &type = *m_type;
    const std::string now = m_environment->now();
    storage::TryUpdate mark = [now](ObjectPtr existing) -> QCoro::Task<model::Result<model::Object>> {
        model::Object next = *existing;
        if (next.deletionTimestamp().empty()) {
            next.setDeletionTimestamp(now);
            next.mutableJson()["metadata"]["deletionGracePeriodSeconds"] = 0;
        }
        co_return next;
    };
    auto updated = co_await type.storage->guaranteedUpdate(key, options.preconditions, mark);
    if (!updated)
        co_return interpretDeleteError(std::move(updated).error(), type.groupResource(), name);
    // Finalizers may have gone meanwhile: then the object goes now.
    if (updated->object->finalizers().empty()) {
        storage::Preconditions same;
        same.resourceVersion = updated->object->resourceVersion();
        auto removed = co_await type.storage->remove(key, same);
        if (removed) {
            if (m_environment->afterDelete)
                m_environment->afterDelete(type.gvr.resource, *removed->object);
            co_return DeleteResponse{type.served(removed->object), true, removed->revision};
        }
    }
    co_return DeleteResponse{type.served(updated->object), false};
}

QCoro::Task<model::Result<ListResponse>> Store::removeCollection(std::string ns, DeleteOptions options,
                                                                 ListOptions listOptions)
{
    auto self = shared_from_this();
    auto listed = co_await list(ns, listOptions);
    if (!listed)
        co_return std::move(listed).error();
    ListResponse response;
    response.revision = listed->revision;
    for (const ObjectPtr &item : listed->items) {
        DeleteOptions each;
        each.dryRun = options.dryRun;
        each.gracePeriodSeconds = options.gracePeriodSeconds;
        each.propagationPolicy = options.propagationPolicy;
        auto removed = co_await remove(item->namespaceName(), item->name(), each);
        // Objects deleted concurrently are simply gone; any other failure stops the sweep.
        if (!removed && removed.error().code != 404)
            co_return std::move(removed).error();
        if (removed)
            response.items.push_back(m_type->served(removed->object));
    }
    co_return response;
}

} // namespace rvscope::registry
