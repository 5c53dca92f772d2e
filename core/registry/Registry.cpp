// SPDX-License-Identifier: MIT
#include "registry/Registry.h"

#include <QtCore/QDateTime>
#include <QtCore/QUuid>

#include "model/StatusErrors.h"
#include "registry/CustomResources.h"
#include "registry/ScaleStore.h"
#include "storage/Storage.h"
#include "watch/WatchHub.h"

namespace rvscope::registry {
namespace {
const model::GroupVersionResource NAMESPACES = {"", "v1", "namespaces"};
const model::GroupVersionResource &CRDS = CUSTOM_RESOURCE_DEFINITIONS;

std::string utcNow()
{
    // Every write stamps managedFields with it: formatted once per second, not per call.
    thread_local std::int64_t second = -1;
    thread_local std::string text;
    const std::int64_t now = QDateTime::currentSecsSinceEpoch();
    if (now != second) {
        second = now;
        text = QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate).toStdString();
    }
    return text;
}

std::string randomUid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
}
// Every storage's watches go through a fan-out hub (DESIGN "Watch fan-out"), which the
// registry composes in front of each series' storage.
std::map<std::string, std::shared_ptr<watch::WatchHub>>
watchHubs(std::map<std::string, std::shared_ptr<storage::Storage>> storages)
{
    std::map<std::string, std::shared_ptr<watch::WatchHub>> hubs;
    for (auto &[series, storage] : storages)
        hubs.emplace(series, std::make_shared<watch::WatchHub>(std::move(storage)));
    return hubs;
}
} // namespace

Registry::Registry(std::shared_ptr<storage::Storage> storage)
    : Registry(std::move(storage), Options{})
{
}

Registry::Registry(std::shared_ptr<storage::Storage> storage, Options options)
    : m_storage(std::make_shared<watch::WatchHub>(std::move(storage)))
    , m_separateStorage(watchHubs(std::move(options.separateStorage)))
    , m_environment(std::make_shared<StoreEnvironment>())
    , m_self(std::make_shared<Registry *>(this))
{
    m_environment->now = options.now ? options.now : utcNow;
    m_environment->newUid = options.newUid ? options.newUid : randomUid;
    if (options.seed != 0)
        m_environment->random.seed(options.seed);
    // Stores outlive nothing here, but coroutines in flight may hold the environment after
    // the registry is gone: the hooks check.
    std::weak_ptr<Registry *> self = m_self;
    m_environment->admitNamespace = [self](std::string ns, model::GroupResource resource,
                                           std::string name) -> QCoro::Task<std::optional<model::Status>> {
        auto registry = self.lock();
        if (!registry)
            co_return model::Status::internalError("the registry is shutting down");
        co_return co_await (*registry)->admitNamespace(std::move(ns), std::move(resource), std::move(name));
    };
    m_environment->afterCreate = [self](const std::string &resource, const model::Object &object) {
        if (auto registry = self.lock())
            (*registry)->handleCreated(resource, object);
    };
    m_environment->afterDelete = [self](const std::string &resource, const model::Object &object) {
        if (auto registry = self.lock())
            (*registry)->handleDeleted(resource, object);
    };
    registerBuiltins();
}

Registry::~Registry()
{
    *m_self = nullptr;
    m_self.reset();
}

std::pair<std::shared_ptr<watch::WatchHub>, std::string> Registry::storageFor(const model::GroupResource &resource) const
{
    auto separate = m_separateStorage.find(resource.toString());
    if (separate != m_separateStorage.end())
        return {separate->second, separate->first};
    return {m_storage, MAIN_SERIES};
}

watch::WatchHubStats Registry::watchStats() const
{
    watch::WatchHubStats total;
    auto add = [&total](const watch::WatchHub &hub) {
        const watch::WatchHubStats stats = hub.stats();
        total.upstreams += stats.upstreams;
        total.sharedWatchers += stats.sharedWatchers;
        total.directWatchers += stats.directWatchers;
    };
    add(*m_storage);
    for (const auto &[series, hub] : m_separateStorage)
        add(*hub);
    return total;
}

