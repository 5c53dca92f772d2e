// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QtCore/QObject>
#include <QtCore/QTimer>

#include "engine/EngineTypes.h"

namespace rvscope::storage {
class MemoryStorage;
}
namespace rvscope::registry {
class Registry;
}
namespace rvscope::api {
class ApiHandler;
}
namespace rvscope::server {
class ApiServer;
}

namespace rvscope::engine {

// Everything of the core, living in the core thread: storage, registry, API handler and the
// embedded server. Created and driven by the Engine only; its slots run in the core thread
// (queued), its signals carry values.
class CoreWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreWorker)

public:
    explicit CoreWorker(EngineOptions options);
    ~CoreWorker() override;

public Q_SLOTS:
    void start();
    void startServer(const QHostAddress &address, quint16 port);
    void stopServer();

Q_SIGNALS:
    void started();
    void serverStateChanged(const rvscope::engine::ServerState &state);
    void statsReady(const rvscope::engine::CoreStats &stats);

private:
    void handleStatsTimer();

    EngineOptions m_options;
    std::shared_ptr<storage::MemoryStorage> m_storage;
    std::shared_ptr<registry::Registry> m_registry;
    std::shared_ptr<api::ApiHandler> m_handler;
    std::unique_ptr<server::ApiServer> m_server;
    QTimer *m_statsTimer = nullptr;
    CoreStats m_lastStats;
};

} // namespace rvscope::engine
