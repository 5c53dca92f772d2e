// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include <QtCore/QUrl>

#include "sim/Transport.h"

class QNetworkAccessManager;

namespace rvscope::sim {

// Requests over HTTP/1.1 to a Kubernetes API server (rvscope's own or any other), for the
// `rvscope client` process. Watches are not supported here (the response is the plain body).
// A connection failure is a response with status 0 and the error text as body.
class HttpTransport final : public Transport {
public:
    explicit HttpTransport(QUrl server);
    ~HttpTransport() override;
    QCoro::Task<api::ApiResponse> send(api::ApiRequest request) override;

private:
    QUrl m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
};

} // namespace rvscope::sim
