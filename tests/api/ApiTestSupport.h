// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <string>

#include <QtCore/QUrlQuery>

#include "RegistryTestSupport.h"
#include "api/ApiHandler.h"

// The API handler over a fresh registry, without sockets: requests in, responses out.
namespace rvscope::testing {

struct ApiFixture {
    RegistryFixture registryFixture;
    std::shared_ptr<registry::Registry> registry;
    api::ApiHandler handler;

    ApiFixture()
        : registry(std::shared_ptr<registry::Registry>(registryFixture.registry.get(), [](registry::Registry *) {}))
        , handler(registry)
    {
    }

    api::ApiResponse send(api::ApiRequest request) { return run(handler.handle(std::move(request))); }

    // `pathAndQuery` as a client writes it ("/api/v1/...?watch=1"); `body` sent as `contentType`,
    // plus any `headers` (lower-case names).
    api::ApiResponse call(const std::string &method, const std::string &pathAndQuery, const std::string &body = {},
                          const std::string &contentType = "application/json",
                          std::map<std::string, std::string> headers = {})
    {
        api::ApiRequest request;
        request.method = method;
        const auto question = pathAndQuery.find('?');
        request.path = pathAndQuery.substr(0, question);
        if (question != std::string::npos) {
            const QUrlQuery query(QString::fromStdString(pathAndQuery.substr(question + 1)));
            for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded))
                request.query[key.toStdString()] = value.toStdString();
        }
        request.headers = std::move(headers);
        request.body = body;
        if (!body.empty())
            request.headers["content-type"] = contentType;
        return send(std::move(request));
    }
};

} // namespace rvscope::testing
