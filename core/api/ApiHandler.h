// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <qcoro/qcorotask.h>

#include "api/ApiTypes.h"
#include "api/Route.h"
#include "api/WatchStream.h"

namespace rvscope::registry {
class Registry;
struct ResourceType;
}
namespace rvscope::bulk {
class BulkGet;
}

namespace rvscope::api {

class AccessControl;

// The Kubernetes REST API as a pure request -> response mapping (no sockets): discovery,
// OpenAPI, every verb of the registry with the apiserver's status codes and Status bodies,
// and watch requests, whose response carries a WatchStream for the transport to drain.
// A malformed request gets a Status and changes nothing. Core thread only.
class ApiHandler final {
public:
    struct Options {
        std::string serverAddress = "127.0.0.1:8001"; // advertised by /api
        std::size_t maxBodyBytes = 3 * 1024 * 1024;   // the apiserver's request limit
        int bookmarkIntervalMs = 60000;
        // Server-side processing delay inside every write's CAS loop (the lab's admission
        // latency), 0 for none.
        int processingDelayMs = 0;
    };

    explicit ApiHandler(std::shared_ptr<registry::Registry> registry);
    ApiHandler(std::shared_ptr<registry::Registry> registry, Options options);

    // Called with every resource request's report once its response is ready (the
    // operation journal), returning the id it gave the operation. Discovery, OpenAPI and
    // health requests are not reported. Every event a reported watch hands to its transport
    // goes to the delivery observer, with the watch's operation id.
    using OperationObserver = std::function<std::uint64_t(OperationReport &&)>;
    using DeliveryObserver = std::function<void(const DeliveryReport &)>;

    // Never throws: anything unexpected below becomes a 500 Status for this request only.
    QCoro::Task<ApiResponse> handle(ApiRequest request);
    void setObserver(OperationObserver observer) { m_observer = std::move(observer); }
    void setDeliveryObserver(DeliveryObserver observer) { m_deliveryObserver = std::move(observer); }
    // A watch opened elsewhere than an HTTP request (a bulk watch channel), reported like
    // one (verb watch, `key` such as "secrets/default/db"): the id its deliveries carry, 0
    // when nothing observes. Then each event it hands to its transport.
    std::uint64_t reportWatch(const std::string &clientId, const std::string &key,
                              const std::string &resourceVersionSent) const;
    void reportDelivery(std::uint64_t operationId, const std::string &resource, const registry::WatchEvent &event) const;
    // Authentication and authorization for every request (null: none, everyone is
    // system:anonymous and allowed, the lab's default on loopback).
    void setAccessControl(std::shared_ptr<AccessControl> access);
    const std::shared_ptr<AccessControl> &accessControl() const { return m_access; }
    const Options &options() const { return m_options; }
    const std::shared_ptr<registry::Registry> &registry() const { return m_registry; }
    // POST /apis/bulk.k8s.io/v1/bulkgetoperations (its authorizer is set there).
    bulk::BulkGet &bulkGet() { return *m_bulkGet; }
    void setProcessingDelay(int milliseconds) { m_options.processingDelayMs = milliseconds; }
    // The address /api advertises (known once the server has bound its port).
    void setServerAddress(std::string address)
    {
        m_options.serverAddress = std::move(address);
        m_discoveryCache.clear();
    }

private:
    QCoro::Task<ApiResponse> dispatch(Route route, ApiRequest request);
    // Takes the response's outcome (the transport does not need it).
    std::uint64_t report(const Route &route, OperationReport report, ApiResponse &response) const;
    // The journal's view of one delivered event of a watch on `resource`.
    static DeliveryReport deliveryReport(std::uint64_t operationId, const std::string &resource,
                                         const WatchStream::Delivery &delivery);
    ApiResponse discovery(const Route &route, const ApiRequest &request);
    QCoro::Task<ApiResponse> collection(Route route, ApiRequest request);
    QCoro::Task<ApiResponse> item(Route route, ApiRequest request);
    QCoro::Task<ApiResponse> subresource(Route route, ApiRequest request);
    QCoro::Task<ApiResponse> watch(Route route, ApiRequest request);
    ApiResponse cachedJson(const std::string &key, const std::function<std::string()> &build);

    std::shared_ptr<registry::Registry> m_registry;
    Options m_options;
    OperationObserver m_observer;
    DeliveryObserver m_deliveryObserver;
    std::shared_ptr<bulk::BulkGet> m_bulkGet;
    std::shared_ptr<AccessControl> m_access;
    // Discovery and OpenAPI bodies, rebuilt when the set of types changes.
    std::map<std::string, std::string> m_discoveryCache;
    std::uint64_t m_discoveryGeneration = 0;
};

} // namespace rvscope::api
