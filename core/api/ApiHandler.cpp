// SPDX-License-Identifier: MIT
// ApiHandler: routing, discovery and OpenAPI. The resource verbs are in ResourceVerbs.cpp.
#include "api/ApiHandler.h"

#include "api/Responses.h"
#include "api/discovery/Discovery.h"
#include "api/discovery/OpenApi.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"

namespace rvscope::api {

ApiHandler::ApiHandler(std::shared_ptr<registry::Registry> registry)
    : ApiHandler(std::move(registry), Options{})
{
}

ApiHandler::ApiHandler(std::shared_ptr<registry::Registry> registry, Options options)
    : m_registry(std::move(registry))
    , m_options(std::move(options))
{
}

QCoro::Task<ApiResponse> ApiHandler::handle(ApiRequest request)
{
    // The last line of defence: no request may take the server down, whatever a library
    // below throws on input nobody anticipated.
    try {
        co_return co_await dispatch(std::move(request));
    } catch (const std::exception &error) {
        co_return statusResponse(model::Status::internalError(
            std::string("an error on the server (\"") + error.what() + "\") has prevented the request from succeeding"));
    }
}

QCoro::Task<ApiResponse> ApiHandler::dispatch(ApiRequest request)
{
    const Route route = resolveRoute(request.path, *m_registry);
    switch (route.kind) {
    case Route::Kind::Health: {
        ApiResponse ok = jsonResponse(200, "ok");
        ok.contentType = "text/plain; charset=utf-8";
        co_return ok;
    }
    case Route::Kind::Version:
    case Route::Kind::CoreVersions:
    case Route::Kind::Groups:
    case Route::Kind::Group:
    case Route::Kind::Resources:
    case Route::Kind::OpenApiIndex:
    case Route::Kind::OpenApiDoc:
        if (request.method != "GET")
            co_return statusResponse(
                model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
        co_return discovery(route, request);
    case Route::Kind::Collection:
        co_return co_await collection(route, std::move(request));
    case Route::Kind::Item:
        if (!route.subresource.empty())
            co_return co_await subresource(route, std::move(request));
        co_return co_await item(route, std::move(request));
    case Route::Kind::BulkGet:
    case Route::Kind::NotFound:
        break;
    }
    co_return statusResponse(model::errors::pathNotFound());
}

ApiResponse ApiHandler::cachedJson(const std::string &key, const std::function<std::string()> &build)
{
    if (m_discoveryGeneration != m_registry->typesGeneration()) {
        m_discoveryCache.clear();
        m_discoveryGeneration = m_registry->typesGeneration();
    }
    auto it = m_discoveryCache.find(key);
    if (it == m_discoveryCache.end())
        it = m_discoveryCache.emplace(key, build()).first;
    if (it->second.empty())
        return statusResponse(model::errors::pathNotFound());
    return jsonResponse(200, it->second);
}

ApiResponse ApiHandler::discovery(const Route &route, const ApiRequest &request)
{
    const auto types = m_registry->types();
    const bool aggregated = wantsAggregatedDiscovery(request.header("accept"));
    auto dumpOrEmpty = [](const std::optional<nlohmann::json> &json) { return json ? json->dump() : std::string(); };
    switch (route.kind) {
    case Route::Kind::Version:
        return cachedJson("/version", [] { return versionInfo().dump(); });
    case Route::Kind::CoreVersions:
    case Route::Kind::Groups: {
        const bool core = route.kind == Route::Kind::CoreVersions;
        if (aggregated) {
            ApiResponse response = cachedJson(core ? "aggregated:/api" : "aggregated:/apis",
                                              [&] { return aggregatedDiscovery(types, core).dump(); });
            response.contentType = std::string(AGGREGATED_DISCOVERY_CONTENT_TYPE);
            return response;
        }
        if (core)
            return cachedJson("/api", [&] { return apiVersions(m_options.serverAddress).dump(); });
        return cachedJson("/apis", [&] { return apiGroupList(types).dump(); });
    }
    case Route::Kind::Group:
        return cachedJson("/apis/" + route.group, [&] { return dumpOrEmpty(apiGroup(types, route.group)); });
    case Route::Kind::Resources:
        return cachedJson("resources:" + route.group + '/' + route.version,
                          [&] { return dumpOrEmpty(apiResourceList(types, route.group, route.version)); });
    case Route::Kind::OpenApiIndex:
        return cachedJson("/openapi/v3", [&] { return openApiIndex(types).dump(); });
    case Route::Kind::OpenApiDoc:
        return cachedJson("openapi:" + route.openApiKey,
                          [&] { return dumpOrEmpty(openApiDocument(types, route.openApiKey)); });
    default:
        return statusResponse(model::errors::pathNotFound());
    }
}

} // namespace rvscope::api
