// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include <qcoro/qcorotask.h>

#include "api/ApiTypes.h"

namespace rvscope::api {
class ApiHandler;
}

namespace rvscope::sim {

// How a client's requests reach an API server. The response of a watch request carries the
// stream's event lines through `watchLines` (see WatchLines). Core thread only.
class Transport {
public:
    virtual ~Transport() = default;
    // Never throws; a transport failure is a response with status 0 and the reason in body.
    virtual QCoro::Task<api::ApiResponse> send(api::ApiRequest request) = 0;
};

// Straight into the core's ApiHandler: the same routing, registry and journal as an HTTP
// request, without the socket. With in-memory storage a request completes synchronously.
class InProcessTransport final : public Transport {
public:
    explicit InProcessTransport(std::shared_ptr<api::ApiHandler> handler);
    QCoro::Task<api::ApiResponse> send(api::ApiRequest request) override;

private:
    std::shared_ptr<api::ApiHandler> m_handler;
};

// Adds `Authorization: Bearer <token>` to every request, then sends it through `inner`: a
// client with an identity (a scenario's "access" section). Core thread only.
class BearerTokenTransport final : public Transport {
public:
    BearerTokenTransport(std::shared_ptr<Transport> inner, std::string token);
    QCoro::Task<api::ApiResponse> send(api::ApiRequest request) override;

private:
    std::shared_ptr<Transport> m_inner;
    std::string m_token;
};

} // namespace rvscope::sim
