// SPDX-License-Identifier: MIT
#include "sim/KubeClient.h"

#include <array>

#include "model/JsonAccess.h"
#include "model/JsonParse.h"

namespace rvscope::sim {
namespace {

struct KnownResource {
    const char *resource;
    const char *prefix; // API group/version path
};

constexpr std::array KNOWN_RESOURCES = {
    KnownResource{"configmaps", "/api/v1"},     KnownResource{"secrets", "/api/v1"},
    KnownResource{"pods", "/api/v1"},           KnownResource{"services", "/api/v1"},
    KnownResource{"leases", "/apis/coordination.k8s.io/v1"},
    KnownResource{"deployments", "/apis/apps/v1"},
};

const KnownResource *findResource(const std::string &resource)
{
    for (const auto &known : KNOWN_RESOURCES) {
        if (resource == known.resource)
            return &known;
    }
    return nullptr;
}

// A request with an optional body; send() adds the client's identity headers.
api::ApiRequest makeRequest(std::string method, std::string path, std::string contentType = {}, std::string body = {})
{
    api::ApiRequest request;
    request.method = std::move(method);
    request.path = std::move(path);
    if (!contentType.empty())
        request.headers["content-type"] = std::move(contentType);
    request.body = std::move(body);
    return request;
}

} // namespace

std::optional<ObjectRef> ObjectRef::parse(const std::string &key)
{
    ObjectRef ref;
    const auto first = key.find('/');
    ref.resource = key.substr(0, first);
    if (!findResource(ref.resource))
        return std::nullopt;
    if (first == std::string::npos)
        return ref;
    const auto second = key.find('/', first + 1);
    ref.namespaceName = key.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    if (second != std::string::npos)
        ref.name = key.substr(second + 1);
    if (ref.namespaceName.empty() || ref.name.find('/') != std::string::npos)
        return std::nullopt;
    return ref;
}

std::string ObjectRef::key() const
{
    std::string key = resource;
    if (!namespaceName.empty())
        key += '/' + namespaceName;
    if (!name.empty())
        key += '/' + name;
    return key;
}

std::string ObjectRef::collectionPath() const
{
    const KnownResource *known = findResource(resource);
    std::string path = known ? known->prefix : "/api/v1";
    if (!namespaceName.empty())
        path += "/namespaces/" + namespaceName;
    return path + '/' + resource;
}

std::string ObjectRef::path() const
{
    return collectionPath() + '/' + name;
}

std::string KubeResponse::resourceVersion() const
{
    return model::stringOr(model::memberAt(body, "metadata", "resourceVersion"), "");
}

KubeClient::KubeClient(std::shared_ptr<Transport> transport, std::string clientId, std::string strategy)
    : m_transport(std::move(transport))
    , m_clientId(std::move(clientId))
    , m_strategy(std::move(strategy))
{
}

QCoro::Task<KubeResponse> KubeClient::send(api::ApiRequest request)
{
    request.headers["x-rvscope-client"] = m_clientId;
    if (!m_strategy.empty())
        request.headers["x-rvscope-strategy"] = m_strategy;
    request.headers["accept"] = "application/json";
    request.headers["user-agent"] = m_clientId;
    std::shared_ptr<Transport> transport = m_transport;
    api::ApiResponse response = co_await transport->send(std::move(request));
    KubeResponse result;
    result.status = response.status;
    result.watch = response.watch;
    if (!response.body.empty())
        result.body = model::parseJson(response.body).value_or(nlohmann::json());
    if (!result.ok()) {
        result.reason = model::stringOr(model::member(result.body, "reason"), "");
        result.message = model::stringOr(model::member(result.body, "message"), response.body);
    }
    co_return result;
}

QCoro::Task<KubeResponse> KubeClient::get(ObjectRef ref)
{
    co_return co_await send(makeRequest("GET", ref.path()));
}

QCoro::Task<KubeResponse> KubeClient::list(ObjectRef collection, std::string resourceVersion)
{
    api::ApiRequest request = makeRequest("GET", collection.collectionPath());
    if (!collection.name.empty())
        request.query["fieldSelector"] = "metadata.name=" + collection.name;
    if (!resourceVersion.empty())
        request.query["resourceVersion"] = resourceVersion;
    co_return co_await send(std::move(request));
}

QCoro::Task<KubeResponse> KubeClient::create(ObjectRef ref, nlohmann::json object)
{
    co_return co_await send(makeRequest("POST", ref.collectionPath(), "application/json", object.dump()));
}

QCoro::Task<KubeResponse> KubeClient::update(ObjectRef ref, nlohmann::json object)
{
    co_return co_await send(makeRequest("PUT", ref.path(), "application/json", object.dump()));
}

QCoro::Task<KubeResponse> KubeClient::patch(ObjectRef ref, std::string contentType, nlohmann::json patch)
{
    co_return co_await send(makeRequest("PATCH", ref.path(), std::move(contentType), patch.dump()));
}

QCoro::Task<KubeResponse> KubeClient::apply(ObjectRef ref, nlohmann::json configuration, std::string fieldManager,
                                             bool force)
{
    api::ApiRequest request = makeRequest("PATCH", ref.path(), "application/apply-patch+yaml", configuration.dump());
    request.query["fieldManager"] = std::move(fieldManager);
    if (force)
        request.query["force"] = "true";
    co_return co_await send(std::move(request));
}

QCoro::Task<KubeResponse> KubeClient::remove(ObjectRef ref, std::string resourceVersionPrecondition)
{
    if (resourceVersionPrecondition.empty())
        co_return co_await send(makeRequest("DELETE", ref.path()));
    const nlohmann::json options = {{"kind", "DeleteOptions"},
                                    {"apiVersion", "v1"},
                                    {"preconditions", {{"resourceVersion", resourceVersionPrecondition}}}};
    co_return co_await send(makeRequest("DELETE", ref.path(), "application/json", options.dump()));
}

QCoro::Task<KubeResponse> KubeClient::watch(ObjectRef collection, std::string resourceVersion)
{
    api::ApiRequest request = makeRequest("GET", collection.collectionPath());
    request.query["watch"] = "true";
    if (!collection.name.empty())
        request.query["fieldSelector"] = "metadata.name=" + collection.name;
    if (!resourceVersion.empty())
        request.query["resourceVersion"] = resourceVersion;
    co_return co_await send(std::move(request));
}

} // namespace rvscope::sim
