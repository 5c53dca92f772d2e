// SPDX-License-Identifier: MIT
#include "server/ApiServer.h"

#include <algorithm>

#include <QtCore/QFile>
#include <QtHttpServer/QHttpServerRequest>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QNetworkRequest>
#include <QtNetwork/QTcpSocket>
#include <qcoro/qcorotask.h>

#include "api/AccessControl.h"
#include "api/ApiHandler.h"
#include "api/QueryString.h"
#include "api/Responses.h"
#include "api/Route.h"
#include "api/WatchStream.h"
#include "model/StatusErrors.h"
#include "server/HttpResponse.h"
#include "server/RequestHeadGuard.h"

namespace rvscope::server {
namespace {
// A watch ended because its client stopped reading: close the connection once what is
// queued has gone out, and drop it if the client still does not read.
void dropStalledConnection(QTcpSocket *socket)
{
    constexpr int ABORT_AFTER_MS = 30'000;
    socket->disconnectFromHost();
    QPointer<QTcpSocket> guarded(socket);
    QTimer::singleShot(ABORT_AFTER_MS, socket, [guarded] {
        if (guarded)
            guarded->abort();
    });
}

// The WebSocket handshake's request headers, lower-cased, as an ApiRequest carries them.
std::map<std::string, std::string> handshakeHeaders(const QWebSocket &socket)
{
    std::map<std::string, std::string> headers;
    const QNetworkRequest request = socket.request();
    for (const QByteArray &name : request.rawHeaderList())
        headers[name.toLower().toStdString()] = request.rawHeader(name).toStdString();
    return headers;
}

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

const char *methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get: return "GET";
    case QHttpServerRequest::Method::Put: return "PUT";
    case QHttpServerRequest::Method::Delete: return "DELETE";
    case QHttpServerRequest::Method::Post: return "POST";
    case QHttpServerRequest::Method::Head: return "HEAD";
    case QHttpServerRequest::Method::Options: return "OPTIONS";
    case QHttpServerRequest::Method::Patch: return "PATCH";
    default: return "UNKNOWN";
    }
}

std::string lowerCase(const QByteArray &text)
{
    std::string out(text.constData(), std::size_t(text.size()));
    for (char &c : out) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return out;
}

bool equalsIgnoringCase(std::string_view text, std::string_view lowerCaseWord)
{
    return text.size() == lowerCaseWord.size()
        && std::equal(text.begin(), text.end(), lowerCaseWord.begin(), [](char a, char b) {
               return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
           });
}

// The request as the API layer sees it. Headers are read once (each
// QHttpServerRequest::headers() call copies them all).
api::ApiRequest toApiRequest(const QHttpServerRequest &request)
{
    api::ApiRequest out;
    out.method = methodName(request.method());
    const QUrl url = request.url();
    out.path = url.path(QUrl::FullyDecoded).toStdString();
    // Decoded as Go decodes it ('+' is a space), from the query as the client encoded it.
    if (url.hasQuery())
        out.query = api::parseQueryString(url.query(QUrl::FullyEncoded).toStdString());
    for (const auto &[name, value] : request.headers())
        out.headers[lowerCase(name)] = value.toStdString();
    out.body = request.body().toStdString();
    return out;
}

QByteArray chunk(const std::string &line)
{
    // Every event ends in '\n': the Python client splits the stream on newlines.
    QByteArray out = QByteArray::number(qulonglong(line.size() + 1), 16);
    out += "\r\n";
    out.append(line.data(), qsizetype(line.size()));
    out += "\n\r\n";
    return out;
}
// The listening sockets hand each connection to a RequestHeadGuard before Qt's HTTP
// server takes it (QAbstractHttpServer calls nextPendingConnection() and only then
// connects its own reader), so the guard reads every request head first.
template<typename Base>
class GuardedServer final : public Base {
public:
    using Base::Base;
    QTcpSocket *nextPendingConnection() override
    {
        QTcpSocket *socket = Base::nextPendingConnection();
        if (socket)
            RequestHeadGuard::install(socket);
        return socket;
    }
};
} // namespace

