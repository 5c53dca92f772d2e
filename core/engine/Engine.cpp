// SPDX-License-Identifier: MIT
#include "engine/Engine.h"

#include "engine/CoreWorker.h"

namespace rvscope::engine {

QString ServerState::url() const
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']'
                                                                             : address.toString();
    return QStringLiteral("http://%1:%2").arg(host).arg(port);
}

Engine::Engine(EngineOptions options, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<ServerState>();
    qRegisterMetaType<CoreStats>();
    m_coreThread.setObjectName(QStringLiteral("core"));
    m_worker = new CoreWorker(options);
    m_worker->moveToThread(&m_coreThread);
    connect(&m_coreThread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &CoreWorker::started, this, &Engine::coreStarted);
    connect(m_worker, &CoreWorker::serverStateChanged, this, &Engine::handleServerState);
    connect(m_worker, &CoreWorker::statsReady, this, &Engine::handleStats);
    m_coreThread.start();
    QMetaObject::invokeMethod(m_worker, &CoreWorker::start, Qt::QueuedConnection);
}

Engine::~Engine()
{
    m_coreThread.quit();
    m_coreThread.wait();
}

void Engine::startServer(const QHostAddress &address, quint16 port)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, address, port] { worker->startServer(address, port); }, Qt::QueuedConnection);
}

void Engine::stopServer()
{
    QMetaObject::invokeMethod(m_worker, &CoreWorker::stopServer, Qt::QueuedConnection);
}

void Engine::handleServerState(const ServerState &state)
{
    m_serverState = state;
    Q_EMIT serverStateChanged(state);
}

void Engine::handleStats(const CoreStats &stats)
{
    m_stats = stats;
    Q_EMIT statsUpdated(stats);
}

} // namespace rvscope::engine
