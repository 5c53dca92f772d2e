// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <qcoro/qcorotask.h>

#include "registry/ResourceType.h"
#include "registry/Store.h"
#include "storage/WatchHandle.h"
#include "watch/WatchHub.h"

namespace rvscope::registry {

class ScaleStore;

// Every served resource type and its stores: the built-in types, plus the custom resources
// that CustomResourceDefinitions add at runtime. Owns namespace lifecycle (objects need an
// existing, non-terminating namespace; deleting a namespace deletes its objects).
//
// Core thread only. Start a fresh one with bootstrap(), which creates the namespaces a new
// apiserver has (default, kube-system, kube-public) and nothing else.
class Registry final {
public:
    struct Options {
        // Overridable for deterministic tests and scenarios.
        std::function<std::string()> now;    // RFC 3339 UTC, seconds
        std::function<std::string()> newUid; // UUIDs
        unsigned seed = 0;                   // generateName randomness; 0 = random
        // Types kept apart from the rest, each in its own storage and so its own revision
        // series, keyed by group resource ("events", "leases.coordination.k8s.io"), as
        // kube-apiserver's --etcd-servers-overrides puts types on other etcd clusters. The
        // key names the series (ResourceType::revisionSeries); every other type is "main".
        std::map<std::string, std::shared_ptr<storage::Storage>> separateStorage;
    };

    // A served type and its stores. Shared and immutable: a request holds its entry while
    // it runs, even when a CustomResourceDefinition's deletion unserves the type meanwhile.
    struct Entry {
        std::shared_ptr<const ResourceType> type;
        std::shared_ptr<Store> store;
        std::shared_ptr<Store> status; // null without a /status subresource
        std::shared_ptr<ScaleStore> scale; // null without a /scale subresource

        // What GET/PUT/PATCH of one object at `subresource` address: "" the resource's
        // store, "status", "scale"; null for a subresource the type does not have.
        std::shared_ptr<ObjectStore> objectStore(std::string_view subresource) const;
    };

    explicit Registry(std::shared_ptr<storage::Storage> storage);
    Registry(std::shared_ptr<storage::Storage> storage, Options options);
    ~Registry();
    Registry(const Registry &) = delete;
    Registry &operator=(const Registry &) = delete;

    QCoro::Task<model::VoidResult> bootstrap();

    // The entry serving group/version/resource, or null (no copy of the names is made:
    // every request looks its type up).
    std::shared_ptr<const Entry> find(std::string_view group, std::string_view version, std::string_view resource) const;
    std::shared_ptr<const Entry> find(const model::GroupVersionResource &gvr) const
    {
        return find(gvr.group, gvr.version, gvr.resource);
    }
    // Every revision series and the storage holding it: "main" and each separate one. The
    // registry wraps each storage given to it in a watch::WatchHub (watch fan-out).
    std::map<std::string, std::shared_ptr<storage::Storage>> revisionSeries() const;
    // The fan-out of every series' watches: upstream storage watches and their watchers.
    watch::WatchHubStats watchStats() const;
    // Every served type, in a stable order (group, version, resource).
    std::vector<std::shared_ptr<const ResourceType>> types() const;
    // Increases whenever a type is added or removed (discovery caches key on it).
    std::uint64_t typesGeneration() const { return m_typesGeneration; }
    void setTypesChangedCallback(std::function<void()> callback) { m_typesChanged = std::move(callback); }

    // DELETE of one object of `entry`'s type: the store's delete, except for a namespace,
    // whose lifecycle is the registry's (removeNamespace).
    QCoro::Task<model::Result<DeleteResponse>> remove(std::shared_ptr<const Entry> entry, std::string ns,
                                                      std::string name, DeleteOptions options);
    // DELETE of a namespace: marks it Terminating, deletes its objects, and removes it once
    // it is empty (objects with finalizers keep it Terminating until they go).
    QCoro::Task<model::Result<DeleteResponse>> removeNamespace(std::string name, DeleteOptions options);

private:
    void add(std::shared_ptr<ResourceType> type);
    void removeType(const model::GroupVersionResource &gvr);
    void registerBuiltins();
    void handleCreated(const std::string &resource, const model::Object &object);
    void handleDeleted(const std::string &resource, const model::Object &object);
    QCoro::Task<std::optional<model::Status>> admitNamespace(std::string ns, model::GroupResource resource,
                                                             std::string name);
    QCoro::Task<> finalizeNamespaceIfEmpty(std::string ns);
    // Custom resource types follow the CustomResourceDefinitions in storage, whoever wrote
    // them (registry/RegistryDefinitions.cpp): list them, serve theirs, watch for changes.
    QCoro::Task<model::VoidResult> followDefinitions();
    QCoro::Task<> refollowDefinitions(); // after the watch failed, until it works again
    void applyDefinition(const model::Object &crd);
    void forgetDefinition(const std::string &name);
    QCoro::Task<> removeCustomObjects(std::shared_ptr<storage::Storage> storage, std::string prefix);
    // The storage (and series name) objects of `resource` live in.
    std::pair<std::shared_ptr<watch::WatchHub>, std::string> storageFor(const model::GroupResource &resource) const;

    // Each series' storage behind the watch hub the registry puts in front of it.
    std::shared_ptr<watch::WatchHub> m_storage;
    std::map<std::string, std::shared_ptr<watch::WatchHub>> m_separateStorage;
    std::shared_ptr<StoreEnvironment> m_environment;
    // Group, version, resource; found by string_views without building strings (compared as
    // views: libstdc++ under clang has no tuple<string_view...> < tuple<string...>).
    struct KeyLess {
        using is_transparent = void;
        template <typename A, typename B>
        bool operator()(const A &a, const B &b) const
        {
            return views(a) < views(b);
        }
        template <typename T>
        static std::tuple<std::string_view, std::string_view, std::string_view> views(const T &key)
        {
            return {std::get<0>(key), std::get<1>(key), std::get<2>(key)};
        }
    };
    std::map<std::tuple<std::string, std::string, std::string>, std::shared_ptr<const Entry>, KeyLess> m_entries;
    std::uint64_t m_typesGeneration = 0;
    std::function<void()> m_typesChanged;
    std::map<std::string, std::string> m_definitionSpecs; // CRD name -> the spec its types were made from
    std::map<std::string, std::vector<model::GroupVersionResource>> m_definitionTypes; // CRD name -> served
    storage::WatchHandle m_definitionsWatch;
    // Guards the hooks captured by the environment against a destroyed registry.
    std::shared_ptr<Registry *> m_self;
};

} // namespace rvscope::registry
