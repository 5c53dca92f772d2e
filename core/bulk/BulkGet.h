// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <qcoro/qcorotask.h>

#include "bulk/ResourceSelector.h"
#include "model/Result.h"

namespace rvscope::registry {
class Registry;
}

namespace rvscope::bulk {

// Bulk get: the body of POST /apis/bulk.k8s.io/v1/bulkgetoperations,
//   {"operations":[{"resource":{group,version,resource},"options":{ListOptions...}}, ...]}
// answered with one list of every selected object, each carrying kind/apiVersion:
//   {"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"<rev>"},"items":[...]}
// The request is authorized and validated as a whole: a malformed body or operation is a
// 400, an unknown resource a 404, a denial of any operation the authorizer's Status (403),
// a failing list (bad selector, too-old resourceVersion) that list's Status; no partial
// list is ever returned. metadata.resourceVersion is the highest revision among the lists
// (they share one value when every type lives in one storage). Core thread only.
class BulkGet final {
public:
    struct Options {
        Authorizer authorize; // empty: allow everything
        std::size_t maxOperations = 1000;
        std::size_t maxBodyBytes = 3 * 1024 * 1024;
    };

    explicit BulkGet(std::shared_ptr<registry::Registry> registry);
    BulkGet(std::shared_ptr<registry::Registry> registry, Options options);

    void setAuthorizer(Authorizer authorize) { m_options.authorize = std::move(authorize); }
    const Options &options() const { return m_options; }

    // The list body, or the Status that fails the whole request.
    QCoro::Task<model::Result<std::string>> run(std::string body, std::string user);

private:
    std::shared_ptr<registry::Registry> m_registry;
    Options m_options;
};

} // namespace rvscope::bulk
