// SPDX-License-Identifier: MIT
// HttpRequestReader: reading a connection, handing requests and upgrades over, and
// following a WebSocket's frame heads (the reading of a request is HttpRequestReaderHead.cpp).
#include "server/HttpRequestReader.h"

#include <algorithm>
#include <array>
#include <utility>
#include <string>
#include <vector>

#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>

#include "model/Status.h"
#include "model/StatusErrors.h"
#include "server/ServerLimits.h"

namespace rvscope::server {
namespace {
// How long a WebSocket's socket may go on writing what was sent before the WebSocket went.
constexpr int WEBSOCKET_LINGER_MS = 10'000;
// The room a connection's reader keeps between requests.
constexpr std::size_t KEPT_BUFFER_BYTES = 64 * 1024;
// How long what was answered before may take to go out once the connection is to close.
constexpr int CLOSE_QUIETLY_GRACE_MS = 500;

// The readers whose request was a WebSocket upgrade, until the WebSocket the server makes of
// it is handed over (upgradedTo()) or they go. Core thread; rarely more than one.
thread_local std::vector<QPointer<HttpRequestReader>> t_upgrades;

// Peeks every buffered byte of `socket` and hands them to `use` (a string_view).
template<typename Use>
void peekBuffered(QTcpSocket *socket, qint64 available, Use &&use)
{
    if (available <= 0 || !socket->isOpen())
        return;
    std::array<char, 16 * 1024> small;
    if (available <= qint64(small.size())) {
        const qint64 got = socket->peek(small.data(), available);
        use(std::string_view(small.data(), std::size_t(std::max<qint64>(got, 0))));
        return;
    }
    const QByteArray bytes = socket->peek(available);
    use(std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

} // namespace

HttpRequestReader *HttpRequestReader::install(QTcpSocket *socket, Timeouts timeouts, Deliver deliver,
                                           QWebSocketServer *webSockets)
{
    return new HttpRequestReader(socket, timeouts, std::move(deliver), webSockets);
}

HttpRequestReader::HttpRequestReader(QTcpSocket *socket, Timeouts timeouts, Deliver deliver, QWebSocketServer *webSockets)
    : QObject(socket)
    , m_socket(socket)
    , m_deliver(std::move(deliver))
    , m_webSockets(webSockets)
    , m_headTimer(new QTimer(this))
    , m_bodyTimer(new QTimer(this))
{
    connect(socket, &QIODevice::readyRead, this, &HttpRequestReader::handleReadyRead);
    m_headTimer->setSingleShot(true);
    m_headTimer->setInterval(timeouts.headMs);
    connect(m_headTimer, &QTimer::timeout, this, [this] {
        if (m_part != Part::Rest || m_awaitingWebSocket) // no answer, as Go's server on a header read timeout
            m_socket->abort();
    });
    m_headTimer->start();
    m_bodyTimer->setSingleShot(true);
    m_bodyTimer->setInterval(timeouts.bodyMs);
    connect(m_bodyTimer, &QTimer::timeout, this, [this] {
        // The apiserver's timeout filter answers while the handler still reads the body;
        // nothing of the request was handled. The rest of the body is not waited for.
        if (m_part == Part::Body || m_part == Part::ChunkedBody)
            refuse(model::errors::requestTimeout());
    });
}

void HttpRequestReader::startNextRequest()
{
    m_part = Part::RequestLine;
    m_request = api::ApiRequest();
    m_bodyStart = 0;
    m_bodyLeft = 0;
    m_chunkedData.clear();
    m_expectContinue = false;
    m_continueOwed = false;
    m_http11 = true;
    m_hostFields = 0;
    m_lineStart.clear();
    m_lineEnd.clear();
    m_lineBytes = 0;
    m_lineSpaces = 0;
    m_inQuery = false;
    m_escape.clear();
    m_headerBytes = 0;
    m_field.clear();
    m_fieldCount = 0;
    m_contentLength.reset();
    m_chunked = false;
    m_chunkedBody = ChunkedBodyFraming();
    m_upgradeWebSocket = false;
    m_connectionUpgrade = false;
    m_connectionClose = false;
    m_connectionKeepAlive = false;
    m_webSocketKey = false;
    m_webSocketVersion13 = false;
    m_headTimer->stop();
    m_bodyTimer->stop();
    m_awaitingFirstByte = true; // the idle timeout guards the wait for it
    m_headTimerWaits = false;   // (a whole head came while answers were owed: nothing to time)
    m_bodyTimerWaits = false;
}

void HttpRequestReader::refuseConnection(model::Status status)
{
    m_refusal = std::move(status);
}

void HttpRequestReader::stopReading()
{
    m_part = Part::Rest;
    m_headTimer->stop();
    m_bodyTimer->stop();
    disconnect(m_socket, &QIODevice::readyRead, this, nullptr);
    m_buffer.clear();
    m_counted = 0;
}

void HttpRequestReader::closeQuietly()
{
    stopReading();
    // What was answered before goes out first.
    m_socket->disconnectFromHost();
    QTimer::singleShot(CLOSE_QUIETLY_GRACE_MS, m_socket, &QAbstractSocket::abort);
}

void HttpRequestReader::startWaitingHeadTimer()
{
    if (std::exchange(m_headTimerWaits, false) && !m_awaitingFirstByte && m_part != Part::Rest)
        m_headTimer->start();
}

void HttpRequestReader::answersSettled()
{
    startWaitingHeadTimer();
    if (std::exchange(m_continueOwed, false) && (m_part == Part::Body || m_part == Part::ChunkedBody))
        writeContinue();
    if (std::exchange(m_bodyTimerWaits, false) && (m_part == Part::Body || m_part == Part::ChunkedBody))
        m_bodyTimer->start();
    if (m_upgradeHeld) {
        // Next pass: the server is still in the middle of the answer that settled.
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_upgradeHeld && !(m_answersOwed && m_answersOwed()) && m_socket->state() == QAbstractSocket::ConnectedState)
                    handOverUpgrade();
            },
            Qt::QueuedConnection);
    }
    writeHeldRefusal();
}