std::map<std::string, std::shared_ptr<storage::Storage>> Registry::revisionSeries() const
{
    std::map<std::string, std::shared_ptr<storage::Storage>> series(m_separateStorage.begin(), m_separateStorage.end());
    series.emplace(MAIN_SERIES, m_storage);
    return series;
}

void Registry::add(std::shared_ptr<ResourceType> type)
{
    // Every type's objects live in its series' hub; each type is one root of it.
    auto [hub, series] = storageFor(type->groupResource());
    hub->addRoot(type->storagePrefix + '/');
    type->storage = std::move(hub);
    type->revisionSeries = std::move(series);
    auto entry = std::make_shared<Entry>();
    entry->type = type;
    entry->store = std::make_shared<Store>(type, type->strategy, m_environment);
    if (type->hasStatus && type->statusStrategy)
        entry->status = std::make_shared<Store>(type, type->statusStrategy, m_environment, "status");
    if (type->hasScale)
        // Its own Store of the same objects, so that managedFields record /scale writes
        // under their subresource, as upstream does.
        entry->scale = std::make_shared<ScaleStore>(std::make_shared<Store>(type, type->strategy, m_environment, "scale"));
    m_entries[{type->gvr.group, type->gvr.version, type->gvr.resource}] = std::move(entry);
    ++m_typesGeneration;
    if (m_typesChanged)
        m_typesChanged();
}

void Registry::removeType(const model::GroupVersionResource &gvr)
{
    if (m_entries.erase({gvr.group, gvr.version, gvr.resource}) == 0)
        return;
    ++m_typesGeneration;
    if (m_typesChanged)
        m_typesChanged();
}

std::shared_ptr<ObjectStore> Registry::Entry::objectStore(std::string_view subresource) const
{
    if (subresource.empty())
        return store;
    if (subresource == "status")
        return status;
    if (subresource == "scale")
        return scale;
    return nullptr;
}

