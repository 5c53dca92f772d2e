// SPDX-License-Identifier: MIT
#include "engine/CoreWorker.h"

#include <qcoro/qcorotask.h>

#include "api/ApiHandler.h"
#include "registry/Registry.h"
#include "server/ApiServer.h"
#include "storage/MemoryStorage.h"

namespace rvscope::engine {
namespace {
constexpr int STATS_INTERVAL_MS = 33;
}

CoreWorker::CoreWorker(EngineOptions options)
    : m_options(options)
{
}

CoreWorker::~CoreWorker()
{
    if (m_server)
        m_server->closeWatches();
}

void CoreWorker::start()
{
    m_storage = std::make_shared<storage::MemoryStorage>(storage::MemoryStorage::Options{m_options.watchHistory});
    m_registry = std::make_shared<registry::Registry>(m_storage);
    // MemoryStorage completes synchronously; nothing here waits on the event loop.
    if (auto booted = QCoro::waitFor(m_registry->bootstrap()); !booted)
        qWarning("rvscope: bootstrap failed: %s", booted.error().message.c_str());
    m_handler = std::make_shared<api::ApiHandler>(m_registry);
    m_statsTimer = new QTimer(this);
    connect(m_statsTimer, &QTimer::timeout, this, &CoreWorker::handleStatsTimer);
    m_statsTimer->start(STATS_INTERVAL_MS);
    Q_EMIT started();
}

void CoreWorker::startServer(const QHostAddress &address, quint16 port)
{
    ServerState state;
    state.address = address;
    if (m_server) {
        state.running = true;
        state.port = m_server->port();
        Q_EMIT serverStateChanged(state);
        return;
    }
    auto server = std::make_unique<server::ApiServer>(m_handler);
    QString error;
    state.port = server->start(address, port, &error);
    state.running = state.port != 0;
    state.error = error;
    if (state.running) {
        const QString host = address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']'
                                                                                 : address.toString();
        m_handler->setServerAddress((host + u':' + QString::number(state.port)).toStdString());
        m_server = std::move(server);
    }
    Q_EMIT serverStateChanged(state);
}

void CoreWorker::stopServer()
{
    if (m_server) {
        m_server->closeWatches();
        m_server.reset();
    }
    Q_EMIT serverStateChanged(ServerState{});
}

void CoreWorker::handleStatsTimer()
{
    CoreStats stats;
    stats.revision = m_storage->revision();
    stats.objects = m_storage->objectCount();
    stats.openWatches = m_server ? m_server->openWatchCount() : 0;
    // A batch only when something changed: the GUI is not woken up for nothing.
    if (stats.revision != m_lastStats.revision || stats.objects != m_lastStats.objects
        || stats.openWatches != m_lastStats.openWatches) {
        m_lastStats = stats;
        Q_EMIT statsReady(stats);
    }
}

} // namespace rvscope::engine
