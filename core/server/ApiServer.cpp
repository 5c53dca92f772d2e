// SPDX-License-Identifier: MIT
#include "server/ApiServer.h"

#include <algorithm>

#include <QtCore/QFile>
#include <QtNetwork/QSslCertificate>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslKey>
#include <QtNetwork/QSslServer>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <qcoro/qcorotask.h>

#include "api/ApiHandler.h"
#include "api/QueryString.h"
#include "api/Responses.h"
#include "api/BulkWatchSession.h"
#include "api/OpenWatches.h"
#include "api/Watcher.h"
#include "model/StatusErrors.h"
#include "server/HttpRequestReader.h"
#include "server/HttpResponse.h"
#include "server/LargeAnswers.h"
#include "server/WatchTransports.h"

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

bool isMutating(std::string_view method)
{
    return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}
} // namespace

ApiServer::ApiServer(std::shared_ptr<api::ApiHandler> handler, QObject *parent)
    : QObject(parent)
    , m_handler(std::move(handler))
{
    m_connectionCount->max = m_limits.maxConnections;
    m_connectionCount->headTimeoutMs = m_limits.requestHeadTimeoutMs;
    m_connectionCount->bodyTimeoutMs = m_limits.requestTimeoutMs;
    m_clock.start();
    connect(&m_idleSweep, &QTimer::timeout, this, &ApiServer::closeIdleConnections);
    connect(&m_webSockets, &QWebSocketServer::newConnection, this, &ApiServer::handleWebSocketConnections);
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
    QTcpServer *server = nullptr;
    if (m_tls) {
        auto *tls = new QSslServer(this);
        tls->setSslConfiguration(*m_tls);
        server = tls;
    } else {
        server = new QTcpServer(this);
    }
    server->setListenBacklogSize(LISTEN_BACKLOG);
    if (!server->listen(address, port)) {
        if (error)
            *error = server->errorString();
        delete server;
        m_port = 0;
        return 0;
    }
    // (A TLS connection is pending once its handshake is done.)
    connect(server, &QTcpServer::pendingConnectionAvailable, this, [this, server] { acceptConnections(server); });
    m_port = server->serverPort();
    return m_port;
}


void ApiServer::acceptConnections(QTcpServer *server)
{
    while (QTcpSocket *socket = server->nextPendingConnection()) {
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        HttpRequestReader *reader = HttpRequestReader::install(
            socket, {m_connectionCount->headTimeoutMs, m_connectionCount->bodyTimeoutMs},
            [this, socket](api::ApiRequest request, bool upgrade, Persistence persistence) {
                return handleRequest(socket, std::move(request), upgrade, persistence);
            },
            &m_webSockets);
        ++m_connectionCount->open;
        // The reader goes with the socket (its child), and its destroyed signal stays
        // connected when QWebSocket, letting the socket go, disconnects every receiver of the
        // socket's own. A connection past the bound is still accepted (the kernel has it
        // anyway), and its reader answers its first request 429 and closes it.
        connect(reader, &QObject::destroyed, server, [count = m_connectionCount] { --count->open; });
        if (m_connectionCount->max != 0 && m_connectionCount->open > m_connectionCount->max)
            reader->refuseConnection(model::errors::tooManyRequests(
                "too many open connections (" + std::to_string(m_connectionCount->max) + "), please try again later", 1));
    }
}

