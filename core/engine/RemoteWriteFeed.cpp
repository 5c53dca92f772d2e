// SPDX-License-Identifier: MIT
#include "engine/RemoteWriteFeed.h"

#include <QtCore/QPointer>

#include "engine/Core.h"
#include "history/Journal.h"
#include "model/SteadyClock.h"
#include "registry/Registry.h"
#include "storage/MemoryStorage.h" // Core holds MemoryStorages (and Storages on etcd)

namespace rvscope::engine {

RemoteWriteFeed::RemoteWriteFeed(const Core &core, QObject *parent)
    : QObject(parent)
    , m_core(core)
{
    m_timer.setParent(this); // moves to the core thread with its owner
    m_timer.setInterval(GRACE_MS / 3);
    connect(&m_timer, &QTimer::timeout, this, &RemoteWriteFeed::resolve);
}

RemoteWriteFeed::~RemoteWriteFeed() = default;

void RemoteWriteFeed::follow()
{
    ++m_generation; // events of the previous core's watches are dropped
    m_watches.clear();
    m_arrived.clear();
    m_timer.stop();
    if (!m_core.journal || !m_core.registry)
        return;
    for (const auto &storage : m_core.allStorages()) {
        if (storage && storage->shared())
            watchStorage(storage, m_generation);
    }
}

QCoro::Task<> RemoteWriteFeed::watchStorage(std::shared_ptr<storage::Storage> storage, std::uint64_t generation)
{
    QPointer<RemoteWriteFeed> self(this);
    auto revision = co_await storage->currentRevision();
    if (!self || generation != m_generation || !revision)
        co_return;
    std::weak_ptr<storage::Storage> weak = storage;
    auto sink = [self, weak, generation](const storage::WatchEvent &event) {
        if (!self || generation != self->m_generation || event.type == storage::WatchEventType::Error)
            return;
        auto alive = weak.lock();
        if (!alive)
            return;
        self->m_arrived.push_back(Arrived{alive, event, model::steadyNowNs()});
        if (!self->m_timer.isActive())
            self->m_timer.start();
    };
    auto watch = co_await storage->watch("/registry/", *revision, std::move(sink));
    if (!self || generation != m_generation)
        co_return;
    if (!watch) {
        // The storage's own feed may not have caught up with the revision etcd reported
        // (another instance was writing meanwhile: 504), or etcd is away: try again shortly.
        QTimer::singleShot(RETRY_MS, this, [this, storage, generation] {
            if (generation == m_generation)
                watchStorage(storage, generation);
        });
        co_return;
    }
    m_watches.push_back(std::move(watch).value());
}

void RemoteWriteFeed::resolve()
{
    const std::int64_t settled = model::steadyNowNs() - std::int64_t(GRACE_MS) * 1'000'000;
    while (!m_arrived.empty() && m_arrived.front().arrivalNs <= settled) {
        Arrived arrived = std::move(m_arrived.front());
        m_arrived.pop_front();
        const storage::WatchEvent &event = arrived.event;
        if (arrived.storage->committedHere(event.revision) || !m_core.journal)
            continue;
        const char *verb = event.type == storage::WatchEventType::Added      ? "create"
            : event.type == storage::WatchEventType::Deleted                 ? "delete"
                                                                              : "update";
        m_core.journal->recordRemote(verb, journalKey(event.key), std::to_string(event.revision), event.object,
                                     arrived.arrivalNs);
        ++m_remoteWrites;
    }
    if (m_arrived.empty())
        m_timer.stop();
}

std::string RemoteWriteFeed::journalKey(const std::string &storageKey) const
{
    for (const auto &type : m_core.registry->types()) {
        const std::string &prefix = type->storagePrefix;
        if (storageKey.size() > prefix.size() + 1 && storageKey.compare(0, prefix.size(), prefix) == 0
            && storageKey[prefix.size()] == '/')
            return type->gvr.resource + storageKey.substr(prefix.size());
    }
    // Not a served type's key: the key without the registry's prefix.
    constexpr std::string_view registry = "/registry/";
    return storageKey.compare(0, registry.size(), registry) == 0 ? storageKey.substr(registry.size()) : storageKey;
}

} // namespace rvscope::engine