ApiServer::ApiServer(std::shared_ptr<api::ApiHandler> handler, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_handler(std::move(handler))
{
    m_clock.start();
    connect(&m_idleSweep, &QTimer::timeout, this, &ApiServer::closeIdleConnections);
    // Qt accepts an upgrade only when this signal has a receiver.
    connect(this, &QAbstractHttpServer::newWebSocketConnection, this, &ApiServer::handleWebSocketConnections);
}

ApiServer::~ApiServer()
{
    closeWatches();
}

bool ApiServer::setTls(const QString &certificatePath, const QString &keyPath, QString *error)
{
    QFile certificateFile(certificatePath);
    QFile keyFile(keyPath);
    if (!certificateFile.open(QIODevice::ReadOnly) || !keyFile.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the TLS certificate %1 or key %2").arg(certificatePath, keyPath);
        return false;
    }
    const QSslCertificate certificate(&certificateFile, QSsl::Pem);
    QSslKey key(&keyFile, QSsl::Rsa, QSsl::Pem);
    if (key.isNull()) {
        keyFile.seek(0);
        key = QSslKey(&keyFile, QSsl::Ec, QSsl::Pem);
    }
    if (certificate.isNull() || key.isNull()) {
        *error = QStringLiteral("%1 is not a PEM certificate or %2 not a PEM RSA/EC private key").arg(certificatePath, keyPath);
        return false;
    }
    QSslConfiguration configuration;
    configuration.setLocalCertificate(certificate);
    configuration.setPrivateKey(key);
    configuration.setProtocol(QSsl::SecureProtocols);
    m_tls = configuration;
    return true;
}

quint16 ApiServer::start(const QHostAddress &address, quint16 port, QString *error)
{
    // What QAbstractHttpServer::listen() does, with servers that guard request heads.
    QTcpServer *server = nullptr;
    if (m_tls) {
        auto *tls = new GuardedServer<QSslServer>(this);
        tls->setSslConfiguration(*m_tls);
        server = tls;
    } else {
        server = new GuardedServer<QTcpServer>(this);
    }
    if (!server->listen(address, port)) {
        if (error)
            *error = server->errorString();
        delete server;
        m_port = 0;
        return 0;
    }
    bind(server);
    m_port = server->serverPort();
    return m_port;
}

void ApiServer::setMaxWatchBacklog(std::size_t bytes)
{
    m_maxWatchBacklog = bytes;
}

ApiServer::Connection &ApiServer::connection(QTcpSocket *socket)
{
    auto [it, added] = m_connections.try_emplace(socket);
    if (added) {
        // Once per connection: no request waits on Nagle/delayed ACK.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QObject::destroyed, this, [this, socket] { m_connections.erase(socket); });
        it->second.headGuard = socket->findChild<RequestHeadGuard *>(QString(), Qt::FindDirectChildrenOnly);
    }
    return it->second;
}

void ApiServer::markIdle(QTcpSocket *socket)
{
    if (m_idleTimeoutMs <= 0)
        return;
    connection(socket).idleSinceMs = m_clock.elapsed();
    if (!m_idleSweep.isActive())
        m_idleSweep.start(std::clamp(m_idleTimeoutMs / 3, 10, 1000));
}

void ApiServer::closeIdleConnections()
{
    const qint64 now = m_clock.elapsed();
    bool anyIdle = false;
    for (auto &[socket, state] : m_connections) {
        if (state.idleSinceMs < 0)
            continue;
        if (now - state.idleSinceMs >= m_idleTimeoutMs) {
            state.idleSinceMs = -1;
            socket->disconnectFromHost();
        } else {
            anyIdle = true;
        }
    }
    if (!anyIdle)
        m_idleSweep.stop();
}

bool ApiServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    Connection &state = connection(socket);
    state.idleSinceMs = -1; // busy until its response is out
    if (state.headGuard)
        state.headGuard->nextRequest(); // Qt's parser has the whole request
    api::ApiRequest apiRequest = toApiRequest(request);
    // An upgrade is answered by Qt; the watch starts in handleWebSocketConnections().
    if (equalsIgnoringCase(apiRequest.header("upgrade"), "websocket"))
        return true;
    const bool keepAlive = !equalsIgnoringCase(apiRequest.header("connection"), "close");
    QPointer<QTcpSocket> guarded(socket);
    // The handler runs to completion at once unless a write waits (the lab's processing
    // delay, a remote storage); the socket is guarded for the late case.
    QCoro::Task<api::ApiResponse> task = m_handler->handle(std::move(apiRequest));
    QPointer<ApiServer> self(this);
    task.then([self, guarded, keepAlive](api::ApiResponse response) {
        if (self)
            self->respond(guarded, std::move(response), keepAlive);
    });
    return true;
}