ApiServer::Connection &ApiServer::connection(QTcpSocket *socket)
{
    auto [it, added] = m_connections.try_emplace(socket);
    // A socket at the address of one that is gone (its destroyed signal never reached us) is
    // a new connection too.
    if (added || !it->second.socket) {
        it->second = Connection();
        it->second.socket = socket;
        // Once per connection: no request waits on Nagle/delayed ACK.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QObject::destroyed, this, [this, socket] { m_connections.erase(socket); });
        it->second.reader = socket->findChild<HttpRequestReader *>(QString(), Qt::FindDirectChildrenOnly);
        if (it->second.reader) {
            it->second.reader->holdRefusalsWhile([self = QPointer<ApiServer>(this), socket] {
                const Connection *state = self ? self->liveConnection(socket) : nullptr;
                return state && (state->answering || !state->waiting.empty());
            });
        }
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
        if (state.idleSinceMs < 0 || !state.socket)
            continue;
        if (now - state.idleSinceMs >= m_idleTimeoutMs) {
            state.idleSinceMs = -1;
            state.socket->disconnectFromHost();
        } else {
            anyIdle = true;
        }
    }
    if (!anyIdle)
        m_idleSweep.stop();
}

bool ApiServer::handleRequest(QTcpSocket *socket, api::ApiRequest apiRequest, bool upgrade, Persistence persistence)
{
    Connection &state = connection(socket);
    state.idleSinceMs = -1; // busy until its response is out
    // A WebSocket upgrade (Upgrade: websocket and the Connection token "upgrade"; an Upgrade
    // field alone is an ordinary request, as for Go) goes to the WebSocket server, which
    // answers its handshake; the WebSocket's own watch or bulk session starts in
    // handleWebSocketConnections().
    if (upgrade) {
        // (The reader holds an upgrade until the answers before it are out, as Go reads
        // it only then; were one still owed, the 101 could not come after it: closed.)
        if (state.answering || !state.waiting.empty())
            return false;
        m_connections.erase(socket);
        return true;
    }
    if (state.answering || !state.waiting.empty()) {
        state.waitingBytes += apiRequest.body.size();
        if (state.waiting.size() >= MAX_WAITING_REQUESTS || state.waitingBytes > MAX_WAITING_REQUEST_BYTES) {
            state.waiting.clear(); // a flood of pipelined requests: the connection goes
            socket->abort();
            return true;
        }
        state.waiting.push_back({std::make_unique<api::ApiRequest>(std::move(apiRequest)), persistence});
        return true;
    }
    state.answering = true;
    answer(socket, std::move(apiRequest), persistence);
    return true;
}

ApiServer::Connection *ApiServer::liveConnection(const QTcpSocket *socket)
{
    // (An entry whose socket is gone may outlive it: Qt's upgrade disconnects the socket's
    // destroyed signal too. A new socket at its address is not it.)
    const auto it = m_connections.find(const_cast<QTcpSocket *>(socket));
    return it != m_connections.end() && it->second.socket == socket ? &it->second : nullptr;
}

void ApiServer::answerWaiting(QTcpSocket *socket)
{
    // A loop, not a recursion: requests answered at once follow one another here.
    Connection *state = liveConnection(socket);
    if (!state || state->draining)
        return;
    state->draining = true;
    while (state && !state->answering && !state->waiting.empty()) {
        Waiting next = std::move(state->waiting.front());
        state->waiting.erase(state->waiting.begin()); // (at most MAX_WAITING_REQUESTS)
        state->waitingBytes -= std::min(state->waitingBytes, next.request->body.size());
        state->answering = true;
        state->idleSinceMs = -1;
        answer(socket, std::move(*next.request), next.persistence);
        state = liveConnection(socket); // answering may have added connections
    }
    if (state)
        state->draining = false;
    settleIfOwedNothing(socket);
}

void ApiServer::answered(QTcpSocket *socket)
{
    Connection *state = liveConnection(socket);
    if (!state)
        return;
    state->answering = false;
    if (!state->draining && !state->waiting.empty())
        answerWaiting(socket);
    settleIfOwedNothing(socket);
}

void ApiServer::timeWaitingHead(QTcpSocket *socket)
{
    if (const Connection *state = liveConnection(socket); state && state->reader)
        state->reader->startWaitingHeadTimer();
}

void ApiServer::settleIfOwedNothing(QTcpSocket *socket)
{
    // A request the reader refused behind the ones answered gets its answer now.
    const Connection *state = liveConnection(socket);
    if (state && state->reader && !state->answering && !state->draining && state->waiting.empty())
        state->reader->answersSettled();
}

