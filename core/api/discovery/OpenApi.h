// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/discovery/ServedGroups.h"

// The OpenAPI v3 documents kubectl needs for its write commands (reference/
// k8s-wire-contract.md §0 item 1, §1.4). `create`, `replace`, `apply`, `edit` and
// `apply --server-side` validate with --validate=strict by default: kubectl looks, in the
// group-version document, for a path whose patch operation carries the object's
// x-kubernetes-group-version-kind and a `fieldValidation` query parameter, then leaves the
// validation to the server (?fieldValidation=Strict). Without such a path the command fails
// before sending anything. So every served kind, built-in or custom, has its paths here.
//
// The schemas in components.schemas are permissive (type object, metadata described,
// x-kubernetes-preserve-unknown-fields): enough for `kubectl explain` to name the kind and
// its metadata, not a field-by-field description.
//
// Pure functions of the served types: they never fail and never throw; any thread. Each
// call rebuilds the documents; a caller may cache them until Registry::typesGeneration()
// changes. A document's hash depends only on its content, so it changes when a type of its
// group-version is added or removed (a CRD created) and is stable otherwise.
namespace rvscope::api {

// "api/v1" for the core group, "apis/<group>/<version>" otherwise: the keys of the index
// and the path of a document under /openapi/v3/.
std::string openApiPathKey(const std::string &group, const std::string &version);

// Every group-version document, keyed by openApiPathKey().
std::map<std::string, nlohmann::json> openApiDocuments(const ResourceTypeList &types);

// GET /openapi/v3: {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=<H>"},...}}
// where <H> is openApiDocumentHash() of that document.
nlohmann::json openApiIndex(const ResourceTypeList &types);
nlohmann::json openApiIndex(const std::map<std::string, nlohmann::json> &documents);

// GET /openapi/v3/<pathKey> (the query, such as ?hash=, already removed; a leading or
// trailing '/' is tolerated): the group-version document, or nullopt (404).
std::optional<nlohmann::json> openApiDocument(const ResourceTypeList &types, std::string_view pathKey);

// Upper-case hex SHA-512 of the document's compact JSON, as upstream computes its hashes.
std::string openApiDocumentHash(const nlohmann::json &document);

} // namespace rvscope::api
