// SPDX-License-Identifier: MIT
#include "sim/HttpTransport.h"

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>
#include <qcoro/qcoronetworkreply.h>

#include "api/QueryString.h"

namespace rvscope::sim {

HttpTransport::HttpTransport(QUrl server)
    : m_server(std::move(server))
    , m_network(std::make_unique<QNetworkAccessManager>())
{
}

HttpTransport::~HttpTransport() = default;

QCoro::Task<api::ApiResponse> HttpTransport::send(api::ApiRequest request)
{
    QUrl url = m_server;
    url.setPath(QString::fromStdString(request.path));
    // Encoded as Go's clients encode it, so that a '+' or '&' in a value arrives intact.
    if (!request.query.empty())
        url.setQuery(QString::fromStdString(api::encodeQueryString(request.query)));
    QNetworkRequest http(url);
    http.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    for (const auto &[name, value] : request.headers)
        http.setRawHeader(QByteArray::fromStdString(name), QByteArray::fromStdString(value));
    const QByteArray body = QByteArray::fromStdString(request.body);
    QNetworkReply *reply = m_network->sendCustomRequest(http, QByteArray::fromStdString(request.method), body);
    co_await reply;
    api::ApiResponse response;
    response.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    response.body = reply->readAll().toStdString();
    if (response.status == 0)
        response.body = reply->errorString().toStdString();
    response.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString().toStdString();
    reply->deleteLater();
    co_return response;
}

} // namespace rvscope::sim
