// SPDX-License-Identifier: MIT
#include "sim/Transport.h"

#include "api/ApiHandler.h"

namespace rvscope::sim {

InProcessTransport::InProcessTransport(std::shared_ptr<api::ApiHandler> handler)
    : m_handler(std::move(handler))
{
}

QCoro::Task<api::ApiResponse> InProcessTransport::send(api::ApiRequest request)
{
    std::shared_ptr<api::ApiHandler> handler = m_handler;
    api::ApiResponse response = co_await handler->handle(std::move(request));
    if (!response.dropConnection)
        co_return response;
    // An injected drop: what an HTTP client sees of it (HttpTransport) is no reply at all.
    if (response.watch)
        response.watch->close();
    api::ApiResponse lost;
    lost.status = 0;
    lost.body = "Connection closed";
    co_return lost;
}

BearerTokenTransport::BearerTokenTransport(std::shared_ptr<Transport> inner, std::string token)
    : m_inner(std::move(inner))
    , m_token(std::move(token))
{
}

QCoro::Task<api::ApiResponse> BearerTokenTransport::send(api::ApiRequest request)
{
    request.headers["authorization"] = "Bearer " + m_token;
    std::shared_ptr<Transport> inner = m_inner;
    co_return co_await inner->send(std::move(request));
}

} // namespace rvscope::sim
