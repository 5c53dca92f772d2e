// SPDX-License-Identifier: MIT
#pragma once

#include "api/ApiTypes.h"
#include "model/Object.h"
#include "model/Result.h"
#include "model/Status.h"
#include "registry/ResourceType.h"
#include "registry/StoreTypes.h"

// Response bodies, built from the objects' cached encodings wherever possible, and the one
// error -> HTTP translation (a Status carries its own code).
namespace rvscope::api {

ApiResponse statusResponse(const model::Status &status);
ApiResponse jsonResponse(int status, std::string body);
ApiResponse objectResponse(const model::ObjectPtr &object, int status = 200);
// {"kind":"<Kind>List","apiVersion":...,"metadata":{"resourceVersion":...,"continue":...},
// "items":[...]} with items always an array.
ApiResponse listResponse(const registry::ResourceType &type, const registry::ListResponse &list);
// DELETE: the object (types that return it, or one kept by finalizers) or a Success Status.
ApiResponse deleteResponse(const registry::ResourceType &type, const registry::DeleteResponse &deleted);

// The request body as an object of `kind`/`apiVersion` (JSON, or Kubernetes protobuf as
// kubectl's imperative commands send it): 413 over `maxBytes`, 415 for other media types,
// 400 when it does not decode or names another kind.
// A JSON body loses the fields `known` does not declare, as Go's decoder drops them
// (registry/validation/KnownFields.h); what that and repeated keys come to is answered as
// `validation` says: a 400 (Strict) or `warnings` (Warn).
model::Result<model::Object> decodeBody(const ApiRequest &request, const std::string &kind,
                                        const std::string &apiVersion, std::size_t maxBytes,
                                        const registry::KnownFields *known, registry::FieldValidation validation,
                                        std::vector<std::string> &warnings);

// Each warning once as a `Warning: 299 - "<text>"` header, within the apiserver's bounds (4 KiB
// in all; past it, each text cut to 256 characters, then the rest left out).
void addWarnings(ApiResponse &response, const std::vector<std::string> &warnings);

} // namespace rvscope::api
