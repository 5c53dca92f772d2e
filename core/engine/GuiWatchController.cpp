// SPDX-License-Identifier: MIT
#include "engine/GuiWatchController.h"

#include <QtCore/QPointer>

#include "api/ApiHandler.h"
#include "api/Watcher.h"
#include "engine/AccessController.h"
#include "engine/Core.h"
#include "history/Journal.h"
#include "sim/KubeClient.h"
#include "sim/Transport.h"

namespace rvscope::engine {

GuiWatchController::GuiWatchController(const Core &core, const AccessController &access, QObject *parent)
    : QObject(parent)
    , m_core(core)
    , m_access(access)
{
}

GuiWatchController::~GuiWatchController() = default;

void GuiWatchController::openWatch(const QString &collection, const QString &fromResourceVersion)
{
    startWatch(collection, fromResourceVersion);
}

QCoro::Task<> GuiWatchController::startWatch(QString collection, QString fromResourceVersion)
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
    QPointer<GuiWatchController> self(this);
    sim::KubeClient client(m_access.guiTransport(), "gui", "");
    sim::KubeResponse response = co_await client.watch(*ref, fromResourceVersion.toStdString());
    if (!self)
        co_return;
    channel.status = response.status;
    if (!response.watch) {
        channel.error = QString::fromStdString(response.message);
        Q_EMIT watchOpened(channel);
        co_return;
    }
    // The watch request was journaled just before its response came back.
    channel.id = m_core.journal->nextId() - 1;
    // A watch too old for storage opens and ends with one ERROR event (410).
    response.watch->attach([](const std::string &) {}, [] {});
    if (!response.watch->ended())
        m_watches[channel.id] = response.watch;
    Q_EMIT watchOpened(channel);
}

void GuiWatchController::closeWatch(quint64 id)
{
    auto it = m_watches.find(id);
    if (it == m_watches.end())
        return;
    it->second->close();
    m_watches.erase(it);
}

void GuiWatchController::handleCoreRebuilt()
{
    for (auto &[id, watch] : m_watches)
        watch->close();
    m_watches.clear();
}

} // namespace rvscope::engine
