// SPDX-License-Identifier: MIT
#include "engine/Core.h"

#include <algorithm>

#include "api/ApiHandler.h"
#include "faults/FaultSet.h"
#include "history/Journal.h"
#include "model/SteadyClock.h"
#include "registry/Registry.h"
#include "storage/MemoryStorage.h"
#include "storage/EtcdBackend.h"

namespace rvscope::engine {
namespace {

std::shared_ptr<storage::Storage> makeMemoryStorage(const EngineOptions &options, bool durable,
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

struct StorageProblems {
    QString error;
    bool unreachable = false; // etcd did not answer: nothing can be written
};

// The served store on etcd: one EtcdStorage per series, all under the one prefix (each type's
// keys are its own). Series on the same cluster share etcd's revision counter; a type with
// --etcd-servers-overrides has a cluster, and so a counter, of its own.

QCoro::Task<std::shared_ptr<storage::Storage>> makeStorage(EngineOptions options, bool durable, std::string series,
                                                           std::shared_ptr<StorageProblems> problems)
{
    if (!durable || options.storageKind == EngineOptions::StorageKind::Memory)
        co_return makeMemoryStorage(options, durable, series, problems->error);
#ifdef RVSCOPE_ETCD
    const auto backend = storage::etcdBackend();
    if (!backend) {
        problems->unreachable = true;
        if (problems->error.isEmpty())
            problems->error = QStringLiteral("--storage etcd: ") + QString::fromStdString(backend.error().message);
        co_return makeMemoryStorage(options, false, series, problems->error);
    }
    storage::EtcdOptions etcdOptions;
    // A type with --etcd-servers-overrides lives on its own cluster.
    const QStringList endpoints = options.etcdServersOverrides.value(QString::fromStdString(series), options.etcdEndpoints);
    for (const QString &endpoint : endpoints)
        etcdOptions.endpoints.push_back(endpoint.toStdString());
    etcdOptions.prefix = options.etcdPrefix.toStdString();
    etcdOptions.historyLimit = options.watchHistory;
    std::shared_ptr<storage::Storage> etcd = backend.value()->create(std::move(etcdOptions));
    // Waits for etcd's answer without blocking the core thread; a server that cannot reach
    // it refuses to start, with the reason.
    auto ready = co_await backend.value()->ready(etcd);
    if (!ready) {
        problems->unreachable = true;
        if (problems->error.isEmpty())
            problems->error = QString::fromStdString(ready.error().message);
    }
    co_return etcd;
#else
    if (problems->error.isEmpty())
        problems->error = QStringLiteral("--storage etcd: this rvscope was built without etcd support (RVSCOPE_ETCD=OFF)");
    co_return makeMemoryStorage(options, false, series, problems->error);
#endif
}

} // namespace

std::vector<std::shared_ptr<storage::Storage>> Core::allStorages() const
{
    std::vector<std::shared_ptr<storage::Storage>> storages{storage};
    for (const auto &[type, separate] : separateStorage)
        storages.push_back(separate);
    return storages;
}

QCoro::Task<Core> Core::build(EngineOptions options, bool durable)
{
    Core core;
    auto problems = std::make_shared<StorageProblems>();
    std::string mainSeries = "main";
    core.storage = co_await makeStorage(options, durable, std::move(mainSeries), problems);
    registry::Registry::Options registryOptions;
    for (const QString &type : options.separateStorage) {
        auto storage = co_await makeStorage(options, durable, type.toStdString(), problems);
        core.separateStorage[type.toStdString()] = storage;
        registryOptions.separateStorage[type.toStdString()] = storage;
    }
    core.storageError = problems->error;
    if (durable && options.storageKind == EngineOptions::StorageKind::Etcd && !options.dataDir.isEmpty()
        && core.storageError.isEmpty())
        core.storageError = QStringLiteral("--data-dir and --storage etcd exclude each other: etcd keeps the data");
    core.registry = std::make_shared<registry::Registry>(core.storage, registryOptions);
    for (const auto &separate : core.separateStorage) {
        const std::string &type = separate.first; // (clang before 16 cannot capture a structured binding)
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
    // Against an etcd that does not answer, bootstrap would only wait out its timeouts
    // before the server refuses to start anyway.
    if (!problems->unreachable) {
        auto booted = co_await registry->bootstrap();
        if (!booted)
            qWarning("rvscope: bootstrap failed: %s", booted.error().message.c_str());
    }
    core.journal = std::make_shared<history::Journal>(options.journalCapacity());
    api::ApiHandler::Options handlerOptions;
    handlerOptions.maxWatchBacklog = options.maxWatchBacklog;
    handlerOptions.maxWatchesPerUser = options.maxWatchesPerUser;
    handlerOptions.userRequestsPerSecond = double(options.userRequestsPerSecond);
    core.handler = std::make_shared<api::ApiHandler>(core.registry, handlerOptions);
    for (const QString &rule : options.faults) {
        // The command line checked their syntax; what they name is checked here, against the
        // served types (custom ones from a data directory included).
        auto added = core.handler->faults().add(rule.toStdString());
        if (!added && core.faultError.isEmpty())
            core.faultError = QStringLiteral("--fault: ") + QString::fromStdString(added.error().message);
    }
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
