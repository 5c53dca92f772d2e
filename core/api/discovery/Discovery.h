// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/discovery/ServedGroups.h"

// The apiserver's discovery documents, computed from the served resource types
// (registry::Registry::types()). Pure functions of their arguments: they never fail and
// never throw; any thread. A caller may cache the results until Registry::typesGeneration()
// changes. The shapes follow reference/k8s-wire-contract.md §1.2, §1.3 and §9.1; the python
// client rejects a document that lacks a field it requires, so every required field is
// always present (APIResource: name, singularName, namespaced, kind, verbs).
namespace rvscope::api {

// The Content-Type of an aggregated discovery response. client-go decodes a response as
// aggregated only when it carries exactly these parameters.
inline constexpr std::string_view AGGREGATED_DISCOVERY_CONTENT_TYPE =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

// GET /api: APIVersions ("v1" and serverAddressByClientCIDRs, `serverAddress` as
// "host:port").
nlohmann::json apiVersions(const std::string &serverAddress);

// GET /apis: APIGroupList of every group but the core one, versions in preference order.
nlohmann::json apiGroupList(const ResourceTypeList &types);

// GET /apis/<group>: one APIGroup; nullopt (404) when no type belongs to `group` or `group`
// is the core group.
std::optional<nlohmann::json> apiGroup(const ResourceTypeList &types, const std::string &group);

// GET /api/v1 (group "") and GET /apis/<group>/<version>: APIResourceList with the main
// resources and their "<resource>/status" and "<resource>/scale" entries; nullopt (404)
// when no type is served at that group/version.
std::optional<nlohmann::json> apiResourceList(const ResourceTypeList &types, const std::string &group,
                                              const std::string &version);

// GET /api (legacyCore: the core group only) or GET /apis (every other group) when the
// client asked for aggregated discovery: an apidiscovery.k8s.io/v2 APIGroupDiscoveryList,
// to be sent with AGGREGATED_DISCOVERY_CONTENT_TYPE.
nlohmann::json aggregatedDiscovery(const ResourceTypeList &types, bool legacyCore);

// Whether an Accept header prefers the aggregated discovery form (apidiscovery.k8s.io v2
// APIGroupDiscoveryList) over plain JSON. Media ranges are weighed by q, then taken in
// order; parameter order and spaces do not matter. An empty or unparsable header is false.
bool wantsAggregatedDiscovery(std::string_view acceptHeader);

// GET /version: VersionInfo with all nine fields (the python client requires each), a
// Kubernetes 1.32 server.
nlohmann::json versionInfo();

// The opaque storageVersionHash of a type, computed as upstream does (base64 of the first
// 8 bytes of SHA-256("<group>/<version>/<kind>")).
std::string storageVersionHash(const registry::ResourceType &type);

} // namespace rvscope::api