void ApiServer::respond(QPointer<QTcpSocket> socket, api::ApiResponse response, bool keepAlive)
{
    if (!socket) {
        if (response.watch)
            response.watch->close();
        return;
    }
    if (response.watch && openWatchCount() >= m_maxWatches) {
        response.watch->close();
        response = api::statusResponse(model::errors::tooManyRequests(
            "too many open watches (" + std::to_string(m_maxWatches) + "), please try again later", 1));
    }
    if (response.watch) {
        startWatch(socket, std::move(response.watch));
        return;
    }
    socket->write(HttpResponse::from(std::move(response)).serialize(keepAlive));
    if (!keepAlive) {
        socket->flush();
        socket->disconnectFromHost();
        return;
    }
    markIdle(socket.data());
    // Sent once every request of this event-loop pass has been answered, before the next
    // poll: the responses leave back to back, so a client waiting on several of them is
    // woken once instead of once per response (and no poll round waits on writability).
    m_unflushed.push_back(socket);
    if (m_unflushed.size() == 1)
        QMetaObject::invokeMethod(this, &ApiServer::flushResponses, Qt::QueuedConnection);
}

void ApiServer::flushResponses()
{
    std::vector<QPointer<QTcpSocket>> sockets;
    sockets.swap(m_unflushed);
    for (const QPointer<QTcpSocket> &socket : sockets) {
        if (socket)
            socket->flush();
    }
}

void ApiServer::startWatch(QPointer<QTcpSocket> socket, std::shared_ptr<api::WatchStream> stream)
{
    // Headers go out at once so that clients unblock before the first event.
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-cache, private\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n");
    QTcpSocket *key = socket.data();
    m_watches[key] = OpenWatch{socket, stream};
    QPointer<ApiServer> self(this);
    connect(socket.data(), &QTcpSocket::disconnected, this, [self, key] {
        if (!self)
            return;
        auto it = self->m_watches.find(key);
        if (it != self->m_watches.end()) {
            it->second.stream->close();
            self->m_watches.erase(it);
        }
    });
    std::weak_ptr<api::WatchStream> weakStream = stream;
    stream->attach(
        [socket](const std::string &line) {
            if (socket)
                socket->write(chunk(line));
        },
        [self, socket, key, weakStream] {
            if (socket) {
                socket->write("0\r\n\r\n");
                auto ended = weakStream.lock();
                if (ended && ended->endedTooSlow())
                    dropStalledConnection(socket.data());
                else if (self)
                    self->markIdle(socket.data()); // an ordinary keep-alive connection again
            }
            if (self)
                self->m_watches.erase(key);
        },
        api::WatchStream::BacklogLimit{[socket] { return socket ? std::size_t(socket->bytesToWrite()) : 0; },
                                       m_maxWatchBacklog});
}

