// SPDX-License-Identifier: MIT
#include "server/WatchTransports.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <sys/socket.h>

#include <QtCore/QAbstractEventDispatcher>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>

namespace rvscope::server {

namespace {
// The transports holding unsent events for the next round of writes, the round being
// written (slice by slice, from t_roundAt on), whether a flushAll() is posted, and whether
// the next round already waited its extra pass.
thread_local std::vector<std::weak_ptr<HttpWatchTransport>> t_unflushed;
thread_local std::vector<std::weak_ptr<HttpWatchTransport>> t_round;
thread_local std::size_t t_roundAt = 0;
thread_local bool t_scheduled = false;
thread_local bool t_deferred = false;

void scheduleFlush()
{
    if (t_scheduled)
        return;
    t_scheduled = true;
    // A posted call (as ApiServer flushes its responses): it runs in the event loop's next
    // pass, after that pass's poll has read whatever requests came meanwhile.
    QMetaObject::invokeMethod(QAbstractEventDispatcher::instance(), &HttpWatchTransport::flushAll,
                              Qt::QueuedConnection);
}
// The last shared line framed, and its chunk.
thread_local std::shared_ptr<const std::string> t_framedLine;
thread_local QByteArray t_framedChunk;

// "<size in hex>\r\n<line>\n\r\n": one chunk holding one JSON line.
QByteArray chunkOf(const std::string &line)
{
    char size[20];
    const int digits = std::snprintf(size, sizeof size, "%zx\r\n", line.size() + 1);
    QByteArray chunk(qsizetype(digits) + qsizetype(line.size()) + 3, Qt::Uninitialized);
    char *at = chunk.data();
    std::memcpy(at, size, std::size_t(digits));
    std::memcpy(at + digits, line.data(), line.size());
    std::memcpy(at + digits + line.size(), "\n\r\n", 3);
    return chunk;
}

// "<line>\n": what HTTP/1.0 carries.
QByteArray bareLineOf(const std::string &line)
{
    QByteArray bare(qsizetype(line.size()) + 1, Qt::Uninitialized);
    std::memcpy(bare.data(), line.data(), line.size());
    bare[qsizetype(line.size())] = '\n';
    return bare;
}
} // namespace

HttpWatchTransport::HttpWatchTransport(QPointer<QTcpSocket> socket, Framing framing, std::function<void(bool)> onEnd)
    : m_socket(std::move(socket))
    , m_framing(framing)
    , m_onEnd(std::move(onEnd))
    , m_directWrites(m_socket && !qobject_cast<QSslSocket *>(m_socket.data()))
{
}

QByteArray HttpWatchTransport::frame(const std::string &line) const
{
    return m_framing == Framing::Chunked ? chunkOf(line) : bareLineOf(line);
}

void HttpWatchTransport::send(const std::string &event)
{
    if (m_socket)
        queue(frame(event));
}

void HttpWatchTransport::sendShared(const std::shared_ptr<const std::string> &line)
{
    if (!m_socket)
        return;
    if (m_framing != Framing::Chunked) { // (the cache holds chunks; HTTP/1.0 watches are rare)
        queue(bareLineOf(*line));
        return;
    }
    if (t_framedLine != line) {
        t_framedChunk = chunkOf(*line);
        t_framedLine = line;
    }
    queue(t_framedChunk);
}

void HttpWatchTransport::queue(const QByteArray &chunk)
{
    if (m_unsent.isEmpty())
        m_unsent = chunk; // shared, not copied
    else
        m_unsent += chunk;
    if (m_queued)
        return;
    m_queued = true;
    t_unflushed.push_back(weak_from_this());
    scheduleFlush();
}

void HttpWatchTransport::flushAll()
{
    t_scheduled = false;
    if (t_roundAt >= t_round.size()) {
        // A new round. Its first call comes in the pass after the one that produced the
        // events; it waits one more pass (its poll and the requests it reads) so that more
        // events share each write, as Qt's own buffered socket would.
        t_round.clear();
        t_roundAt = 0;
        if (t_unflushed.empty())
            return;
        if (!t_deferred) {
            t_deferred = true;
            scheduleFlush();
            return;
        }
        t_deferred = false;
        t_round.swap(t_unflushed);
    }
    // One slice, then back to the event loop: a thousand watches take milliseconds to write,
    // and what comes meanwhile (the next writes, a remote storage's answers and watch
    // events) is read and answered between slices instead of after the whole round. Events
    // it produces join the watches this round has not reached yet.
    const std::size_t end = std::min(t_round.size(), t_roundAt + FLUSH_SLICE);
    while (t_roundAt < end) {
        if (auto transport = t_round[t_roundAt++].lock())
            transport->flush();
    }
    if (t_roundAt < t_round.size() || !t_unflushed.empty())
        scheduleFlush();
}

void HttpWatchTransport::flush()
{
    m_queued = false;
    if (m_unsent.isEmpty() || !m_socket) {
        m_unsent.clear();
        return;
    }
    qsizetype sent = 0;
    if (m_directWrites && m_socket->bytesToWrite() == 0 && m_socket->state() == QAbstractSocket::ConnectedState) {
        const ssize_t n = ::send(int(m_socket->socketDescriptor()), m_unsent.constData(), size_t(m_unsent.size()),
                                 MSG_DONTWAIT | MSG_NOSIGNAL);
        // EAGAIN (the kernel's buffer is full) or an error: Qt writes the rest, and reports
        // a broken connection as it always does.
        sent = n > 0 ? qsizetype(n) : 0;
    }
    if (sent < m_unsent.size())
        m_socket->write(m_unsent.constData() + sent, m_unsent.size() - sent);
    m_unsent.clear();
}

std::size_t HttpWatchTransport::backlog() const
{
    return std::size_t(m_unsent.size()) + (m_socket ? std::size_t(m_socket->bytesToWrite()) : 0);
}

void HttpWatchTransport::end(bool tooSlow)
{
    flush();
    if (m_socket && m_framing == Framing::Chunked)
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
