// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <unordered_map>
#include <memory>
#include <optional>
#include <vector>

#include <QtCore/QElapsedTimer>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtNetwork/QHostAddress>
#include <QtNetwork/QSslConfiguration>
#include <QtWebSockets/QWebSocket>
#include <QtWebSockets/QWebSocketServer>

#include "api/ApiTypes.h"
#include "api/BulkWatchSession.h"
#include "server/HttpResponse.h"
#include "server/ServerLimits.h"

class QTcpServer;

namespace rvscope::api {
class ApiHandler;
class Watcher;
}

namespace rvscope::server {

class HttpRequestReader;

// The HTTP/1.1 transport of the Kubernetes-compatible API: each connection's requests are
// read by a HttpRequestReader (rvscope's HTTP/1.1 reader), which hands them over as
// api::ApiRequests; the server runs the ApiHandler, and writes the response in one socket write
// (TCP_NODELAY on every connection, so no request waits on Nagle/delayed ACK). Watch
// responses become chunked streams of newline-terminated JSON events that end on timeout,
// on an ERROR event, when the client leaves, or at shutdown.
//
// Lives in, and must only be used from, the thread that created it (the core thread).
class ApiServer final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)

public:
    explicit ApiServer(std::shared_ptr<api::ApiHandler> handler, QObject *parent = nullptr);
    void setIdleTimeout(int milliseconds) { m_idleTimeoutMs = milliseconds; }
    // Bounds on connections and requests in flight (call before start()).
    void setLimits(const Limits &limits)
    {
        m_limits = limits;
        m_connectionCount->max = limits.maxConnections;
        m_connectionCount->headTimeoutMs = limits.requestHeadTimeoutMs;
        m_connectionCount->bodyTimeoutMs = limits.requestTimeoutMs;
        m_bulkOptions.maxChannels = limits.maxBulkChannels;
    }
    std::size_t openConnectionCount() const { return m_connectionCount->open; }
    // Open connections against their bound; shared with the listening sockets, which may
    // outlive a socket's count by a little.
    struct ConnectionCount {
        std::size_t open = 0;
        std::size_t max = 0;
        int headTimeoutMs = HEAD_READ_TIMEOUT_MS; // what each connection's HttpRequestReader waits
        int bodyTimeoutMs = REQUEST_TIMEOUT_MS;   // for a head, and for a body after its head
    };
    // Serves HTTPS with this PEM certificate and key (call before start()). False with
    // `error` set when they cannot be read.
    bool setTls(const QString &certificatePath, const QString &keyPath, QString *error);
    ~ApiServer() override;

    // Binds and starts accepting. Returns the bound port, or 0 with `error` set.
    quint16 start(const QHostAddress &address, quint16 port, QString *error = nullptr);
    quint16 port() const { return m_port; }
    // Ends every watch this server carries (a chunked stream with its terminating chunk) and
    // every bulk session.
    void closeWatches();
    // The watch requests (HTTP and WebSocket) this server carries; the handler's
    // OpenWatches holds them, bulk channels and in-process watches too.
    std::size_t openWatchCount() const;

    // A WebSocket on /apis/bulk.k8s.io/v1/bulkgetoperations is a bulk watch session (one per
    // connection, see api/BulkWatchSession.h); these options apply to sessions opened later.
    void setBulkWatchOptions(api::BulkWatchSession::Options options) { m_bulkOptions = std::move(options); }
    // The open sessions (introspection).
    std::vector<std::shared_ptr<api::BulkWatchSession>> bulkWatchSessions() const;

