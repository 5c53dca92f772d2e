// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <qcoro/qcorotask.h>

#include "api/ApiTypes.h"
#include "api/RequestScope.h"
#include "api/OpenWatches.h"
#include "api/UserRateLimit.h"
#include "api/Watcher.h"

namespace rvscope::registry {
class Registry;
class Store;
struct ResourceType;
}
namespace rvscope::bulk {
class BulkGet;
}
namespace rvscope::faults {
class FaultSet;
}

namespace rvscope::api {

class AccessControl;
class FaultInjector;

// The Kubernetes REST API as a pure request -> response mapping (no sockets): discovery,
// OpenAPI, every verb of the registry with the apiserver's status codes and Status bodies,
// and watch requests, whose response carries a Watcher for the transport to attach to.
// A malformed request gets a Status and changes nothing. Core thread only.
class ApiHandler final {
public:
    struct Options {
        std::string serverAddress = "127.0.0.1:8001"; // advertised by /api
        std::size_t maxBodyBytes = 3 * 1024 * 1024;   // the apiserver's request limit
        int bookmarkIntervalMs = 60000;
        // Bytes a watch's client may leave unread before the watch ends with ERROR 410; 0:
        // unbounded. Applies to watches opened later.
        std::size_t maxWatchBacklog = DEFAULT_MAX_WATCH_BACKLOG;
        // Server-side processing delay inside every write's CAS loop (the lab's admission
        // latency), 0 for none.
        int processingDelayMs = 0;
        // Open watches (and bulk channels) of one user; 0: only the overall bound.
        std::size_t maxWatchesPerUser = DEFAULT_MAX_WATCHES_PER_USER;
        // Requests per second of one user (api/UserRateLimit.h); 0: unbounded.
        double userRequestsPerSecond = 0;
    };

    explicit ApiHandler(std::shared_ptr<registry::Registry> registry);
    ApiHandler(std::shared_ptr<registry::Registry> registry, Options options);

    // Called with every resource request's report once its response is ready (the
    // operation journal), returning the id it gave the operation. Discovery, OpenAPI and
    // health requests are not reported. Every event a reported watch hands to its transport
    // goes to the delivery observer, with the watch's operation id.
    using OperationObserver = std::function<std::uint64_t(OperationReport &&)>;
    using DeliveryObserver = api::DeliveryObserver;

    // Never throws: anything unexpected below becomes a 500 Status for this request only.
    QCoro::Task<ApiResponse> handle(ApiRequest request);
    // A long-running request (a watch, as handle() would serve it): the apiserver's
    // max-in-flight filter leaves these out.
    bool isLongRunning(const ApiRequest &request) const;
    void setObserver(OperationObserver observer) { m_observer = std::move(observer); }
    void setDeliveryObserver(DeliveryObserver observer)
    {
        m_deliveryObserver = observer ? std::make_shared<const DeliveryObserver>(std::move(observer)) : nullptr;
    }
    // A watch opened elsewhere than an HTTP request (a bulk watch channel), reported like
    // one: `report` names the client, the key ("secrets/default/db"), the resourceVersion
    // sent, its status (200 for an open channel), an injected fault; its verb is watch, its
    // times now unless set. The id its deliveries carry, 0 when nothing observes.
    std::uint64_t reportWatch(OperationReport report) const;
    // A watcher of `type` as this handler opens them (a watch request, a bulk channel): the
    // backlog bound when `bounded` (the transport can tell its backlog), bookmarks at the
    // handler's interval when asked for, journaled when something observes.
    Watcher::Options watcherOptions(std::shared_ptr<const registry::ResourceType> type, bool bookmarks,
                                    bool bounded) const;
    // Authentication and authorization for every request (null: none, everyone is
    // system:anonymous and allowed, the lab's default on loopback).
    void setAccessControl(std::shared_ptr<AccessControl> access);
    // The user a request (a WebSocket handshake) authenticates as, or the 401 Status;
    // system:anonymous without access control.
    model::Result<std::string> authenticate(const ApiRequest &request);
    // Every open watch (requests and bulk channels): the limit, the ACL re-check, shutdown.
    OpenWatches &openWatches() { return *m_openWatches; }
    const std::shared_ptr<AccessControl> &accessControl() const { return m_access; }
    const Options &options() const { return m_options; }
    const std::shared_ptr<registry::Registry> &registry() const { return m_registry; }
    // The fault rules every resource request is matched against (empty: none), also served
    // at /rvscope/v1/faults (api/FaultsEndpoint.h), and what carries them out.
    faults::FaultSet &faults();
    FaultInjector &faultInjector() { return *m_faults; }
    // POST /apis/bulk.k8s.io/v1/bulkgetoperations (its authorizer is set there).
    bulk::BulkGet &bulkGet() { return *m_bulkGet; }
    void setProcessingDelay(int milliseconds) { m_options.processingDelayMs = milliseconds; }
    void setMaxWatchBacklog(std::size_t bytes) { m_options.maxWatchBacklog = bytes; }
    // The address /api advertises (known once the server has bound its port).
    void setServerAddress(std::string address)
    {
        m_options.serverAddress = std::move(address);
        m_discoveryCache.clear();
    }

private:
    QCoro::Task<ApiResponse> dispatch(RequestScope scope, ApiRequest request);
    // Whether the object exists (or cannot be told not to: any error but 404).
    static QCoro::Task<bool> objectExists(std::shared_ptr<registry::Store> store, std::string ns, std::string name);
    // What the journal records of a resource request, taken before the request runs: who,
    // the verb, the key resource[/namespace][/name][/subresource].
    static OperationReport pendingReport(const RequestScope &scope, const ApiRequest &request);
    // Completes it with the response and takes the response's outcome (the transport does
    // not need it).
    std::uint64_t report(OperationReport report, ApiResponse &response) const;
    ApiResponse discovery(const Route &route, const ApiRequest &request);
    // The resource verbs (ResourceVerbs.cpp), one handler each; handlerFor picks the
    // scope's (404 for what no verb addresses, 405 for a verb the path does not serve).
    // dispatch awaits it directly: every coroutine level costs a frame and a move of the
    // response, on every request.
    using VerbHandler = QCoro::Task<ApiResponse> (ApiHandler::*)(RequestScope scope, ApiRequest request);
    static VerbHandler handlerFor(const RequestScope &scope);
    QCoro::Task<ApiResponse> notFound(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> unsupported(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> list(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> watch(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> create(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> get(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> update(RequestScope scope, ApiRequest request); // PUT and PATCH
    QCoro::Task<ApiResponse> remove(RequestScope scope, ApiRequest request);
    QCoro::Task<ApiResponse> removeCollection(RequestScope scope, ApiRequest request);
    ApiResponse cachedJson(const std::string &key, const std::function<std::string()> &build);

    std::shared_ptr<registry::Registry> m_registry;
    Options m_options;
    OperationObserver m_observer;
    std::shared_ptr<const DeliveryObserver> m_deliveryObserver; // shared by every watcher
    std::shared_ptr<bulk::BulkGet> m_bulkGet;
    std::shared_ptr<AccessControl> m_access;
    std::shared_ptr<OpenWatches> m_openWatches = std::make_shared<OpenWatches>();
    std::shared_ptr<FaultInjector> m_faults;
    UserRateLimit m_userRate;
    // Discovery and OpenAPI bodies, rebuilt when the set of types changes.
    std::map<std::string, std::string> m_discoveryCache;
    std::uint64_t m_discoveryGeneration = 0;
};

} // namespace rvscope::api