void HttpRequestReader::writeContinue()
{
    m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    m_bodyTimer->start(); // the client sends the body now
}

void HttpRequestReader::handleReadyRead()
{
    if (m_refusal && m_part != Part::Rest) {
        refuse(*m_refusal);
        return;
    }
    if (m_awaitingWebSocket) {
        // Bytes after the upgrade request, before its 101 was even written (the WebSocket
        // server answers the handshake on a later pass and hands the WebSocket over at
        // once): a client that did not wait.
        if (m_socket->bytesAvailable() > m_handshakeBytes)
            m_bytesAfterUpgrade = true;
        return;
    }
    if (m_frames) {
        followFrames();
        return;
    }
    if (m_upgradeHeld) {
        // Behind an upgrade that waits for the answers before it: bytes the client should
        // not have sent (the WebSocket closes with 1002 once handed over), not kept.
        m_bytesAfterUpgrade = true;
        m_socket->skip(m_socket->bytesAvailable());
        return;
    }
    if (m_part == Part::Rest)
        return;
    readRequests();
}

void HttpRequestReader::readRequests()
{
    const qint64 available = m_socket->bytesAvailable();
    if (available <= 0)
        return;
    const std::size_t had = m_buffer.size();
    m_buffer.resize(had + std::size_t(available));
    const qint64 got = m_socket->read(m_buffer.data() + had, available);
    m_buffer.resize(had + std::size_t(std::max<qint64>(got, 0)));
    for (;;) {
        const std::size_t used = count(std::string_view(m_buffer).substr(m_counted));
        if (used == std::string_view::npos)
            return; // refused
        m_counted += used;
        if (m_part != Part::Rest || !deliverRequest() || m_buffer.empty())
            return;
    }
}

