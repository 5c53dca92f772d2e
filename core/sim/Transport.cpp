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
    co_return co_await handler->handle(std::move(request));
}

} // namespace rvscope::sim
