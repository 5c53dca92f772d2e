// SPDX-License-Identifier: MIT
#pragma once

#include <QtHttpServer/QAbstractHttpServer>
#include <QtNetwork/QHostAddress>

namespace rvscope::server {

// The HTTP/1.1 transport of rvscope's Kubernetes-compatible API. It answers the health
// endpoints (/healthz, /livez, /readyz) and, until the REST API is routed through it, a
// Kubernetes 404 Status for every other path. Each response leaves in one socket write
// (status line, headers and body together) so that no request waits on Nagle/delayed ACK.
//
// Lives in, and must only be used from, the thread that created it (the core thread).
class ApiServer final : public QAbstractHttpServer {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)

public:
    explicit ApiServer(QObject *parent = nullptr);
    ~ApiServer() override;

    // Binds and starts accepting. Returns the bound port, or 0 with `error` set.
    quint16 start(const QHostAddress &address, quint16 port, QString *error = nullptr);
    quint16 port() const { return m_port; }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    quint16 m_port = 0;
};

} // namespace rvscope::server