private:
    // Each new connection gets its reader (HttpRequestReader), and counts against the bound.
    void acceptConnections(QTcpServer *server);
    // A request the connection's reader read whole. An upgrade returns whether the
    // connection goes on to the WebSocket server (false: it closes).
    bool handleRequest(QTcpSocket *socket, api::ApiRequest request, bool upgrade, Persistence persistence);
    // `head`: the request was HEAD (the answer carries no body).
    void respond(QPointer<QTcpSocket> socket, api::ApiResponse response, Persistence persistence, bool head);
    // The end of an event-loop pass (queued once per pass): answers the reads it deferred,
    // then writes out its responses.
    void endPass();
    void schedulePassEnd();
    // Watch over WebSocket on the same paths: one text message per event (wire contract §7).
    void handleWebSocketConnections();
    void serveWebSocket(std::unique_ptr<QWebSocket> socket, api::ApiResponse response);
    void startWatch(QPointer<QTcpSocket> socket, std::shared_ptr<api::Watcher> watcher, Persistence persistence);
    void serveBulkWatch(std::unique_ptr<QWebSocket> socket, api::ApiRequest handshake);
    // Per keep-alive connection: idle since when (-1 while a request is in flight or a
    // watch streams). One sweep timer closes connections idle past the timeout, so that a
    // request costs no timer registration.
    // A connection's requests are answered one at a time, in order, as Go's server does
    // (the reader hands over pipelined requests at once): one pipelined behind a request
    // still being answered (a write waiting for its commit, a watch) waits for that answer.
    // HTTP/1.1 answers in request order, and a GET behind a PUT must see the PUT's write.
    struct Waiting {
        std::unique_ptr<api::ApiRequest> request;
        Persistence persistence = Persistence::KeepAlive;
    };
    struct Connection {
        QPointer<QTcpSocket> socket;
        qint64 idleSinceMs = -1;
        QPointer<HttpRequestReader> reader; // the socket's child
        std::vector<Waiting> waiting;         // (a vector: empty, it allocates nothing)
        std::size_t waitingBytes = 0;         // their bodies
        bool answering = false; // a request's answer (or watch) is not complete yet
        bool draining = false;  // answerWaiting() is running for it
    };
    Connection &connection(QTcpSocket *socket);
    // The socket's entry, or null (none, or one left by a socket that is gone).
    Connection *liveConnection(const QTcpSocket *socket);
    // Answers the connection's waiting requests while each is answered at once.
    void answerWaiting(QTcpSocket *socket);
    // Answers a request now, or a GET at the pass's end (after the pass's writes).
    void answer(QTcpSocket *socket, api::ApiRequest request, Persistence persistence);
    void answerNow(QTcpSocket *socket, api::ApiRequest request, Persistence persistence);
    // The connection's current answer is complete: on to the next request, if one waits.
    void answered(QTcpSocket *socket);
    // Nothing owed on the connection any more: a refusal its reader held is written.
    void settleIfOwedNothing(QTcpSocket *socket);
    // The connection closes after its answer: a head begun behind it is timed from now.
    void timeWaitingHead(QTcpSocket *socket);
    void markIdle(QTcpSocket *socket);
    void closeIdleConnections();

    std::shared_ptr<api::ApiHandler> m_handler;
    // Answers the opening handshake of the upgrades the readers hand over.
    QWebSocketServer m_webSockets{QStringLiteral("rvscope"), QWebSocketServer::NonSecureMode};
    std::optional<QSslConfiguration> m_tls; // setTls()
    quint16 m_port = 0;
    int m_idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
    std::unordered_map<QTcpSocket *, Connection> m_connections;
    QElapsedTimer m_clock;
    QTimer m_idleSweep;
    std::vector<QPointer<QTcpSocket>> m_unflushed;
    struct DeferredRead {
        QPointer<QTcpSocket> socket;
        api::ApiRequest request;
        Persistence persistence = Persistence::KeepAlive;
    };
    std::vector<DeferredRead> m_deferredReads; // this pass's GETs, answered after its writes
    bool m_passEndQueued = false;
    struct BulkConnection {
        std::unique_ptr<QWebSocket> socket;
        std::shared_ptr<api::BulkWatchSession> session;
    };
    std::map<QWebSocket *, BulkConnection> m_bulkSessions;
    api::BulkWatchSession::Options m_bulkOptions;
    Limits m_limits;
    std::shared_ptr<ConnectionCount> m_connectionCount = std::make_shared<ConnectionCount>();
    std::size_t m_readsInFlight = 0;
    std::size_t m_mutatingInFlight = 0;
};

} // namespace rvscope::server
