// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "TestSupport.h"
#include "registry/Registry.h"
#include "storage/MemoryStorage.h"

// A fresh registry on a MemoryStorage, bootstrapped like `rvscope serve` starts, with a fixed
// (settable) clock and counting uids so that expectations can be written out.
namespace rvscope::testing {

struct RegistryFixture {
    std::shared_ptr<storage::MemoryStorage> storage = std::make_shared<storage::MemoryStorage>();
    std::unique_ptr<registry::Registry> registry;
    int uids = 0;
    std::string now = "2026-11-21T10:00:00Z"; // the clock: a test may move it

    // `separate`: types kept in storages of their own (Registry::Options::separateStorage).
    explicit RegistryFixture(std::map<std::string, std::shared_ptr<storage::Storage>> separate = {})
    {
        registry::Registry::Options options;
        options.separateStorage = std::move(separate);
        options.now = [this] { return now; };
        options.newUid = [this] { return "uid-" + std::to_string(++uids); };
        options.seed = 42;
        registry = std::make_unique<registry::Registry>(storage, options);
        run(registry->bootstrap()).value();
    }

    std::shared_ptr<registry::Store> store(const std::string &group, const std::string &version,
                                           const std::string &resource) const
    {
        const auto entry = registry->find(group, version, resource);
        return entry ? entry->store : nullptr;
    }
    std::shared_ptr<registry::Store> configMaps() const { return store("", "v1", "configmaps"); }
};

inline std::shared_ptr<const registry::UpdatedObjectInfo> put(model::Object object)
{
    return std::make_shared<registry::PutObjectInfo>(std::move(object));
}

inline std::shared_ptr<const registry::UpdatedObjectInfo> mergePatch(const char *json, const char *kind = "ConfigMap")
{
    return std::make_shared<registry::PatchObjectInfo>(patch::PatchType::MergePatch, nlohmann::json::parse(json),
                                                       kind);
}

} // namespace rvscope::testing
