// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <qcoro/qcorotask.h>

#include "sim/Transport.h"

namespace rvscope::sim {

// Where an object lives in the REST API: "configmaps/default/foo" → /api/v1/namespaces/
// default/configmaps/foo. Only the types the simulated clients use are known here
// (configmaps, secrets, leases, pods, deployments); parse() fails on others.
struct ObjectRef final {
    // A constructor, not an aggregate: refs are coroutine parameters (g++ 12, see README).
    ObjectRef() = default;
    ObjectRef(std::string resource, std::string namespaceName, std::string name)
        : resource(std::move(resource))
        , namespaceName(std::move(namespaceName))
        , name(std::move(name))
    {
    }

    std::string resource;  // "configmaps"
    std::string namespaceName;
    std::string name;

    static std::optional<ObjectRef> parse(const std::string &key);
    std::string key() const; // "configmaps/default/foo"
    std::string collectionPath() const;
    std::string path() const;
};

// One response as a client sees it: the status, the decoded body (object, list or Status)
// and, for errors, the Status reason and message.
struct KubeResponse final {
    int status = 0; // 0: the transport failed
    nlohmann::json body;
    std::string reason;
    std::string message;
    std::shared_ptr<api::Watcher> watch; // in-process watches only

    bool ok() const { return status >= 200 && status < 300; }
    std::string resourceVersion() const;
};

// The requests a Kubernetes client library makes, tagged with the client's identity
// (X-Rvscope-Client, X-Rvscope-Strategy) so the server's journal attributes them. The
// User-Agent is the client id, so that its updates are managed fields of that name, as a
// client-go binary's are of its own name.
// Core thread only; holds the transport by shared_ptr so it may outlive its creator.
class KubeClient final {
public:
    KubeClient(std::shared_ptr<Transport> transport, std::string clientId, std::string strategy);

    const std::string &clientId() const { return m_clientId; }
    QCoro::Task<KubeResponse> get(ObjectRef ref);
    // list and watch of a ref with a name are scoped to that object by the field selector
    // metadata.name=<name>, as client-go's single-object informers (the kubelet's) do.
    QCoro::Task<KubeResponse> list(ObjectRef collection, std::string resourceVersion);
    QCoro::Task<KubeResponse> create(ObjectRef ref, nlohmann::json object);
    QCoro::Task<KubeResponse> update(ObjectRef ref, nlohmann::json object);
    // contentType: application/merge-patch+json, application/json-patch+json or
    // application/strategic-merge-patch+json.
    QCoro::Task<KubeResponse> patch(ObjectRef ref, std::string contentType, nlohmann::json patch);
    // Server-side apply: PATCH application/apply-patch+yaml of `configuration` (JSON is YAML)
    // as field manager `fieldManager`, with ?force=true when `force`.
    QCoro::Task<KubeResponse> apply(ObjectRef ref, nlohmann::json configuration, std::string fieldManager, bool force);
    QCoro::Task<KubeResponse> remove(ObjectRef ref, std::string resourceVersionPrecondition);
    QCoro::Task<KubeResponse> watch(ObjectRef collection, std::string resourceVersion);
    QCoro::Task<KubeResponse> send(api::ApiRequest request);

private:
    std::shared_ptr<Transport> m_transport;
    std::string m_clientId;
    std::string m_strategy;
};

} // namespace rvscope::sim