void ApiServer::answer(QTcpSocket *socket, api::ApiRequest request, Persistence persistence)
{
    // The requests one event-loop pass reads from its connections are all in flight at
    // once, so any order among them is linearizable (only a connection's own order is
    // fixed, and its next request waits for this answer). Reads go last: a GET then sees
    // the writes that arrived beside it, and a controller's next PUT carries the current
    // resourceVersion instead of earning a 409 (hot key at 8 clients: 76% of PUTs
    // conflicting instead of 80%). Answered at the pass's end, before its flush, a read
    // waits for no poll.
    if (request.method == "GET") {
        m_deferredReads.push_back({QPointer<QTcpSocket>(socket), std::move(request), persistence});
        schedulePassEnd();
        return;
    }
    answerNow(socket, std::move(request), persistence);
}

void ApiServer::answerNow(QTcpSocket *socket, api::ApiRequest request, Persistence persistence)
{
    QPointer<QTcpSocket> guarded(socket);
    const bool head = request.method == "HEAD";
    // The apiserver's max-in-flight filter: mutating and other requests counted apart, and
    // long-running ones (watches) not at all (its BasicLongRunningRequestCheck; they have
    // --max-watches-per-user). A watch whose start waits (on etcd) had taken a slot, so
    // a thousand watchers opened at once got 429s.
    const bool mutating = isMutating(request.method);
    const bool counted = mutating || !m_handler->isLongRunning(request);
    std::size_t &inFlight = mutating ? m_mutatingInFlight : m_readsInFlight;
    const std::size_t max = mutating ? m_limits.maxMutatingRequestsInFlight : m_limits.maxRequestsInFlight;
    if (counted && max != 0 && inFlight >= max) {
        respond(guarded, api::statusResponse(model::errors::tooManyRequests("Too many requests, please try again later.", 1)),
                persistence, head);
        return;
    }
    if (counted)
        ++inFlight;
    // The handler runs to completion at once unless a write waits (the lab's processing
    // delay, a remote storage); the socket is guarded for the late case.
    QCoro::Task<api::ApiResponse> task = m_handler->handle(std::move(request));
    QPointer<ApiServer> self(this);
    // The handler stays alive until its answer is in (an injected delay may outlive this
    // server: a scenario run replaces the core); an answer nobody takes closes its watch.
    task.then([self, handler = m_handler, guarded, persistence, head, mutating, counted](api::ApiResponse response) {
        if (!self) {
            if (response.watch)
                response.watch->close();
            return;
        }
        if (counted)
            --(mutating ? self->m_mutatingInFlight : self->m_readsInFlight);
        self->respond(guarded, std::move(response), persistence, head);
    });
}

void ApiServer::respond(QPointer<QTcpSocket> socket, api::ApiResponse response, Persistence persistence, bool head)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
        // Gone or closed (the client left, a flood of pipelined requests).
        if (response.watch)
            response.watch->close();
        return;
    }
    if (response.dropConnection) {
        // An injected drop: the connection closes without a reply (a write the handler ran
        // has landed all the same), as when a load balancer or the apiserver dies mid-request.
        if (response.watch)
            response.watch->close();
        socket->flush(); // the answers before it, still in Qt's buffer, are out
        socket->abort();
        return;
    }
    if (response.watch) {
        startWatch(socket, std::move(response.watch), persistence);
        return;
    }
    HttpResponse http = HttpResponse::from(std::move(response));
    http.omitBody = head;
    writeAnswer(socket.data(), std::move(http), persistence, this);
    if (closes(persistence)) {
        timeWaitingHead(socket.data());
        socket->flush();
        socket->disconnectFromHost();
        return;
    }
    markIdle(socket.data());
    answered(socket.data());
    // Sent once every request of this event-loop pass has been answered, before the next
    // poll: the responses leave back to back, so a client waiting on several of them is
    // woken once instead of once per response (and no poll round waits on writability).
    m_unflushed.push_back(socket);
    schedulePassEnd();
}

