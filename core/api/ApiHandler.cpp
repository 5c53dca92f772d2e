// SPDX-License-Identifier: MIT
// ApiHandler: routing, discovery and OpenAPI. The resource verbs are in ResourceVerbs.cpp.
#include "api/ApiHandler.h"

#include <chrono>
#include <optional>

#include <qcoro/qcorotimer.h>

#include "api/AccessControl.h"
#include "api/FaultInjection.h"
#include "api/FaultsEndpoint.h"
#include "api/MediaRange.h"
#include "api/Responses.h"
#include "api/discovery/Discovery.h"
#include "api/discovery/OpenApi.h"
#include "bulk/BulkGet.h"
#include "api/FaultInjector.h"
#include "model/StatusErrors.h"
#include "model/SteadyClock.h"
#include "registry/Registry.h"
#include "storage/Storage.h"

namespace rvscope::api {

ApiHandler::ApiHandler(std::shared_ptr<registry::Registry> registry)
    : ApiHandler(std::move(registry), Options{})
{
}

ApiHandler::ApiHandler(std::shared_ptr<registry::Registry> registry, Options options)
    : m_registry(std::move(registry))
    , m_options(std::move(options))
    , m_bulkGet(std::make_shared<bulk::BulkGet>(m_registry))
    , m_faults(std::make_shared<FaultInjector>(m_registry))
{
    m_openWatches->setMaxPerUser(m_options.maxWatchesPerUser);
    m_userRate.setRate(m_options.userRequestsPerSecond);
}

void ApiHandler::setAccessControl(std::shared_ptr<AccessControl> access)
{
    m_access = std::move(access);
    if (m_access)
        m_access->setOpenWatches(m_openWatches);
    // Bulk get is authorized as a whole: every operation as a "list" of its user.
    std::weak_ptr<AccessControl> weak = m_access;
    m_bulkGet->setAuthorizer([weak](const std::string &user, const std::string &verb, const std::string &group,
                                    const std::string &resource, const std::string &ns,
                                    const std::string &name) -> std::optional<model::Status> {
        auto shared = weak.lock();
        if (!shared)
            return std::nullopt;
        return shared->authorizeBulk(user, verb, group, resource, ns, name);
    });
}

bool ApiHandler::isLongRunning(const ApiRequest &request) const
{
    return request.queryValue("watch") && resolveScope(request, *m_registry).verb == Verb::Watch;
}

QCoro::Task<ApiResponse> ApiHandler::handle(ApiRequest request)
{
    const std::int64_t startNs = model::steadyNowNs();
    // The apiserver's filter chain, in its order: what the request addresses (RequestInfo),
    // who sends it (authentication), whether they may (authorization), then the verb's
    // handler inside a panic recovery.
    RequestScope scope = resolveScope(request, *m_registry);
    std::optional<model::Status> refused;
    std::optional<auth::Attributes> attributes;
    if (m_access) {
        auto admitted = m_access->admit(scope, request);
        if (admitted)
            attributes = std::move(admitted).value();
        else
            refused = std::move(admitted).error();
    }
    if (!refused && m_userRate.enabled())
        refused = m_userRate.admit(request.user, startNs);
    std::optional<OperationReport> pending;
    if (m_observer && scope.isResource()) {
        pending = pendingReport(scope, request);
        pending->startNs = startNs;
    }
    // Fault injection: the one place a resource request meets the rules (its own endpoint
    // is no resource, so never subject to them; a method the path does not serve gets its 405).
    std::optional<faults::FaultFiring> fault;
    faults::FaultRequest faultRequest;
    std::string resourceVersionSent; // a watch's start, for the faults that shape it
    if (!refused && scope.isResource() && scope.verb != Verb::Unsupported && !m_faults->empty()) {
        faultRequest = faultRequestFor(scope, request);
        if (const std::string *sent = request.queryValue("resourceVersion"))
            resourceVersionSent = *sent;
        fault = m_faults->decide(faultRequest, resourceVersionSent);
        if (fault && fault->expireNow) {
            const bool gone = co_await FaultInjector::stillGone(*fault, scope.route.entry->type->storage);
            if (!gone) // a resume from the head: the rules as for any watch
                fault = m_faults->rules().decide(faultRequest);
        }
        if (fault && fault->action == faults::FaultAction::Conflict) {
            const bool exists = co_await objectExists(scope.route.entry->store, scope.route.namespaceName, scope.route.name);
            if (!exists) {
                // No conflict without an object: the request runs and gets its own 404 (or
                // creates it, where an update may).
                m_faults->rules().withdraw(fault->ruleId);
                fault.reset();
            }
        }
    }
    std::shared_ptr<storage::Storage> faultStorage;
    if (fault && scope.route.entry)
        faultStorage = scope.route.entry->type->storage;
    const std::string user = request.user; // (the request moves into its handler)
    ApiResponse response;
    // The last line of defence: no request may take the server down, whatever a library
    // below throws on input nobody anticipated.
    try {
        if (refused) {
            response = statusResponse(*refused);
        } else if (fault && faults::answersInstead(fault->action)) {
            response = injectedResponse(*fault, scope, request, faultRequest);
        } else {
            if (fault)
                co_await m_faults->before(*fault, faultStorage);
            response = co_await dispatch(std::move(scope), std::move(request));
        }
    } catch (const std::exception &error) {
        response = statusResponse(model::Status::internalError(
            std::string("an error on the server (\"") + error.what() + "\") has prevented the request from succeeding"));
    }
    if (fault) {
        // After the handler: the write (if any) has landed.
        co_await m_faults->after(*fault);
        if (fault->action == faults::FaultAction::DropAfterCommit)
            response.dropConnection = true;
        if (response.watch)
            m_faults->shapeWatch(*response.watch, *fault, faultRequest, resourceVersionSent);
        if (pending) {
            pending->injected = std::string(faults::actionName(fault->action));
            pending->faultRuleId = fault->ruleId;
        }
    }
    if (response.watch)
        m_openWatches->add(response.watch, user, std::move(attributes));
    if (pending) {
        const std::uint64_t id = report(std::move(*pending), response);
        if (response.watch)
            response.watch->setOperationId(id); // before any transport attaches
    }
    co_return response;
}

QCoro::Task<bool> ApiHandler::objectExists(std::shared_ptr<registry::Store> store, std::string ns, std::string name)
{
    const auto found = co_await store->get(std::move(ns), std::move(name));
    co_return found || found.error().code != 404;
}

faults::FaultSet &ApiHandler::faults()
{
    return m_faults->rules();
}

OperationReport ApiHandler::pendingReport(const RequestScope &scope, const ApiRequest &request)
{
    OperationReport pending;
    pending.clientId = request.header("x-rvscope-client");
    if (pending.clientId.empty()) {
        const std::string agent = request.header("user-agent");
        pending.clientId = agent.substr(0, agent.find_first_of(" /"));
    }
    if (pending.clientId.empty())
        pending.clientId = request.user;
    pending.strategy = request.header("x-rvscope-strategy");
    pending.verb = scope.verbName;
    pending.apply = scope.verb == Verb::Patch
        && request.header("content-type").starts_with("application/apply-patch+yaml");
    const Route &route = scope.route;
    pending.key.reserve(route.resource.size() + route.namespaceName.size() + route.name.size()
                        + route.subresource.size() + 3);
    pending.key = route.resource;
    for (const std::string *part : {&route.namespaceName, &route.name, &route.subresource}) {
        if (!part->empty()) {
            pending.key += '/';
            pending.key += *part;
        }
    }
    constexpr std::size_t MAX_JOURNALED_BODY = 64 * 1024;
    const bool write = scope.verb == Verb::Create || scope.verb == Verb::Update || scope.verb == Verb::Patch;
    if (write && request.body.size() <= MAX_JOURNALED_BODY)
        pending.requestBody = request.body;
    return pending;
}

model::Result<std::string> ApiHandler::authenticate(const ApiRequest &request)
{
    if (!m_access)
        return std::string("system:anonymous");
    auto user = m_access->authenticate(request);
    if (!user)
        return std::move(user).error();
    return user->name;
}

Watcher::Options ApiHandler::watcherOptions(std::shared_ptr<const registry::ResourceType> type, bool bookmarks,
                                            bool bounded) const
{
    Watcher::Options options;
    options.type = std::move(type);
    options.maxBacklogBytes = bounded ? m_options.maxWatchBacklog : 0;
    if (bookmarks)
        options.bookmarkIntervalMs = m_options.bookmarkIntervalMs;
    if (m_observer)
        options.deliveries = m_deliveryObserver;
    return options;
}

std::uint64_t ApiHandler::reportWatch(OperationReport report) const
{
    if (!m_observer || !m_deliveryObserver)
        return 0;
    report.verb = "watch";
    if (report.startNs == 0)
        report.startNs = model::steadyNowNs();
    report.endNs = model::steadyNowNs();
    return m_observer(std::move(report));
}

std::uint64_t ApiHandler::report(OperationReport report, ApiResponse &response) const
{
    // A create names its object in the body (its URL names none): the key is the created
    // object's.
    if (!response.outcome.objectName.empty()) {
        report.key += '/';
        report.key += response.outcome.objectName;
    }
    report.endNs = model::steadyNowNs();
    report.statusCode = response.status;
    report.outcome = std::move(response.outcome);
    return m_observer(std::move(report));
}

QCoro::Task<ApiResponse> ApiHandler::dispatch(RequestScope scope, ApiRequest request)
{
    const Route &route = scope.route;
    switch (route.kind) {
    case Route::Kind::Health: {
        ApiResponse ok;
        ok.body = "ok";
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
    case Route::Kind::Item: {
        const VerbHandler handler = handlerFor(scope);
        // Every verb's handler negotiates its output first (a 404 or 405 has no handler).
        if (handler != &ApiHandler::notFound && handler != &ApiHandler::unsupported
            && !acceptableByResourceEndpoint(request.header("accept")))
            co_return statusResponse(model::errors::notAcceptable(RESOURCE_MEDIA_TYPES));
        co_return co_await (this->*handler)(std::move(scope), std::move(request));
    }
    case Route::Kind::BulkGet: {
        if (request.method != "POST")
            co_return statusResponse(
                model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
        std::shared_ptr<bulk::BulkGet> bulkGet = m_bulkGet;
        auto listed = co_await bulkGet->run(std::move(request.body), request.user);
        if (!listed)
            co_return statusResponse(listed.error());
        co_return jsonResponse(200, std::move(listed).value());
    }
    case Route::Kind::Faults:
        co_return serveFaults(m_faults->rules(), route, request);
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
