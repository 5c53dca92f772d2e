// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/ApiTypes.h"
#include "model/Object.h"
#include "model/Result.h"
#include "registry/StoreTypes.h"

namespace rvscope::registry {
struct ResourceType;
}

// Server-side Table output (Accept: application/json;as=Table;v=v1;g=meta.k8s.io), which is
// what `kubectl get` prints (shared/reference/table-output.md).
namespace rvscope::api::table {

struct TableRequest final {
    std::string version = "v1"; // meta.k8s.io/v1 or v1beta1
    std::string includeObject = "Metadata"; // Metadata, Object or None
};

// Whether `request` asks for a Table: the first Accept clause that names one the server can
// make (as=Table, g=meta.k8s.io, v=v1 or v1beta1, a JSON media type) before any plain JSON
// clause. A Table request with a bad includeObject is a 400.
model::Result<std::optional<TableRequest>> tableRequested(const ApiRequest &request);

struct TablePage final {
    std::string resourceVersion; // a list's, or the one object's
    std::string continueToken;
    std::optional<std::int64_t> remainingItemCount;
};

// The Table of `objects` of `type`, with its column definitions unless `headers` is false
// (then "columnDefinitions": null, as later watch events carry; APIService always has them).
std::string tableJson(const TableRequest &request, const registry::ResourceType &type,
                      const std::vector<model::ObjectPtr> &objects, const TablePage &page, bool headers);

// A watch's event encoder for Table output: each object event becomes a one-row Table, the
// first with column definitions, later ones without; ERROR and BOOKMARK events are as they are.
std::function<std::string(const registry::WatchEvent &)> tableWatchEncoder(TableRequest request,
                                                                         std::shared_ptr<const registry::ResourceType> type);

} // namespace rvscope::api::table
