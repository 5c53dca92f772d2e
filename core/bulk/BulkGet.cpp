// SPDX-License-Identifier: MIT
#include "bulk/BulkGet.h"

#include <algorithm>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "registry/Registry.h"

namespace rvscope::bulk {

namespace {
struct Operation final {
    Operation() = default;
    ResourceSelector selector;
    std::shared_ptr<registry::Store> store;
};

// A namespace given for a cluster-scoped type names nothing, as the URL would.
model::Result<Operation> resolve(const registry::Registry &registry, ResourceSelector selector)
{
    const std::shared_ptr<const registry::Registry::Entry> entry = registry.find(selector.resource);
    if (!entry || (!entry->type->namespaced() && !selector.namespaceName.empty()))
        return model::errors::pathNotFound();
    Operation operation;
    operation.selector = std::move(selector);
    operation.store = entry->store;
    return operation;
}

// A List of mixed kinds. Its resourceVersion is that of the one revision series read; when
// the operations read several series there is no single one (as for kubectl's own mixed
// Lists it is ""), and "resourceVersions" gives each series' own.
std::string listJson(const std::map<std::string, storage::Revision> &revisions, const std::string &items)
{
    std::string list = R"({"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":")";
    if (revisions.size() == 1)
        list += std::to_string(revisions.begin()->second);
    list += R"("},)";
    if (revisions.size() > 1) {
        nlohmann::json perSeries = nlohmann::json::object();
        for (const auto &[series, revision] : revisions)
            perSeries[series] = std::to_string(revision);
        list += R"("resourceVersions":)" + perSeries.dump() + ',';
    }
    list += R"("items":[)";
    list += items;
    list += "]}";
    return list;
}
} // namespace

BulkGet::BulkGet(std::shared_ptr<registry::Registry> registry)
    : BulkGet(std::move(registry), Options{})
{
}

BulkGet::BulkGet(std::shared_ptr<registry::Registry> registry, Options options)
    : m_registry(std::move(registry))
    , m_options(std::move(options))
{
}

QCoro::Task<model::Result<std::string>> BulkGet::run(std::string body, std::string user)
{
    std::shared_ptr<registry::Registry> registry = m_registry;
    if (body.size() > m_options.maxBodyBytes)
        co_return model::errors::requestEntityTooLarge("Request entity too large: limit is "
                                                       + std::to_string(m_options.maxBodyBytes));
    const nlohmann::json json = model::parseJson(body).value_or(nlohmann::json());
    if (!json.is_object())
        co_return model::errors::badRequest("BulkGetOperations in version \"v1\" cannot be handled: the request body "
                                            "is not a JSON object");
    auto operationsJson = json.find("operations");
    if (operationsJson == json.end() || !operationsJson->is_array())
        co_return model::errors::badRequest("operations: expected an array of {resource, options}");
    if (operationsJson->size() > m_options.maxOperations)
        co_return model::errors::badRequest("operations: at most " + std::to_string(m_options.maxOperations)
                                            + " operations per request");

    // Everything is checked before anything is read: the request is all or nothing.
    std::vector<Operation> operations;
    operations.reserve(operationsJson->size());
    for (std::size_t i = 0; i < operationsJson->size(); ++i) {
        auto selector = parseResourceSelector((*operationsJson)[i], "operations[" + std::to_string(i) + "]");
        if (!selector)
            co_return std::move(selector).error();
        if (auto denied = authorizeSelector(m_options.authorize, user, "list", *selector))
            co_return *denied;
        auto operation = resolve(*registry, std::move(selector).value());
        if (!operation)
            co_return std::move(operation).error();
        operations.push_back(std::move(operation).value());
    }

    std::string items;
    // One resourceVersion per revision series read (types may live in separate storages).
    std::map<std::string, storage::Revision> revisions;
    for (Operation &operation : operations) {
        std::shared_ptr<registry::Store> store = operation.store;
        std::string ns = operation.selector.namespaceName;
        registry::ListOptions options = operation.selector.options;
        auto listed = co_await store->list(std::move(ns), std::move(options));
        if (!listed)
            co_return std::move(listed).error();
        storage::Revision &revision = revisions[store->type().revisionSeries];
        revision = std::max(revision, listed->revision);
        for (const auto &item : listed->items) {
            if (!items.empty())
                items += ',';
            items += item->bytes();
        }
    }
    co_return listJson(revisions, items);
}


} // namespace rvscope::bulk
