// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QObject>
#include <QtCore/QThread>

#include "engine/EngineTypes.h"

namespace rvscope::engine {

class CoreWorker;

// The GUI's only door to the core. Lives in the GUI thread and owns the core thread, in
// which a CoreWorker holds storage, registry and the embedded server. Requests are
// imperative and return at once (they are queued to the core thread); results arrive as
// past-tense signals carrying values, stats at most every ~33 ms. Nothing here blocks.
class Engine final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Engine)

public:
    explicit Engine(EngineOptions options = {}, QObject *parent = nullptr);
    // Stops the core thread and waits for it (the server's sockets close with it).
    ~Engine() override;

    void startServer(const QHostAddress &address, quint16 port);
    void stopServer();
    const ServerState &serverState() const { return m_serverState; }
    const CoreStats &stats() const { return m_stats; }

Q_SIGNALS:
    void coreStarted();
    void serverStateChanged(const rvscope::engine::ServerState &state);
    void statsUpdated(const rvscope::engine::CoreStats &stats);

private:
    void handleServerState(const ServerState &state);
    void handleStats(const CoreStats &stats);

    QThread m_coreThread;
    CoreWorker *m_worker = nullptr;
    ServerState m_serverState;
    CoreStats m_stats;
};

} // namespace rvscope::engine