bool HttpRequestReader::deliverRequest()
{
    if (m_upgradeWebSocket && m_connectionUpgrade) {
        // What the client sent behind its upgrade request, before any answer, closes the
        // WebSocket once it is handed over (followWebSocket()); nothing more is read here.
        m_bytesAfterUpgrade = m_bytesAfterUpgrade || m_buffer.size() > m_counted;
        // Go reads an upgrade only once the answers before it are out: it waits for them
        // (answersSettled()).
        if (m_answersOwed && m_answersOwed())
            m_upgradeHeld = true;
        else
            handOverUpgrade();
        return false;
    }
    api::ApiRequest request = std::move(m_request);
    if (m_chunked)
        request.body = std::move(m_chunkedData);
    else
        request.body.assign(m_buffer, m_bodyStart, m_counted - m_bodyStart);
    const Persistence persistence = m_http11 ? (m_connectionClose ? Persistence::Close : Persistence::KeepAlive)
        : m_connectionKeepAlive && !m_connectionClose ? Persistence::KeepAliveHttp10
                                                      : Persistence::CloseHttp10;
    m_buffer.erase(0, m_counted);
    if (m_buffer.empty() && m_buffer.capacity() > KEPT_BUFFER_BYTES)
        std::string().swap(m_buffer); // a large body's room is not kept for the connection's life
    m_counted = 0;
    startNextRequest();
    const QPointer<HttpRequestReader> self(this);
    m_deliver(std::move(request), false, persistence);
    // (Answering may have closed the connection: a flood of pipelined requests.)
    return self && m_socket->state() == QAbstractSocket::ConnectedState && m_part != Part::Rest;
}

void HttpRequestReader::handOverUpgrade()
{
    m_upgradeHeld = false;
    m_upgradeRequest = m_request;
    if (!m_deliver(std::move(m_request), true, Persistence::KeepAlive) || !m_webSockets) {
        closeQuietly();
        return;
    }
    // The head goes back into the socket, where the WebSocket server reads the handshake.
    // It goes back as the apiserver reads it: the request line, then each field once, with
    // its first value (Go's Header.Get; Qt's handshake would take a repeated field's last),
    // lines ending in CRLF (Qt's handshake reader knows no bare LF, which Go takes).
    std::size_t from = 0;
    while (from < m_counted && (m_buffer[from] == '\r' || m_buffer[from] == '\n'))
        ++from;
    std::size_t lineEnd = m_buffer.find('\n', from);
    lineEnd = lineEnd == std::string::npos || lineEnd > m_counted ? m_counted : lineEnd;
    std::string_view requestLine(m_buffer.data() + from, lineEnd - from);
    if (!requestLine.empty() && requestLine.back() == '\r')
        requestLine.remove_suffix(1);
    std::string head(requestLine);
    head += "\r\n";
    for (const auto &[name, value] : m_upgradeRequest.headers)
        head.append(name).append(": ").append(value).append("\r\n");
    head += "\r\n";
    for (std::size_t i = head.size(); i > 0; --i)
        m_socket->ungetChar(head[i - 1]);
    m_handshakeBytes = qint64(head.size());
    std::string().swap(m_buffer);
    m_counted = 0;
    m_awaitingWebSocket = true;
    if (std::find(t_upgrades.begin(), t_upgrades.end(), QPointer<HttpRequestReader>(this)) == t_upgrades.end())
        t_upgrades.emplace_back(this); // until the WebSocket is handed over, or the reader goes
    // The handshake is answered within the head timeout too, or the connection closes.
    m_headTimer->start();
    m_webSockets->handleConnection(m_socket); // (which reads what is buffered on a later pass)
}

HttpRequestReader::~HttpRequestReader()
{
    std::erase(t_upgrades, QPointer<HttpRequestReader>(this));
}

