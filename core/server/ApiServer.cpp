// SPDX-License-Identifier: MIT
#include "server/ApiServer.h"

#include <QtHttpServer/QHttpServerRequest>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include "model/StatusErrors.h"
#include "server/HttpResponse.h"

namespace rvscope::server {

ApiServer::ApiServer(QObject *parent)
    : QAbstractHttpServer(parent)
{
}

ApiServer::~ApiServer() = default;

quint16 ApiServer::start(const QHostAddress &address, quint16 port, QString *error)
{
    m_port = listen(address, port);
    if (m_port == 0 && error) {
        const auto bound = servers();
        *error = bound.isEmpty() ? QStringLiteral("cannot listen") : bound.constLast()->errorString();
    }
    return m_port;
}

bool ApiServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const QString path = request.url().path();
    HttpResponse response;
    if (path == u"/healthz" || path == u"/livez" || path == u"/readyz") {
        response.contentType = "text/plain; charset=utf-8";
        response.body = "ok";
    } else {
        response = HttpResponse::fromStatus(model::errors::pathNotFound());
    }
    const bool keepAlive = request.value("connection").toLower() != "close";
    socket->write(response.serialize(keepAlive));
    if (!keepAlive)
        socket->disconnectFromHost();
    return true;
}

void ApiServer::missingHandler(const QHttpServerRequest &, QTcpSocket *socket)
{
    socket->write(HttpResponse::fromStatus(model::errors::pathNotFound()).serialize(true));
}

} // namespace rvscope::server