void ApiServer::handleWebSocketConnections()
{
    while (hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> socket = nextPendingWebSocketConnection();
        if (!socket)
            continue;
        const QUrl url = socket->requestUrl();
        const std::string path = url.path(QUrl::FullyDecoded).toStdString();
        if (api::resolveRoute(path, *m_handler->registry()).kind == api::Route::Kind::BulkGet) {
            serveBulkWatch(std::move(socket));
            continue;
        }
        api::ApiRequest request;
        request.method = "GET";
        request.path = url.path(QUrl::FullyDecoded).toStdString();
        request.query = api::parseQueryString(url.query(QUrl::FullyEncoded).toStdString());
        request.query["watch"] = "true";
        request.headers = handshakeHeaders(*socket);
        QCoro::Task<api::ApiResponse> task = m_handler->handle(std::move(request));
        QPointer<ApiServer> self(this);
        auto shared = std::make_shared<std::unique_ptr<QWebSocket>>(std::move(socket));
        task.then([self, shared](api::ApiResponse response) {
            if (self)
                self->serveWebSocket(std::move(*shared), std::move(response));
        });
    }
}

void ApiServer::serveWebSocket(std::unique_ptr<QWebSocket> socket, api::ApiResponse response)
{
    if (response.watch && openWatchCount() >= m_maxWatches) {
        response.watch->close();
        response.watch.reset();
        response.body = model::errors::tooManyRequests("too many open watches, please try again later", 1).dump();
    }
    if (!response.watch) {
        // Not a watchable path (or a bad request): the Status, then close.
        socket->sendTextMessage(QString::fromStdString(response.body));
        socket->close();
        socket.release()->deleteLater();
        return;
    }
    QWebSocket *key = socket.get();
    QPointer<QWebSocket> guarded(key);
    std::shared_ptr<api::WatchStream> stream = response.watch;
    m_webSocketWatches[key] = WebSocketWatch{std::move(socket), stream};
    QPointer<ApiServer> self(this);
    auto forget = [self, key] {
        if (!self)
            return;
        auto it = self->m_webSocketWatches.find(key);
        if (it == self->m_webSocketWatches.end())
            return;
        it->second.stream->close();
        it->second.socket.release()->deleteLater();
        self->m_webSocketWatches.erase(it);
    };
    connect(key, &QWebSocket::disconnected, this, forget);
    stream->attach(
        [guarded](const std::string &line) {
            if (guarded)
                guarded->sendTextMessage(QString::fromStdString(line + '\n'));
        },
        [guarded] {
            if (guarded)
                guarded->close();
        },
        api::WatchStream::BacklogLimit{[guarded] { return guarded ? std::size_t(guarded->bytesToWrite()) : 0; },
                                       m_maxWatchBacklog});
}