void ApiServer::schedulePassEnd()
{
    if (m_passEndQueued)
        return;
    m_passEndQueued = true;
    QMetaObject::invokeMethod(this, &ApiServer::endPass, Qt::QueuedConnection);
}

void ApiServer::endPass()
{
    // (Still queued while it runs: what the reads answer here is flushed here too.)
    std::vector<DeferredRead> reads;
    reads.swap(m_deferredReads);
    for (DeferredRead &read : reads) {
        // A connection closed meanwhile (the client left, an injected drop, a flood of
        // pipelined requests) is owed nothing: its read is not run.
        if (read.socket && read.socket->state() == QAbstractSocket::ConnectedState && liveConnection(read.socket.data()))
            answerNow(read.socket.data(), std::move(read.request), read.persistence);
    }
    std::vector<QPointer<QTcpSocket>> sockets;
    sockets.swap(m_unflushed);
    for (const QPointer<QTcpSocket> &socket : sockets) {
        if (socket)
            socket->flush();
    }
    m_passEndQueued = false;
    if (!m_deferredReads.empty() || !m_unflushed.empty()) // a pipelined GET behind one answered here
        schedulePassEnd();
}

void ApiServer::startWatch(QPointer<QTcpSocket> socket, std::shared_ptr<api::Watcher> watcher, Persistence persistence)
{
    // Headers go out at once so that clients unblock before the first event. HTTP/1.0 has no
    // chunks: as from Go's server, the lines go out bare and the connection's end ends them.
    const bool http10 = isHttp10(persistence);
    QByteArray head = http10 ? "HTTP/1.0 200 OK\r\n" : "HTTP/1.1 200 OK\r\n";
    head += "Content-Type: application/json\r\nCache-Control: no-cache, private\r\n";
    if (persistence == Persistence::Close)
        head += "Connection: close\r\n";
    if (!http10)
        head += "Transfer-Encoding: chunked\r\n";
    socket->write(head + "\r\n");
    m_handler->openWatches().claim(watcher, this);
    std::weak_ptr<api::Watcher> weak = watcher;
    connect(socket.data(), &QTcpSocket::disconnected, this, [weak] {
        if (auto live = weak.lock())
            live->close();
    });
    QPointer<ApiServer> self(this);
    auto onEnd = [self, socket, persistence](bool tooSlow) {
        if (!socket)
            return;
        if (tooSlow) {
            dropStalledConnection(socket.data());
        } else if (persistence != Persistence::KeepAlive) { // HTTP/1.0's stream ends with the connection
            if (self)
                self->timeWaitingHead(socket.data());
            socket->disconnectFromHost();
        } else if (self) {
            self->markIdle(socket.data()); // an ordinary keep-alive connection again
            // The next request waits for the pass after: the watch ending is still
            // running, and it counts against the watch limits until it is done.
            QMetaObject::invokeMethod(
                self, [self, socket] {
                    if (socket)
                        self->answered(socket.data());
                },
                Qt::QueuedConnection);
        }
    };
    watcher->attach(std::make_shared<HttpWatchTransport>(
        socket, http10 ? HttpWatchTransport::Framing::BareLines : HttpWatchTransport::Framing::Chunked, std::move(onEnd)));
}

void ApiServer::closeWatches()
{
    // Moved out first: closing a socket runs its disconnected handler, which edits the map.
    auto bulkSessions = std::move(m_bulkSessions);
    m_bulkSessions.clear();
    for (auto &[key, connection] : bulkSessions) {
        connection.session->close();
        connection.socket->close();
    }
    // Every watch this server carries ends through its transport: a chunked stream with its
    // terminating chunk, a WebSocket closing.
    m_handler->openWatches().endAll(this);
}

std::size_t ApiServer::openWatchCount() const
{
    return m_handler->openWatches().countOf(this);
}

} // namespace rvscope::server
