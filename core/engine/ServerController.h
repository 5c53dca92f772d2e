// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>

#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>

#include "engine/BulkSessionTracker.h"
#include "engine/EngineTypes.h"

namespace rvscope::server {
class ApiServer;
}

namespace rvscope::engine {

struct Core;
struct EngineOptions;
class AccessController;

// The embedded server (server::ApiServer) over the current core's handler: start and stop,
// TLS from the options, its state, and what it carries (open watches, bulk watch sessions)
// for the stats. Core thread only.
class ServerController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerController)

public:
    ServerController(const EngineOptions &options, const Core &core, const AccessController &access, QObject *parent);
    // Ends every watch the server carries, then closes its sockets.
    ~ServerController() override;

    // Listens on address:port (0: any free port): serverStateChanged with the port, or with
    // the error (a storage or access setup error, a non-loopback address without tokens or
    // --anonymous, TLS, the socket). Already running: its
    // state again, wherever it listens.
    void start(const QHostAddress &address, quint16 port);
    // Ends every watch the server carries and closes it: serverStateChanged (not running).
    void stop();
    bool running() const { return m_server != nullptr; }
    quint16 port() const;
    // Where it listens, or last listened.
    const QHostAddress &address() const { return m_address; }
    std::size_t openWatchCount() const;
    std::size_t bulkSessionCount() const;
    // bulkSessionsChanged when the bulk sessions changed since the last report (stats timer).
    void reportBulkSessions();

Q_SIGNALS:
    void serverStateChanged(const rvscope::engine::ServerState &state);
    void bulkSessionsChanged(const rvscope::engine::BulkSessionList &sessions);

private:
    // Why `address` may not be served with these options (empty: it may).
    QString openServerRefusal(const QHostAddress &address) const;

    const EngineOptions &m_options;
    const Core &m_core;
    const AccessController &m_access;
    std::unique_ptr<server::ApiServer> m_server;
    QHostAddress m_address;
    BulkSessionTracker m_bulkSessions;
};

} // namespace rvscope::engine
