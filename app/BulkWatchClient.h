// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>

#include <QtCore/QObject>
#include <QtCore/QTimer>
#include <QtNetwork/QSslConfiguration>
#include <QtWebSockets/QWebSocket>

#include "CommandLine.h"

class QNetworkAccessManager;
class QNetworkReply;

namespace rvscope::app {

// The terminal client of the bulk watch protocol (README "Bulk watch protocol"): one
// websocket on /apis/bulk.k8s.io/v1/bulkgetoperations, one watch request per --watch (ids
// 1..N in --watch order), and one stdout line per server frame (readable, or verbatim with
// --json), flushed at once. When a --watch names a group without a version, GET /apis
// resolves the group's preferred version first.
//
// Emits finished(exitCode) once, after which it does nothing more:
//   Ended (0)      every request was answered and every opened channel ended (at least one
//                  opened), the server closed the socket normally, or stop() was called;
//   Failed (1)     the session started but went wrong: every request was rejected, or the
//                  connection was lost;
//   NotStarted (2) no session: the server is unreachable, TLS failed, the token was
//                  rejected (401), discovery failed or does not know a --watch's group.
// Errors go to stderr as one line each. Runs on the thread's event loop; start() once.
class BulkWatchClient final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BulkWatchClient)

public:
    enum ExitCode { Ended = 0, Failed = 1, NotStarted = 2 };

    BulkWatchClient(BulkWatchOptions options, const QSslConfiguration &tls, QObject *parent = nullptr);
    ~BulkWatchClient() override;

    void start();
    // Closes the socket (which closes every channel on the server) and finishes with Ended.
    void stop();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void resolveVersions();
    void handleDiscoveryReply(QNetworkReply *reply);
    void openSocket();
    void handleConnected();
    void handleSocketError(QAbstractSocket::SocketError error);
    void handleDisconnected();
    void handleFrame(const QString &message);
    void closeWhenIdle();
    void closeSocket(int exitCode);
    void fail(int exitCode, const QString &message);
    void finish(int exitCode);
    QString tokenRejectedMessage(const QString &status) const;

    BulkWatchOptions m_options;
    QSslConfiguration m_tls;
    QNetworkAccessManager *m_network = nullptr;
    QWebSocket m_socket;
    QTimer m_timeout; // the handshake, then the closing handshake
    QString m_sslErrors;
    QString m_connectionError; // a socket error after the handshake: the connection was lost
    std::map<std::int64_t, qsizetype> m_pending;  // watch request id → index into watches
    std::map<std::int64_t, qsizetype> m_channels; // open channel → index into watches
    bool m_connected = false;
    bool m_anyOpened = false;
    bool m_closing = false; // we closed the socket; disconnected() finishes with m_exitCode
    bool m_finished = false;
    int m_exitCode = Ended;
};

} // namespace rvscope::app
