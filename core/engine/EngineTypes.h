// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtNetwork/QHostAddress>

// Value types that cross from the core thread to the GUI thread (by queued signals, copied).
namespace rvscope::engine {

struct EngineOptions final {
    std::size_t watchHistory = 10000;
};

// The embedded HTTP server as the GUI shows it.
struct ServerState final {
    bool running = false;
    QHostAddress address;
    quint16 port = 0;
    QString error; // why it is not running, when it failed to start

    QString url() const;
};

// A snapshot of the core, sent at most every ~33 ms.
struct CoreStats final {
    std::int64_t revision = 0;   // the storage's current revision
    std::size_t objects = 0;     // stored objects
    std::size_t openWatches = 0; // HTTP and WebSocket watches of the embedded server
};

} // namespace rvscope::engine

Q_DECLARE_METATYPE(rvscope::engine::ServerState)
Q_DECLARE_METATYPE(rvscope::engine::CoreStats)
