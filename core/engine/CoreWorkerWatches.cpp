// SPDX-License-Identifier: MIT
// CoreWorker: watches the GUI opens on the core (the Streams panel), through the API handler
// like any client's, so their events are journaled and batched like everyone's.
#include "engine/CoreWorker.h"

#include "api/ApiHandler.h"
#include "api/Watcher.h"
#include "history/Journal.h"
#include "sim/KubeClient.h"
#include "sim/Transport.h"

namespace rvscope::engine {

void CoreWorker::openWatch(const QString &collection, const QString &fromResourceVersion)
{
    startWatch(collection, fromResourceVersion);
}

QCoro::Task<> CoreWorker::startWatch(QString collection, QString fromResourceVersion)
{
    WatchChannel channel;
    channel.collection = collection;
    channel.fromResourceVersion = fromResourceVersion;
    const auto ref = sim::ObjectRef::parse(collection.toStdString());
    if (!ref || !ref->name.empty()) {
        channel.status = 400;
        channel.error = QStringLiteral("watch a collection such as configmaps/default or configmaps, not \"%1\"").arg(collection);
        Q_EMIT watchOpened(channel);
        co_return;
    }
    sim::KubeClient client(guiTransport(), "gui", "");
    sim::KubeResponse response = co_await client.watch(*ref, fromResourceVersion.toStdString());
    channel.status = response.status;
    if (!response.watch) {
        channel.error = QString::fromStdString(response.message);
        Q_EMIT watchOpened(channel);
        co_return;
    }
    // The watch request was journaled just before its response came back.
    channel.id = m_journal->nextId() - 1;
    // A watch too old for storage opens and ends with one ERROR event (410).
    response.watch->attach([](const std::string &) {}, [] {});
    if (!response.watch->ended())
        m_guiWatches[channel.id] = response.watch;
    Q_EMIT watchOpened(channel);
}

void CoreWorker::closeWatch(quint64 id)
{
    auto it = m_guiWatches.find(id);
    if (it == m_guiWatches.end())
        return;
    it->second->close();
    m_guiWatches.erase(it);
}

} // namespace rvscope::engine
