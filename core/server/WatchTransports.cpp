// SPDX-License-Identifier: MIT
#include "server/WatchTransports.h"

#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>

namespace rvscope::server {

QByteArray watchChunk(const std::string &line)
{
    // Every event ends in '\n': the Python client splits the stream on newlines.
    QByteArray out = QByteArray::number(qulonglong(line.size() + 1), 16);
    out += "\r\n";
    out.append(line.data(), qsizetype(line.size()));
    out += "\n\r\n";
    return out;
}

ChunkedWatchTransport::ChunkedWatchTransport(QPointer<QTcpSocket> socket, std::function<void(bool)> onEnd)
    : m_socket(std::move(socket))
    , m_onEnd(std::move(onEnd))
{
}

void ChunkedWatchTransport::send(const std::string &event)
{
    if (m_socket)
        m_socket->write(watchChunk(event));
}

std::size_t ChunkedWatchTransport::backlog() const
{
    return m_socket ? std::size_t(m_socket->bytesToWrite()) : 0;
}

void ChunkedWatchTransport::end(bool tooSlow)
{
    if (m_socket)
        m_socket->write("0\r\n\r\n");
    if (auto onEnd = std::move(m_onEnd))
        onEnd(tooSlow);
}

WebSocketWatchTransport::WebSocketWatchTransport(std::unique_ptr<QWebSocket> socket)
    : m_socket(std::move(socket))
{
}

WebSocketWatchTransport::~WebSocketWatchTransport()
{
    // Possibly from inside one of the socket's own signals.
    if (m_socket)
        m_socket.release()->deleteLater();
}

void WebSocketWatchTransport::send(const std::string &event)
{
    m_socket->sendTextMessage(QString::fromStdString(event + '\n'));
}

std::size_t WebSocketWatchTransport::backlog() const
{
    return std::size_t(m_socket->bytesToWrite());
}

void WebSocketWatchTransport::end(bool)
{
    m_socket->close();
}

} // namespace rvscope::server