void ApiServer::serveBulkWatch(std::unique_ptr<QWebSocket> socket)
{
    // The session's user comes from the handshake's token; each channel is authorized as a
    // "watch" of that user, and re-authorized with every other watch (recheckBulkWatches).
    bulk::BulkWatchSession::Options options = m_bulkOptions;
    options.bookmarkIntervalMs = m_handler->options().bookmarkIntervalMs;
    if (const std::shared_ptr<api::AccessControl> &access = m_handler->accessControl()) {
        api::ApiRequest handshake;
        handshake.headers = handshakeHeaders(*socket);
        auto user = access->authenticate(handshake);
        if (!user) {
            nlohmann::json refusal = {{"requestId", nullptr}, {"error", user.error().toJson()}};
            socket->sendTextMessage(QString::fromStdString(refusal.dump()));
            socket->close();
            socket.release()->deleteLater();
            return;
        }
        options.user = user->name;
        std::weak_ptr<api::AccessControl> weakAccess = access;
        options.authorize = [weakAccess](const std::string &name, const std::string &verb, const std::string &group,
                                         const std::string &resource, const std::string &ns,
                                         const std::string &object) -> std::optional<model::Status> {
            auto shared = weakAccess.lock();
            if (!shared)
                return std::nullopt;
            return shared->authorizeBulk(name, verb, group, resource, ns, object);
        };
    }
    constexpr qint64 MAX_BULK_FRAME_BYTES = 1024 * 1024;
    socket->setMaxAllowedIncomingFrameSize(MAX_BULK_FRAME_BYTES);
    socket->setMaxAllowedIncomingMessageSize(MAX_BULK_FRAME_BYTES);
    QWebSocket *key = socket.get();
    QPointer<QWebSocket> guarded(key);
    options.peer = peerAddress(*socket);
    options.backlog = [guarded] { return guarded ? std::size_t(guarded->bytesToWrite()) : 0; };
    options.maxBacklogBytes = m_maxWatchBacklog;
    // Each channel is journaled as a watch of client "bulk:<user>", its events as deliveries.
    std::weak_ptr<api::ApiHandler> weakHandler = m_handler;
    options.onChannelOpened = [weakHandler](const bulk::BulkWatchSession::ChannelInfo &channel) -> std::uint64_t {
        auto handler = weakHandler.lock();
        if (!handler)
            return 0;
        std::string key = channel.resource.resource;
        if (!channel.namespaceName.empty())
            key += '/' + channel.namespaceName;
        if (!channel.name.empty())
            key += '/' + channel.name;
        return handler->reportWatch("bulk:" + channel.user, key, channel.resourceVersion);
    };
    options.onDelivered = [weakHandler](const bulk::BulkWatchSession::ChannelInfo &channel,
                                        const registry::WatchEvent &event) {
        if (auto handler = weakHandler.lock())
            handler->reportDelivery(channel.journalId, channel.resource.resource, event);
    };
    auto session = std::make_shared<bulk::BulkWatchSession>(m_handler->registry(), options,
                                                             [guarded](const std::string &frame) {
                                                                 if (guarded)
                                                                     guarded->sendTextMessage(
                                                                         QString::fromStdString(frame));
                                                             });
    m_bulkSessions[key] = BulkConnection{std::move(socket), session};
    std::weak_ptr<bulk::BulkWatchSession> weak = session;
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

int ApiServer::recheckBulkWatches()
{
    const std::shared_ptr<api::AccessControl> &access = m_handler->accessControl();
    if (!access)
        return 0;
    int closed = 0;
    for (const auto &session : bulkWatchSessions()) {
        for (const bulk::BulkWatchSession::ChannelInfo &channel : session->channels()) {
            if (auto denied = access->authorizeBulk(channel.user, "watch", channel.resource.group,
                                                    channel.resource.resource, channel.namespaceName, channel.name)) {
                closed += session->closeChannel(channel.channel, *denied) ? 1 : 0;
            }
        }
    }
    return closed;
}

std::vector<std::shared_ptr<bulk::BulkWatchSession>> ApiServer::bulkWatchSessions() const
{
    std::vector<std::shared_ptr<bulk::BulkWatchSession>> out;
    out.reserve(m_bulkSessions.size());
    for (const auto &[key, connection] : m_bulkSessions)
        out.push_back(connection.session);
    return out;
}

void ApiServer::closeWatches()
{
    auto bulkSessions = std::move(m_bulkSessions);
    m_bulkSessions.clear();
    for (auto &[key, connection] : bulkSessions) {
        connection.session->close();
        connection.socket->close();
    }
    // Moved out first: closing a socket runs its disconnected handler, which edits the map.
    auto webSocketWatches = std::move(m_webSocketWatches);
    m_webSocketWatches.clear();
    for (auto &[key, watch] : webSocketWatches) {
        watch.stream->close();
        watch.socket->close();
    }
    // End each stream through its own end callback (terminating chunk), then forget them.
    auto watches = std::move(m_watches);
    m_watches.clear();
    for (auto &[key, watch] : watches) {
        watch.stream->close();
        if (watch.socket) {
            watch.socket->write("0\r\n\r\n");
            watch.socket->flush();
        }
    }
}

void ApiServer::missingHandler(const QHttpServerRequest &, QTcpSocket *socket)
{
    socket->write(HttpResponse::from(api::statusResponse(model::errors::pathNotFound())).serialize(true));
}

} // namespace rvscope::server
