// SPDX-License-Identifier: MIT
// ApiHandler: the resource verbs, one handler each (list, watch, create, get, update and
// patch, delete, deletecollection), for resources and their /status and /scale alike.
#include <chrono>
#include <random>

#include "api/ApiHandler.h"
#include "api/QueryOptions.h"
#include "api/RequestScope.h"
#include "api/Responses.h"
#include "api/table/TableOutput.h"
#include "api/Watcher.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "model/Utf8.h"
#include "patch/PatchType.h"
#include "registry/Registry.h"
#include "storage/Storage.h"

namespace rvscope::api {
namespace {

ApiResponse methodNotAllowed(const std::string &verb, const registry::ResourceType &type)
{
    return statusResponse(model::errors::methodNotAllowed(verb + " is not supported on resources of kind \""
                                                          + type.groupResource().toString() + "\""));
}

ApiResponse methodNotAllowed()
{
    return statusResponse(
        model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
}

// What no verb may address (404): one object of a namespaced type without a namespace, or a
// subresource the type does not have. (Routing never puts a cluster-scoped type under a
// namespace: /namespaces/<ns>/nodes names a subresource of the namespace.)
bool addressable(const RequestScope &scope)
{
    const Route &route = scope.route;
    if (route.kind != Route::Kind::Item)
        return true;
    return scope.target && (!route.entry->type->namespaced() || !route.namespaceName.empty());
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

// The apiserver's 422 for PATCH options it refuses (ValidatePatchOptions).
model::Status patchOptionsInvalid(model::StatusCause cause)
{
    return model::errors::invalid("PatchOptions.meta.k8s.io", "", {std::move(cause)}, "PatchOptions", "meta.k8s.io");
}

// What a PUT or PATCH of `kind` asks for, decoded once for resources and subresources alike:
// the UpdatedObjectInfo and the resourceVersion the client sent (the 409's evidence).
struct UpdateIntent {
    std::shared_ptr<const registry::UpdatedObjectInfo> info;
    std::string sent;
    std::vector<std::string> warnings; // a PUT body's (a PATCH's come from info)
};

model::Result<UpdateIntent> decodeUpdate(const ApiRequest &request, const registry::ObjectStore &target,
                                         registry::WriteOptions &options, std::size_t maxBodyBytes)
{
    const std::string kind = target.kind();
    if (request.method == "PUT") {
        std::vector<std::string> warnings;
        auto object = decodeBody(request, kind, target.apiVersion(), maxBodyBytes, target.knownFields(),
                                 options.fieldValidation, warnings);
        if (!object)
            return std::move(object).error();
        std::string sent = object->resourceVersion();
        return UpdateIntent{std::make_shared<registry::PutObjectInfo>(std::move(object).value()), std::move(sent),
                            std::move(warnings)};
    }
    if (request.body.size() > maxBodyBytes)
        return model::errors::requestEntityTooLarge("Request entity too large");
    const std::string contentType = request.header("content-type");
    const auto patchType = patch::parsePatchType(contentType);
    const bool applying = patchType && *patchType == patch::PatchType::ApplyPatch;
    // The options first (ValidatePatchOptions), then the body.
    if (applying && options.fieldManager.empty())
        return patchOptionsInvalid({"FieldValueRequired", "Required value: is required for apply patch", "fieldManager"});
    if (patchType && !applying && request.queryValue("force"))
        return patchOptionsInvalid({"FieldValueForbidden", "Forbidden: may not be specified for non-apply patch", "force"});
    const registry::FieldDecoding decoding{target.knownFields(), options.fieldValidation};
    auto patch = registry::makePatchInfo(kind, target.supportsStrategicMerge(), contentType, request.body, decoding);
    // A JSON patch whose strings are not UTF-8 reads as Go reads it (see decodeBody); YAML
    // (apply) refuses such bytes in Go too.
    std::string coerced;
    if (!patch && !applying && !model::isUtf8(request.body)) {
        coerced = model::coerceToUtf8(request.body);
        if (auto retried = registry::makePatchInfo(kind, target.supportsStrategicMerge(), contentType, coerced, decoding))
            patch = std::move(retried);
        else
            coerced.clear();
    }
    if (!patch)
        return std::move(patch).error();
    // Server-side apply creates missing objects (kubectl apply --server-side sends no GET first).
    if (applying)
        options.forceAllowCreate = true;
    return UpdateIntent{std::move(patch).value(), patchResourceVersion(coerced.empty() ? request.body : coerced), {}};
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

ApiHandler::VerbHandler ApiHandler::handlerFor(const RequestScope &scope)
{
    if (!addressable(scope))
        return &ApiHandler::notFound;
    switch (scope.verb) {
    case Verb::List: return &ApiHandler::list;
    case Verb::Watch: return &ApiHandler::watch;
    case Verb::Create: return &ApiHandler::create;
    case Verb::Get: return &ApiHandler::get;
    case Verb::Update:
    case Verb::Patch: return &ApiHandler::update;
    case Verb::Delete: return &ApiHandler::remove;
    case Verb::DeleteCollection: return &ApiHandler::removeCollection;
    case Verb::None:
    case Verb::Unsupported: break;
    }
    return &ApiHandler::unsupported;
}

QCoro::Task<ApiResponse> ApiHandler::notFound(RequestScope, ApiRequest)
{
    co_return statusResponse(model::errors::pathNotFound());
}

QCoro::Task<ApiResponse> ApiHandler::unsupported(RequestScope, ApiRequest)
{
    co_return methodNotAllowed();
}

QCoro::Task<ApiResponse> ApiHandler::list(RequestScope scope, ApiRequest request)
{
    auto options = listOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    const std::string sent = options->resourceVersion;
    auto table = table::tableRequested(request);
    if (!table)
        co_return statusResponse(table.error());
    std::shared_ptr<registry::Store> store = scope.route.entry->store;
    auto listed = co_await store->list(scope.route.namespaceName, std::move(options).value());
    if (!listed)
        co_return withResourceVersionSent(statusResponse(listed.error()), sent);
    if (*table) {
        table::TablePage page{std::to_string(listed->revision), listed->continueToken, listed->remainingItemCount};
        ApiResponse response = jsonResponse(200, table::tableJson(**table, *scope.route.entry->type, listed->items, page, true));
        response.outcome.resourceVersionProduced = page.resourceVersion;
        co_return withResourceVersionSent(std::move(response), sent);
    }
    co_return withResourceVersionSent(listResponse(*scope.route.entry->type, *listed), sent);
}

QCoro::Task<ApiResponse> ApiHandler::create(RequestScope scope, ApiRequest request)
{
    const registry::ResourceType &type = *scope.route.entry->type;
    if (type.namespaced() && scope.route.namespaceName.empty())
        co_return methodNotAllowed("create", type);
    auto options = writeOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    std::vector<std::string> warnings;
    auto object = decodeBody(request, type.kind, type.apiVersion(), m_options.maxBodyBytes,
                             scope.route.entry->store->knownFields(), options->fieldValidation, warnings);
    if (!object)
        co_return statusResponse(object.error());
    const std::string name = object->name();
    std::shared_ptr<registry::Store> store = scope.route.entry->store;
    auto created = co_await store->create(scope.route.namespaceName, std::move(object).value(), *options);
    ApiResponse response = created ? objectResponse(*created, 201) : statusResponse(created.error());
    response.outcome.objectName = created ? (*created)->name() : name;
    addWarnings(response, warnings);
    co_return response;
}

QCoro::Task<ApiResponse> ApiHandler::get(RequestScope scope, ApiRequest request)
{
    // A Table of the object itself (not of a /status or /scale view of it).
    auto table = scope.route.subresource.empty() ? table::tableRequested(request)
                                                 : model::Result<std::optional<table::TableRequest>>(std::nullopt);
    if (!table)
        co_return statusResponse(table.error());
    // Not older than the resourceVersion asked for: the latest is, unless the client is
    // ahead of this server (504, as the watch cache answers once it gives up waiting).
    const auto atLeast = getResourceVersionFrom(request);
    if (!atLeast)
        co_return statusResponse(atLeast.error());
    if (*atLeast > 0) {
        std::shared_ptr<storage::Storage> storage = scope.route.entry->type->storage;
        const auto current = co_await storage->currentRevision();
        if (!current)
            co_return statusResponse(current.error());
        if (*atLeast > *current)
            co_return statusResponse(model::errors::tooLargeResourceVersion(*atLeast, *current));
    }
    std::shared_ptr<registry::ObjectStore> target = scope.target;
    auto got = co_await target->get(scope.route.namespaceName, scope.route.name);
    if (!got)
        co_return statusResponse(got.error());
    if (*table) {
        const table::TablePage page{(*got)->resourceVersion(), {}, std::nullopt};
        ApiResponse response = jsonResponse(200, table::tableJson(**table, *scope.route.entry->type, {*got}, page, true));
        response.outcome.object = *got;
        response.outcome.resourceVersionProduced = page.resourceVersion;
        co_return response;
    }
    co_return objectResponse(*got);
}

QCoro::Task<ApiResponse> ApiHandler::update(RequestScope scope, ApiRequest request)
{
    auto options = writeOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    std::shared_ptr<registry::ObjectStore> target = scope.target;
    auto intent = decodeUpdate(request, *target, *options, m_options.maxBodyBytes);
    if (!intent)
        co_return statusResponse(intent.error());
    std::shared_ptr<const registry::UpdatedObjectInfo> requested = std::move(intent->info);
    std::shared_ptr<const registry::UpdatedObjectInfo> info = withDelay(requested, m_options.processingDelayMs);
    const std::string sent = std::move(intent->sent);
    const std::vector<std::string> bodyWarnings = std::move(intent->warnings);
    auto updated = co_await target->update(scope.route.namespaceName, scope.route.name, std::move(info), *options);
    ApiResponse response = updated ? updatedResponse(*updated, sent)
                                   : withResourceVersionSent(statusResponse(updated.error()), sent);
    addWarnings(response, bodyWarnings.empty() ? requested->warnings() : bodyWarnings);
    co_return response;
}

QCoro::Task<ApiResponse> ApiHandler::remove(RequestScope scope, ApiRequest request)
{
    auto options = deleteOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    const std::string sent = options->preconditions.resourceVersion.value_or(std::string());
    std::shared_ptr<registry::Registry> registry = m_registry;
    auto removed = co_await registry->remove(scope.route.entry, scope.route.namespaceName, scope.route.name, *options);
    if (!removed)
        co_return withResourceVersionSent(statusResponse(removed.error()), sent);
    co_return withResourceVersionSent(deleteResponse(*scope.route.entry->type, *removed), sent);
}

QCoro::Task<ApiResponse> ApiHandler::removeCollection(RequestScope scope, ApiRequest request)
{
    const registry::ResourceType &type = *scope.route.entry->type;
    std::shared_ptr<registry::Store> store = scope.route.entry->store;
    if (!store->allowsDeleteCollection())
        co_return methodNotAllowed("deletecollection", type);
    auto options = deleteOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    auto listOptions = listOptionsFrom(request);
    if (!listOptions)
        co_return statusResponse(listOptions.error());
    auto removed = co_await store->removeCollection(scope.route.namespaceName, *options, std::move(listOptions).value());
    if (!removed)
        co_return statusResponse(removed.error());
    co_return listResponse(type, *removed);
}

QCoro::Task<ApiResponse> ApiHandler::watch(RequestScope scope, ApiRequest request)
{
    const Route &route = scope.route;
    // The legacy single-object watch is the collection watch on that name.
    if (route.kind == Route::Kind::Item)
        request.query["fieldSelector"] = "metadata.name=" + route.name;
    std::shared_ptr<registry::Store> store = route.entry->store;
    auto options = listOptionsFrom(request);
    if (!options)
        co_return statusResponse(options.error());
    const std::string sent = options->resourceVersion;
    auto table = table::tableRequested(request);
    if (!table)
        co_return statusResponse(table.error());

    WatchPlace place;
    if (auto full = m_openWatches->admit(request.user, place))
        co_return statusResponse(*full);
    Watcher::Options watcherOptions = this->watcherOptions(route.entry->type, options->allowWatchBookmarks, true);
    if (*table) // kubectl get -w: each event a one-row Table
        watcherOptions.encode = table::tableWatchEncoder(**table, route.entry->type);
    watcherOptions.timeoutMs = options->timeoutSeconds && *options->timeoutSeconds > 0
        ? static_cast<int>(std::min<std::int64_t>(*options->timeoutSeconds, 24 * 3600) * 1000)
        : upstreamDefaultTimeoutMs();
    auto watcher = std::make_shared<Watcher>(std::move(watcherOptions));
    watcher->holdPlace(std::move(place)); // until ApiHandler::handle adds it
    registry::WatchSink sink = watcher->sink();
    auto handle = co_await store->watch(route.namespaceName, std::move(options).value(), std::move(sink));
    ApiResponse response;
    response.watch = watcher;
    response.outcome.resourceVersionSent = sent;
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