HttpRequestReader *HttpRequestReader::upgradedTo(const QWebSocket &webSocket)
{
    for (auto it = t_upgrades.begin(); it != t_upgrades.end(); ++it) {
        const QTcpSocket *socket = (*it)->m_socket;
        if (socket->state() == QAbstractSocket::ConnectedState && socket->peerPort() == webSocket.peerPort()
            && socket->localPort() == webSocket.localPort() && socket->peerAddress() == webSocket.peerAddress()) {
            HttpRequestReader *reader = *it;
            t_upgrades.erase(it);
            return reader;
        }
    }
    return nullptr;
}

bool HttpRequestReader::followWebSocket(QWebSocket *webSocket)
{
    // QWebSocket holds the socket without owning it (a guarded pointer), and when deleted
    // disconnects every receiver of the socket's signals. So the socket goes once the
    // WebSocket is disconnected (and the reader with it, giving back its place in
    // --max-connections). A WebSocket deleted while its socket still writes (the server
    // ended a watch; the client reads slowly) leaves the socket to finish within
    // WEBSOCKET_LINGER_MS, as the kernel goes on sending after Go's close.
    connect(webSocket, &QWebSocket::disconnected, m_socket, &QObject::deleteLater);
    connect(webSocket, &QObject::destroyed, m_socket, [socket = m_socket] {
        if (socket->state() == QAbstractSocket::UnconnectedState) {
            socket->deleteLater();
            return;
        }
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        QTimer::singleShot(WEBSOCKET_LINGER_MS, socket, &QAbstractSocket::abort);
    });
    m_awaitingWebSocket = false;
    m_headTimer->stop();
    if (m_bytesAfterUpgrade || m_socket->bytesAvailable() > 0) {
        m_socket->skip(m_socket->bytesAvailable());
        // Closed on the next pass: QWebSocket has queued its first read of the socket (it
        // finds nothing now), and reading a socket closed before it, Qt logs a warning.
        QMetaObject::invokeMethod(
            webSocket,
            [webSocket] {
                webSocket->close(QWebSocketProtocol::CloseCodeProtocolError,
                                 QStringLiteral("the client sent data before its opening handshake was answered"));
            },
            Qt::QueuedConnection);
        return false;
    }
    m_webSocket = webSocket;
    m_frames.emplace();
    m_framesBuffered = 0;
    m_afterRead = connect(m_socket, &QIODevice::readyRead, this, [this] {
        m_framesBuffered = m_socket->bytesAvailable();
        m_inRead = false;
    });
    return true;
}

void HttpRequestReader::followFrames()
{
    const qint64 available = m_socket->bytesAvailable();
    if (!m_webSocket || available < m_framesBuffered || m_inRead) {
        // Gone, read outside a readyRead, or a readyRead within QWebSocket's read: where
        // frames start is no longer known, and a wrong guess would close a good client.
        stopFollowing();
        return;
    }
    m_inRead = true;
    const std::uint64_t fresh = std::uint64_t(available - m_framesBuffered);
    const std::uint64_t passed = std::min(fresh, m_frames->payloadLeft());
    m_frames->skip(passed);
    std::string breach;
    if (passed < fresh) {
        const std::size_t from = std::size_t(m_framesBuffered) + std::size_t(passed);
        peekBuffered(m_socket, available, [&](std::string_view bytes) {
            if (bytes.size() > from)
                breach = m_frames->feed(bytes.substr(from));
        });
    }
    m_framesBuffered = available;
    if (breach.empty())
        return;
    // Nothing of it reaches QWebSocket's reader, next on this readyRead.
    QPointer<QWebSocket> webSocket = m_webSocket;
    stopFollowing();
    m_socket->skip(available);
    if (webSocket)
        webSocket->close(QWebSocketProtocol::CloseCodeProtocolError, QString::fromStdString(breach));
}

void HttpRequestReader::stopFollowing()
{
    m_frames.reset();
    m_webSocket.clear();
    disconnect(m_afterRead);
}

} // namespace rvscope::server
