// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <QtCore/QPointer>

#include "api/Watcher.h"

class QTcpSocket;
class QWebSocket;

namespace rvscope::server {

// A watch over HTTP/1.1: each event a chunk of one JSON line (the Python client splits the
// stream on newlines), a zero-length chunk at the end. `onEnd` runs after that (tooSlow:
// the client stopped reading). The socket may go away first: then nothing is written.
class ChunkedWatchTransport final : public api::WatchTransport {
public:
    ChunkedWatchTransport(QPointer<QTcpSocket> socket, std::function<void(bool tooSlow)> onEnd);
    void send(const std::string &event) override;
    std::size_t backlog() const override;
    void end(bool tooSlow) override;

private:
    QPointer<QTcpSocket> m_socket;
    std::function<void(bool)> m_onEnd;
};

// A watch over WebSocket (wire contract §7): one text message per event, ending with a
// newline; the socket closes when the watch ends. The transport owns the socket.
class WebSocketWatchTransport final : public api::WatchTransport {
public:
    explicit WebSocketWatchTransport(std::unique_ptr<QWebSocket> socket);
    ~WebSocketWatchTransport() override;
    WebSocketWatchTransport(const WebSocketWatchTransport &) = delete;
    WebSocketWatchTransport &operator=(const WebSocketWatchTransport &) = delete;
    void send(const std::string &event) override;
    std::size_t backlog() const override;
    void end(bool tooSlow) override;

private:
    std::unique_ptr<QWebSocket> m_socket;
};

// The chunk framing of one event line.
QByteArray watchChunk(const std::string &line);

} // namespace rvscope::server
