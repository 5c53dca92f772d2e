// SPDX-License-Identifier: MIT
// The registry's custom resource types follow the CustomResourceDefinitions in its storage,
// as the apiserver's CRD handler follows them by informer: a create, an update (a version
// served or no longer served, a status subresource added) and a delete change what is
// served, whether this process wrote the definition or another instance on a shared etcd did.
#include "registry/Registry.h"

#include <algorithm>

#include <QtCore/QTimer>

#include "model/JsonAccess.h"
#include "registry/CustomResources.h"
#include "storage/Storage.h"
#include "watch/WatchHub.h"

namespace rvscope::registry {
namespace {
constexpr int REFOLLOW_DELAY_MS = 1000;
}

void Registry::applyDefinition(const model::Object &crd)
{
    // Only the spec decides what is served: an update of labels or status changes nothing.
    std::string spec = model::member(crd.json(), "spec").dump();
    auto known = m_definitionSpecs.find(crd.name());
    if (known != m_definitionSpecs.end() && known->second == spec)
        return;
    auto types = customResourceTypes(crd);
    std::vector<model::GroupVersionResource> served;
    for (const auto &type : types)
        served.push_back(type->gvr);
    for (const auto &gvr : m_definitionTypes[crd.name()]) {
        if (std::find(served.begin(), served.end(), gvr) == served.end())
            removeType(gvr);
    }
    for (auto &type : types)
        add(std::move(type));
    m_definitionTypes[crd.name()] = std::move(served);
    m_definitionSpecs[crd.name()] = std::move(spec);
}

void Registry::forgetDefinition(const std::string &name)
{
    auto served = m_definitionTypes.find(name);
    if (served != m_definitionTypes.end()) {
        for (const auto &gvr : served->second)
            removeType(gvr);
        m_definitionTypes.erase(served);
    }
    m_definitionSpecs.erase(name);
}

QCoro::Task<model::VoidResult> Registry::followDefinitions()
{
    std::weak_ptr<Registry *> self = m_self;
    const std::shared_ptr<const Entry> crds = find(CUSTOM_RESOURCE_DEFINITIONS);
    // The hub's inner storage: the registry's own watch is no client's and stays out of the
    // fan-out's figures.
    std::shared_ptr<storage::Storage> storage = storageFor(crds->type->groupResource()).first->inner();
    const std::string prefix = crds->type->storagePrefix + '/';
    auto listed = co_await storage->list(prefix, storage::ListOptions());
    if (!listed)
        co_return std::move(listed).error();
    auto registry = self.lock();
    if (!registry || !*registry)
        co_return model::Done{};
    std::vector<std::string> present;
    for (const ObjectPtr &crd : listed->items) {
        applyDefinition(*crd);
        present.push_back(crd->name());
    }
    // Definitions deleted while no watch was open (after a watch error).
    std::vector<std::string> gone;
    for (const auto &[name, spec] : m_definitionSpecs) {
        if (std::find(present.begin(), present.end(), name) == present.end())
            gone.push_back(name);
    }
    for (const auto &name : gone)
        forgetDefinition(name);

    storage::WatchSink sink = [self](const storage::WatchEvent &event) {
        auto registry = self.lock();
        if (!registry || !*registry)
            return;
        Registry &r = **registry;
        switch (event.type) {
        case storage::WatchEventType::Added:
        case storage::WatchEventType::Modified:
            r.applyDefinition(*event.object);
            break;
        case storage::WatchEventType::Deleted:
            // The objects go with the instance that deleted the definition (handleDeleted).
            r.forgetDefinition(event.object->name());
            break;
        case storage::WatchEventType::Error:
            // Compacted past, or the storage's feed failed: list again and watch anew.
            r.refollowDefinitions();
            break;
        }
    };
    auto watch = co_await storage->watch(prefix, listed->revision, std::move(sink));
    registry = self.lock();
    if (!registry || !*registry)
        co_return model::Done{};
    if (!watch)
        co_return std::move(watch).error();
    m_definitionsWatch = std::move(watch).value();
    co_return model::Done{};
}

QCoro::Task<> Registry::refollowDefinitions()
{
    std::weak_ptr<Registry *> self = m_self;
    auto followed = co_await followDefinitions();
    if (followed)
        co_return;
    auto registry = self.lock();
    if (!registry || !*registry)
        co_return;
    qWarning("rvscope: following custom resource definitions failed (retrying in %d ms): %s", REFOLLOW_DELAY_MS,
             followed.error().message.c_str());
    QTimer::singleShot(REFOLLOW_DELAY_MS, [self]() {
        if (auto registry = self.lock(); registry && *registry)
            (*registry)->refollowDefinitions();
    });
}

} // namespace rvscope::registry
