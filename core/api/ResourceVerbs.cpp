// SPDX-License-Identifier: MIT
// ApiHandler: the resource verbs (list, watch, create, get, update, patch, delete,
// deletecollection) and the /status and /scale subresources.
#include <chrono>
#include <random>

#include "api/ApiHandler.h"
#include "api/QueryOptions.h"
#include "api/Responses.h"
#include "api/Watcher.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "patch/PatchType.h"
#include "registry/Registry.h"
#include "registry/ScaleStore.h"
#include "storage/Storage.h"

namespace rvscope::api {
namespace {

ApiResponse methodNotAllowed(const std::string &verb, const registry::ResourceType &type)
{
    return statusResponse(model::errors::methodNotAllowed(verb + " is not supported on resources of kind \""
                                                          + type.groupResource().toString() + "\""));
}

// A namespaced type needs a namespace in the URL to name one object; a cluster-scoped one
// must not have one.
std::optional<model::Status> checkScope(const Route &route, const registry::ResourceType &type)
{
    if (!type.namespaced() && !route.namespaceName.empty())
        return model::errors::pathNotFound();
    return std::nullopt;
}

std::shared_ptr<const registry::UpdatedObjectInfo> withDelay(std::shared_ptr<const registry::UpdatedObjectInfo> info,
                                                             int delayMs)
{
    if (delayMs <= 0)
        return info;
    return std::make_shared<registry::DelayedObjectInfo>(std::move(info), delayMs);
}

// The resourceVersion a PATCH body carries as a precondition: metadata.resourceVersion of a
// merge, strategic or apply patch, or the value a JSON patch tests, replaces or adds at
// /metadata/resourceVersion. Empty when there is none (the common case costs one find).
std::string patchResourceVersion(const std::string &body)
{
    if (body.find("resourceVersion") == std::string::npos)
        return {};
    const nlohmann::json json = model::parseJson(body).value_or(nlohmann::json());
    auto stringAt = [](const nlohmann::json &value) { return value.is_string() ? value.get<std::string>() : std::string(); };
    if (json.is_array()) {
        for (const auto &op : json) {
            if (op.is_object() && model::member(op, "path") == "/metadata/resourceVersion")
                return stringAt(model::member(op, "value"));
        }
        return {};
    }
    return stringAt(model::memberAt(json, "metadata", "resourceVersion"));
}

// What a PUT or PATCH of `kind` asks for, decoded once for resources and subresources alike:
// the UpdatedObjectInfo and the resourceVersion the client sent (the 409's evidence).
struct UpdateIntent {
    std::shared_ptr<const registry::UpdatedObjectInfo> info;
    std::string sent;
};

model::Result<UpdateIntent> decodeUpdate(const ApiRequest &request, const std::string &kind,
                                         const std::string &apiVersion, bool strategicMerge,
                                         registry::WriteOptions &options, std::size_t maxBodyBytes)
{
    if (request.method == "PUT") {
        auto object = decodeBody(request, kind, apiVersion, maxBodyBytes);
        if (!object)
            return std::move(object).error();
        std::string sent = object->resourceVersion();
        return UpdateIntent{std::make_shared<registry::PutObjectInfo>(std::move(object).value()), std::move(sent)};
    }
    if (request.body.size() > maxBodyBytes)
        return model::errors::requestEntityTooLarge("Request entity too large");
    auto patch = registry::makePatchInfo(kind, strategicMerge, request.header("content-type"), request.body);
    if (!patch)
        return std::move(patch).error();
    // Server-side apply creates missing objects (kubectl apply --server-side sends no GET first).
    const auto patchType = patch::parsePatchType(request.header("content-type"));
    if (patchType && *patchType == patch::PatchType::ApplyPatch) {
        if (options.fieldManager.empty())
            return model::errors::badRequest("PATCH requests with apply content type require fieldManager");
        options.forceAllowCreate = true;
    }
    return UpdateIntent{std::move(patch).value(), patchResourceVersion(request.body)};
}

ApiResponse updatedResponse(const registry::UpdateResponse &updated, std::string resourceVersionSent)
{
    ApiResponse response = objectResponse(updated.object, updated.created ? 201 : 200);
    response.outcome.resourceVersionSent = std::move(resourceVersionSent);
    response.outcome.casRetries = updated.retries;
    response.outcome.noop = updated.noop;
    return response;
}

ApiResponse withResourceVersionSent(ApiResponse response, std::string resourceVersionSent)
{
    response.outcome.resourceVersionSent = std::move(resourceVersionSent);
    return response;
}

int upstreamDefaultTimeoutMs()
{
    // minRequestTimeout 1800 s times a random factor in [1, 2), like the apiserver.
    static std::mt19937 random{std::random_device{}()};
    return static_cast<int>(std::uniform_int_distribution<int>(1800, 3599)(random)) * 1000;
}

} // namespace

QCoro::Task<ApiResponse> ApiHandler::collection(Route route, ApiRequest request)
{
    const registry::Registry::Entry *entry = m_registry->find(route.group, route.version, route.resource);
    const registry::ResourceType &type = *entry->type;
    std::shared_ptr<registry::Store> store = entry->store;
    std::shared_ptr<registry::Registry> keepRegistry = m_registry;
    if (auto wrongScope = checkScope(route, type))
        co_return statusResponse(*wrongScope);

    if (request.method == "GET") {
        auto watching = isWatchRequest(request);
        if (!watching)
            co_return statusResponse(watching.error());
        if (*watching)
            co_return co_await watch(route, std::move(request));
        auto options = listOptionsFrom(request);
        if (!options)
            co_return statusResponse(options.error());
        const std::string sent = options->resourceVersion;
        auto listed = co_await store->list(route.namespaceName, std::move(options).value());
        if (!listed)
            co_return withResourceVersionSent(statusResponse(listed.error()), sent);
        co_return withResourceVersionSent(listResponse(type, *listed), sent);
    }
    if (request.method == "POST") {
        if (type.namespaced() && route.namespaceName.empty())
            co_return methodNotAllowed("create", type);
        auto options = writeOptionsFrom(request);
        if (!options)
            co_return statusResponse(options.error());
        auto object = decodeBody(request, type.kind, type.apiVersion(), m_options.maxBodyBytes);
        if (!object)
            co_return statusResponse(object.error());
        const std::string name = object->name();
        auto created = co_await store->create(route.namespaceName, std::move(object).value(), *options);
        ApiResponse response = created ? objectResponse(*created, 201) : statusResponse(created.error());
        response.outcome.objectName = created ? (*created)->name() : name;
        co_return response;
    }
    if (request.method == "DELETE") {
        if (type.gvr.resource == "namespaces")
            co_return methodNotAllowed("deletecollection", type);
        auto options = deleteOptionsFrom(request);
        if (!options)
            co_return statusResponse(options.error());
        auto listOptions = listOptionsFrom(request);
        if (!listOptions)
            co_return statusResponse(listOptions.error());
        auto removed = co_await store->removeCollection(route.namespaceName, *options, std::move(listOptions).value());
        if (!removed)
            co_return statusResponse(removed.error());
        co_return listResponse(type, *removed);
    }
    co_return statusResponse(
        model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
}

QCoro::Task<ApiResponse> ApiHandler::item(Route route, ApiRequest request)
{
    const registry::Registry::Entry *entry = m_registry->find(route.group, route.version, route.resource);
    const registry::ResourceType &type = *entry->type;
    std::shared_ptr<registry::Store> store = entry->store;
    std::shared_ptr<registry::Registry> registry = m_registry;
    if (auto wrongScope = checkScope(route, type))
        co_return statusResponse(*wrongScope);
    if (type.namespaced() && route.namespaceName.empty())
        co_return statusResponse(model::errors::pathNotFound());

    if (request.method == "GET") {
        auto watching = isWatchRequest(request);
        if (watching && *watching) {
            // The legacy single-object watch is the collection watch on that name.
            request.query["fieldSelector"] = "metadata.name=" + route.name;
            co_return co_await watch(route, std::move(request));
        }
        auto got = co_await store->get(route.namespaceName, route.name);
        if (!got)
            co_return statusResponse(got.error());
        co_return objectResponse(*got);
    }
    if (request.method == "PUT" || request.method == "PATCH") {
        auto options = writeOptionsFrom(request);
        if (!options)
            co_return statusResponse(options.error());
        auto intent = decodeUpdate(request, type.kind, type.apiVersion(), type.strategy->supportsStrategicMerge(),
                                   *options, m_options.maxBodyBytes);
        if (!intent)
            co_return statusResponse(intent.error());
        std::shared_ptr<const registry::UpdatedObjectInfo> info = std::move(intent->info);
        const std::string sent = std::move(intent->sent);
        auto updated = co_await store->update(route.namespaceName, route.name,
                                              withDelay(std::move(info), m_options.processingDelayMs), *options);
        if (!updated)
            co_return withResourceVersionSent(statusResponse(updated.error()), sent);
        co_return updatedResponse(*updated, sent);
    }
    if (request.method == "DELETE") {
        auto options = deleteOptionsFrom(request);
        if (!options)
            co_return statusResponse(options.error());
        const std::string sent = options->preconditions.resourceVersion.value_or(std::string());
        model::Result<registry::DeleteResponse> removed;
        if (type.gvr.resource == "namespaces" && type.gvr.group.empty())
            removed = co_await registry->removeNamespace(route.name, *options);
        else
            removed = co_await store->remove(route.namespaceName, route.name, *options);
        if (!removed)
            co_return withResourceVersionSent(statusResponse(removed.error()), sent);
        co_return withResourceVersionSent(deleteResponse(type, *removed), sent);
    }
    co_return statusResponse(
        model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
}

QCoro::Task<ApiResponse> ApiHandler::subresource(Route route, ApiRequest request)
{
    const registry::Registry::Entry *entry = m_registry->find(route.group, route.version, route.resource);
    const registry::ResourceType &type = *entry->type;
    std::shared_ptr<registry::Registry> registry = m_registry;
    if (auto wrongScope = checkScope(route, type))
        co_return statusResponse(*wrongScope);
    const bool isStatus = route.subresource == "status" && entry->status;
    const bool isScale = route.subresource == "scale" && entry->scale;
    if (!isStatus && !isScale)
        co_return statusResponse(model::errors::pathNotFound());
    std::shared_ptr<registry::Store> status = entry->status;
    std::shared_ptr<registry::ScaleStore> scale = entry->scale;

    if (request.method == "GET") {
        model::Result<model::ObjectPtr> got;
        if (isScale)
            got = co_await scale->get(route.namespaceName, route.name);
        else
            got = co_await status->get(route.namespaceName, route.name);
        if (!got)
            co_return statusResponse(got.error());
        co_return objectResponse(*got);
    }
    if (request.method != "PUT" && request.method != "PATCH")
        co_return statusResponse(
            model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
    auto options = writeOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    const std::string kind = isScale ? "Scale" : type.kind;
    const std::string apiVersion = isScale ? "autoscaling/v1" : type.apiVersion();
    auto intent = decodeUpdate(request, kind, apiVersion, isScale || type.strategy->supportsStrategicMerge(), *options,
                               m_options.maxBodyBytes);
    if (!intent)
        co_return statusResponse(intent.error());
    std::shared_ptr<const registry::UpdatedObjectInfo> info = std::move(intent->info);
    const std::string sent = std::move(intent->sent);
    info = withDelay(std::move(info), m_options.processingDelayMs);
    // Not a conditional expression: g++ 12 miscompiles co_await inside ?:.
    model::Result<registry::UpdateResponse> updated;
    if (isScale)
        updated = co_await scale->update(route.namespaceName, route.name, info, *options);
    else
        updated = co_await status->update(route.namespaceName, route.name, info, *options);
    if (!updated)
        co_return withResourceVersionSent(statusResponse(updated.error()), sent);
    co_return updatedResponse(*updated, sent);
}

QCoro::Task<ApiResponse> ApiHandler::watch(Route route, ApiRequest request)
{
    const registry::Registry::Entry *entry = m_registry->find(route.group, route.version, route.resource);
    const registry::ResourceType &type = *entry->type;
    std::shared_ptr<registry::Store> store = entry->store;
    auto options = listOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    const std::string sent = options->resourceVersion;

    if (auto full = m_openWatches->admit())
        co_return statusResponse(*full);
    Watcher::Options watcherOptions;
    watcherOptions.kind = type.kind;
    watcherOptions.apiVersion = type.apiVersion();
    watcherOptions.maxBacklogBytes = m_options.maxWatchBacklog;
    watcherOptions.timeoutMs = options->timeoutSeconds && *options->timeoutSeconds > 0
        ? static_cast<int>(std::min<std::int64_t>(*options->timeoutSeconds, 24 * 3600) * 1000)
        : upstreamDefaultTimeoutMs();
    if (options->allowWatchBookmarks) {
        watcherOptions.bookmarkIntervalMs = m_options.bookmarkIntervalMs;
        watcherOptions.currentRevision = currentRevisionOf(entry->type);
    }
    std::shared_ptr<std::uint64_t> watchOperation;
    if (m_observer && m_deliveryObserver) {
        watchOperation = std::make_shared<std::uint64_t>(0);
        DeliveryObserver observer = m_deliveryObserver;
        const std::string resource = route.resource;
        watcherOptions.onDelivered = [observer, watchOperation, resource](const registry::WatchEvent &event) {
            observer(*watchOperation, resource, event);
        };
    }
    auto watcher = std::make_shared<Watcher>(std::move(watcherOptions));
    registry::WatchSink sink = watcher->sink();
    auto handle = co_await store->watch(route.namespaceName, std::move(options).value(), std::move(sink));
    ApiResponse response;
    response.watch = watcher;
    response.outcome.resourceVersionSent = sent;
    response.outcome.watchOperation = watchOperation;
    if (!handle) {
        // A too-old resourceVersion is not an HTTP error: the stream opens and carries one
        // ERROR event (upstream's newErrWatcher); clients relist on it.
        if (handle.error().code != 410)
            co_return withResourceVersionSent(statusResponse(handle.error()), sent);
        response.outcome.reason = handle.error().reason;
        watcher->endWithError(handle.error());
        co_return response;
    }
    watcher->setHandle(std::move(handle).value());
    co_return response;
}

} // namespace rvscope::api
