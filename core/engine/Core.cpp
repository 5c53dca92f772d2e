// SPDX-License-Identifier: MIT
#include "engine/Core.h"

#include <algorithm>

#include "api/ApiHandler.h"
#include "history/Journal.h"
#include "model/SteadyClock.h"
#include "registry/Registry.h"
#include "storage/MemoryStorage.h"

namespace rvscope::engine {
namespace {

std::shared_ptr<storage::MemoryStorage> makeStorage(const EngineOptions &options, bool durable,
                                                    const std::string &series, QString &error)
{
    const storage::MemoryStorage::Options storageOptions{options.watchHistory};
    if (!durable || options.dataDir.isEmpty())
        return std::make_shared<storage::MemoryStorage>(storageOptions);
    auto opened = storage::MemoryStorage::openDurable(options.dataDir.toStdString(), series, storageOptions);
    if (opened)
        return std::move(opened).value();
    if (error.isEmpty())
        error = QString::fromStdString(opened.error().message);
    return std::make_shared<storage::MemoryStorage>(storageOptions);
}

} // namespace

std::vector<std::shared_ptr<storage::MemoryStorage>> Core::allStorages() const
{
    std::vector<std::shared_ptr<storage::MemoryStorage>> storages{storage};
    for (const auto &[type, separate] : separateStorage)
        storages.push_back(separate);
    return storages;
}

QCoro::Task<Core> Core::build(EngineOptions options, bool durable)
{
    Core core;
    core.storage = makeStorage(options, durable, "main", core.storageError);
    registry::Registry::Options registryOptions;
    for (const QString &type : options.separateStorage) {
        auto storage = makeStorage(options, durable, type.toStdString(), core.storageError);
        core.separateStorage[type.toStdString()] = storage;
        registryOptions.separateStorage[type.toStdString()] = storage;
    }
    core.registry = std::make_shared<registry::Registry>(core.storage, registryOptions);
    for (const auto &[type, storage] : core.separateStorage) {
        const auto types = core.registry->types();
        if (std::none_of(types.begin(), types.end(), [&type](const auto &t) { return t->groupResource().toString() == type; }))
            core.storageError = QStringLiteral("--separate-storage: '%1' is not a served resource (such as events or "
                                               "leases.coordination.k8s.io)")
                                    .arg(QString::fromStdString(type));
    }
    // The namespaces a fresh apiserver has (and a data directory's CRDs). This may wait (a
    // data directory's writes, a remote storage); the caller holds the Engine's requests
    // back meanwhile, and nothing here spins a nested event loop.
    std::shared_ptr<registry::Registry> registry = core.registry;
    auto booted = co_await registry->bootstrap();
    if (!booted)
        qWarning("rvscope: bootstrap failed: %s", booted.error().message.c_str());
    core.journal = std::make_shared<history::Journal>(options.journalCapacity());
    api::ApiHandler::Options handlerOptions;
    handlerOptions.maxWatchBacklog = options.maxWatchBacklog;
    core.handler = std::make_shared<api::ApiHandler>(core.registry, handlerOptions);
    std::weak_ptr<history::Journal> journal = core.journal;
    // A journal of size 0 is off: a plain fast apiserver, no history (and no GUI batches).
    if (options.journalCapacity() > 0) {
        core.handler->setObserver([journal](api::OperationReport &&report) -> std::uint64_t {
            auto shared = journal.lock();
            return shared ? shared->record(std::move(report)) : 0;
        });
        core.handler->setDeliveryObserver(
            [journal](std::uint64_t operationId, const std::string &resource, const registry::WatchEvent &event) {
                if (auto shared = journal.lock())
                    shared->record(history::WatchDelivery::of(operationId, resource, event, model::steadyNowNs()));
            });
    }
    co_return core;
}

} // namespace rvscope::engine
