// SPDX-License-Identifier: MIT
// ApiServer's WebSockets: a watch over WebSocket on the watch paths (wire contract section 7),
// and bulk watch sessions on /apis/bulk.k8s.io/v1/bulkgetoperations.
#include "server/ApiServer.h"

#include <qcoro/qcorotask.h>

#include "api/ApiHandler.h"
#include "api/BulkWatchSession.h"
#include "api/OpenWatches.h"
#include "api/Route.h"
#include "api/Watcher.h"
#include "server/HttpRequestReader.h"
#include "server/WatchTransports.h"

namespace rvscope::server {
namespace {
// "127.0.0.1:54321" ("[::1]:54321" for IPv6), as an access log writes a client.
std::string peerAddress(const QWebSocket &socket)
{
    const QHostAddress address = socket.peerAddress();
    if (address.isNull())
        return {};
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also an IPv4-mapped IPv6 address
    const QString host = isV4 ? QHostAddress(v4).toString() : u'[' + address.toString() + u']';
    return (host + u':' + QString::number(socket.peerPort())).toStdString();
}
} // namespace

void ApiServer::handleWebSocketConnections()
{
    while (m_webSockets.hasPendingConnections()) {
        std::unique_ptr<QWebSocket> socket(m_webSockets.nextPendingConnection());
        if (!socket)
            continue;
        socket->setParent(nullptr); // owned here, not by the WebSocket server
        // Qt would buffer a client's unfinished message up to 2 GiB.
        socket->setMaxAllowedIncomingFrameSize(MAX_WEBSOCKET_MESSAGE_BYTES);
        socket->setMaxAllowedIncomingMessageSize(MAX_WEBSOCKET_MESSAGE_BYTES);
        // Every upgrade came through its connection's reader (gone only if the client left).
        HttpRequestReader *reader = HttpRequestReader::upgradedTo(*socket);
        if (!reader) {
            socket->abort();
            socket.release()->deleteLater();
            continue;
        }
        // The reader follows the client's frame heads ahead of Qt from now on.
        if (!reader->followWebSocket(socket.get())) {
            socket.release()->deleteLater(); // closed with 1002: it did not wait for the 101
            continue;
        }
        // The handshake (a GET) as the reader read it, as any request.
        api::ApiRequest request = reader->takeUpgradeRequest();
        if (api::resolveRoute(request.path, *m_handler->registry()).kind == api::Route::Kind::BulkGet) {
            serveBulkWatch(std::move(socket), std::move(request));
            continue;
        }
        request.query["watch"] = "true";
        QCoro::Task<api::ApiResponse> task = m_handler->handle(std::move(request));
        QPointer<ApiServer> self(this);
        auto shared = std::make_shared<std::unique_ptr<QWebSocket>>(std::move(socket));
        task.then([self, handler = m_handler, shared](api::ApiResponse response) {
            if (self)
                self->serveWebSocket(std::move(*shared), std::move(response));
            else if (response.watch)
                response.watch->close();
        });
    }
}

void ApiServer::serveWebSocket(std::unique_ptr<QWebSocket> socket, api::ApiResponse response)
{
    if (socket->state() != QAbstractSocket::ConnectedState) {
        // The client left while its request waited (an injected delay): no one to serve.
        if (response.watch)
            response.watch->close();
        socket.release()->deleteLater();
        return;
    }
    if (response.dropConnection) {
        // An injected drop: the socket closes without a message.
        if (response.watch)
            response.watch->close();
        socket->abort();
        socket.release()->deleteLater();
        return;
    }
    if (!response.watch) {
        // Not a watchable path (or a bad request): the Status, then close.
        socket->sendTextMessage(QString::fromStdString(response.body));
        socket->close();
        socket.release()->deleteLater();
        return;
    }
    std::shared_ptr<api::Watcher> watcher = response.watch;
    m_handler->openWatches().claim(watcher, this);
    std::weak_ptr<api::Watcher> weak = watcher;
    connect(socket.get(), &QWebSocket::disconnected, this, [weak] {
        if (auto live = weak.lock())
            live->close();
    });
    watcher->attach(std::make_shared<WebSocketWatchTransport>(std::move(socket)));
}

void ApiServer::serveBulkWatch(std::unique_ptr<QWebSocket> socket, api::ApiRequest handshake)
{
    // The session's user is whom the handshake authenticates; the session does the rest.
    auto user = m_handler->authenticate(handshake);
    if (!user) {
        nlohmann::json refusal = {{"requestId", nullptr}, {"error", user.error().toJson()}};
        socket->sendTextMessage(QString::fromStdString(refusal.dump()));
        socket->close();
        socket.release()->deleteLater();
        return;
    }
    constexpr qint64 MAX_BULK_FRAME_BYTES = 1024 * 1024;
    socket->setMaxAllowedIncomingFrameSize(MAX_BULK_FRAME_BYTES);
    socket->setMaxAllowedIncomingMessageSize(MAX_BULK_FRAME_BYTES);
    QWebSocket *key = socket.get();
    QPointer<QWebSocket> guarded(key);
    api::BulkWatchSession::Options options = m_bulkOptions;
    if (m_handler->accessControl())
        options.user = std::move(user).value();
    options.peer = peerAddress(*socket);
    options.agent = handshake.header("user-agent");
    options.client = handshake.header("x-rvscope-client");
    options.backlog = [guarded] { return guarded ? std::size_t(guarded->bytesToWrite()) : 0; };
    options.drop = [guarded] {
        if (guarded)
            guarded->abort(); // an injected drop: the connection goes, nothing more is sent
    };
    auto session = std::make_shared<api::BulkWatchSession>(m_handler, options, [guarded](const std::string &frame) {
        if (guarded)
            guarded->sendTextMessage(QString::fromStdString(frame));
    });
    m_bulkSessions[key] = BulkConnection{std::move(socket), session};
    std::weak_ptr<api::BulkWatchSession> weak = session;
    connect(key, &QWebSocket::textMessageReceived, this, [weak](const QString &message) {
        if (auto live = weak.lock())
            live->handleFrame(message.toStdString());
    });
    connect(key, &QWebSocket::binaryMessageReceived, this, [weak](const QByteArray &message) {
        if (auto live = weak.lock())
            live->handleFrame(message.toStdString());
    });
    QPointer<ApiServer> self(this);
    connect(key, &QWebSocket::disconnected, this, [self, key] {
        if (!self)
            return;
        auto it = self->m_bulkSessions.find(key);
        if (it == self->m_bulkSessions.end())
            return;
        it->second.session->close();
        it->second.socket.release()->deleteLater();
        self->m_bulkSessions.erase(it);
    });
}

std::vector<std::shared_ptr<api::BulkWatchSession>> ApiServer::bulkWatchSessions() const
{
    std::vector<std::shared_ptr<api::BulkWatchSession>> out;
    out.reserve(m_bulkSessions.size());
    for (const auto &[key, connection] : m_bulkSessions)
        out.push_back(connection.session);
    return out;
}

} // namespace rvscope::server