std::shared_ptr<const Registry::Entry> Registry::find(std::string_view group, std::string_view version,
                                                      std::string_view resource) const
{
    auto it = m_entries.find(std::tuple<std::string_view, std::string_view, std::string_view>(group, version, resource));
    return it == m_entries.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const ResourceType>> Registry::types() const
{
    std::vector<std::shared_ptr<const ResourceType>> result;
    result.reserve(m_entries.size());
    for (const auto &[key, entry] : m_entries)
        result.push_back(entry->type);
    return result;
}

QCoro::Task<model::VoidResult> Registry::bootstrap()
{
    std::shared_ptr<Store> namespaces = find(NAMESPACES)->store;
    for (const char *name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
        model::Object ns(nlohmann::json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
        auto created = co_await namespaces->create(std::string(), std::move(ns), WriteOptions());
        if (!created && created.error().code != 409)
            co_return std::move(created).error();
    }
    // A restored store (a data directory, an etcd) may hold CustomResourceDefinitions: serve
    // their types again, as the apiserver does when it starts, and follow them from here on.
    co_return co_await followDefinitions();
}

QCoro::Task<std::optional<model::Status>> Registry::admitNamespace(std::string ns, model::GroupResource resource,
                                                                   std::string name)
{
    std::shared_ptr<Store> namespaces = find(NAMESPACES)->store;
    auto found = co_await namespaces->get(std::string(), ns);
    if (!found)
        co_return model::errors::notFound({"", "namespaces"}, ns);
    if (!found.value()->deletionTimestamp().empty()) {
        co_return model::errors::forbiddenBecause(resource, name, "unable to create new content in namespace " + ns
                                                                      + " because it is being terminated");
    }
    co_return std::nullopt;
}

void Registry::handleCreated(const std::string &resource, const model::Object &object)
{
    // At once, before the create's reply (the watch in followDefinitions sees it later and
    // finds the definition served already).
    if (resource == CRDS.resource)
        applyDefinition(object);
}

void Registry::handleDeleted(const std::string &resource, const model::Object &object)
{
    if (resource == CRDS.resource) {
        const auto types = customResourceTypes(object);
        forgetDefinition(object.name());
        if (!types.empty())
            removeCustomObjects(storageFor(types.front()->groupResource()).first, types.front()->storagePrefix + '/');
        return;
    }
    if (!object.namespaceName().empty())
        finalizeNamespaceIfEmpty(object.namespaceName());
}

QCoro::Task<> Registry::removeCustomObjects(std::shared_ptr<storage::Storage> storage, std::string prefix)
{
    // The custom resources of a deleted CRD go with it (upstream: the CRD finalizer).
    auto listed = co_await storage->list(prefix, storage::ListOptions());
    if (!listed)
        co_return;
    for (const auto &item : listed->items) {
        const std::string ns = item->namespaceName();
        const std::string key = prefix + (ns.empty() ? item->name() : ns + '/' + item->name());
        co_await storage->remove(key, storage::Preconditions());
    }
}

QCoro::Task<model::Result<DeleteResponse>> Registry::remove(std::shared_ptr<const Entry> entry, std::string ns,
                                                            std::string name, DeleteOptions options)
{
    if (entry->type->gvr == NAMESPACES)
        co_return co_await removeNamespace(std::move(name), std::move(options));
    std::shared_ptr<Store> store = entry->store;
    co_return co_await store->remove(std::move(ns), std::move(name), std::move(options));
}

QCoro::Task<model::Result<DeleteResponse>> Registry::removeNamespace(std::string name, DeleteOptions options)
{
    std::shared_ptr<Store> namespaces = find(NAMESPACES)->store;
    auto existing = co_await namespaces->get(std::string(), name);
    if (!existing)
        co_return std::move(existing).error();
    // The apiserver's NamespaceLifecycle admission keeps the system namespaces (a dry run too).
    if (name == "default" || name == "kube-system" || name == "kube-public")
        co_return model::errors::forbiddenBecause(NAMESPACES.groupResource(), name, "this namespace may not be deleted");
    if (options.dryRun)
        co_return DeleteResponse{existing.value(), false};

    // Terminating first, so that nothing new lands while the contents go.
    const std::string now = m_environment->now();
    storage::TryUpdate terminate = [now](ObjectPtr current) -> QCoro::Task<model::Result<model::Object>> {
        model::Object next = *current;
        if (next.deletionTimestamp().empty())
            next.setDeletionTimestamp(now);
        next.mutableJson()["status"]["phase"] = "Terminating";
        co_return next;
    };
    const ResourceType &nsType = namespaces->type();
    auto marked = co_await nsType.storage->guaranteedUpdate(nsType.key(std::string(), name), options.preconditions,
                                                            terminate);
    if (!marked) {
        model::Status error = std::move(marked).error();
        if (error.storageCode == model::StorageCode::InvalidObj)
            co_return model::errors::conflict(nsType.groupResource(), name, error.message);
        co_return error;
    }
    std::vector<std::shared_ptr<Store>> stores;
    for (const auto &[key, entry] : m_entries) {
        if (entry->type->namespaced())
            stores.push_back(entry->store);
    }
    for (const auto &store : stores)
        co_await store->removeCollection(name, DeleteOptions(), ListOptions());
    co_await finalizeNamespaceIfEmpty(name);
    auto after = co_await namespaces->get(std::string(), name);
    if (after)
        co_return DeleteResponse{after.value(), false};
    co_return DeleteResponse{marked->object, true};
}

QCoro::Task<> Registry::finalizeNamespaceIfEmpty(std::string ns)
{
    const std::shared_ptr<const Entry> nsEntry = find(NAMESPACES);
    auto current = co_await nsEntry->store->get(std::string(), ns);
    if (!current || current.value()->deletionTimestamp().empty())
        co_return;
    std::vector<std::shared_ptr<const ResourceType>> namespacedTypes;
    for (const auto &[key, entry] : m_entries) {
        if (entry->type->namespaced())
            namespacedTypes.push_back(entry->type);
    }
    for (const auto &type : namespacedTypes) {
        storage::ListOptions one;
        one.limit = 1;
        auto listed = co_await type->storage->list(type->prefix(ns), one);
        if (listed && !listed->items.empty())
            co_return;
    }
    const ResourceType &nsType = *nsEntry->type;
    co_await nsType.storage->remove(nsType.key(std::string(), ns), storage::Preconditions());
}

} // namespace rvscope::registry
