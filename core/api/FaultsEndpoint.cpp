// SPDX-License-Identifier: MIT
#include "api/FaultsEndpoint.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "api/Responses.h"
#include "faults/FaultSet.h"
#include "model/JsonParse.h"
#include "model/StatusErrors.h"

namespace rvscope::api {
namespace {

const model::GroupResource FAULTS{"rvscope", "faults"};

nlohmann::ordered_json ruleJson(const faults::FaultSet::Entry &entry)
{
    return {{"id", entry.id}, {"rule", entry.rule.text}, {"matched", entry.matched}, {"fired", entry.fired},
            {"spent", entry.spent()}};
}

ApiResponse listJson(const std::vector<nlohmann::ordered_json> &items)
{
    nlohmann::ordered_json list = {
        {"kind", "FaultRuleList"}, {"apiVersion", "rvscope/v1"}, {"items", nlohmann::ordered_json::array()}};
    for (const nlohmann::ordered_json &item : items)
        list["items"].push_back(item);
    return jsonResponse(200, list.dump());
}

const faults::FaultSet::Entry *findEntry(const faults::FaultSet &faults, const std::string &id)
{
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), number);
    if (error != std::errc() || end != id.data() + id.size())
        return nullptr;
    for (const auto &entry : faults.entries()) {
        if (entry.id == number)
            return &entry;
    }
    return nullptr;
}

ApiResponse addRule(faults::FaultSet &faults, const ApiRequest &request)
{
    const auto body = model::parseJson(request.body);
    if (!body || !body->is_object() || !body->contains("rule") || !(*body)["rule"].is_string())
        return statusResponse(
            model::errors::badRequest("the body must be a JSON object {\"rule\": \"VERBS TARGET ... ACTION\"}"));
    auto added = faults.add((*body)["rule"].get<std::string>());
    if (!added)
        return statusResponse(added.error());
    return jsonResponse(201, ruleJson(faults.entries().back()).dump());
}

} // namespace

ApiResponse serveFaults(faults::FaultSet &faults, const Route &route, const ApiRequest &request)
{
    const bool one = !route.name.empty();
    const faults::FaultSet::Entry *entry = one ? findEntry(faults, route.name) : nullptr;
    if (one && !entry && (request.method == "GET" || request.method == "DELETE"))
        return statusResponse(model::errors::notFound(FAULTS, route.name));
    if (request.method == "GET") {
        if (one)
            return jsonResponse(200, ruleJson(*entry).dump());
        std::vector<nlohmann::ordered_json> items;
        for (const auto &listed : faults.entries())
            items.push_back(ruleJson(listed));
        return listJson(items);
    }
    if (request.method == "POST" && !one)
        return addRule(faults, request);
    if (request.method == "DELETE") {
        std::vector<nlohmann::ordered_json> removed;
        if (one) {
            const nlohmann::ordered_json item = ruleJson(*entry);
            faults.remove(entry->id);
            return jsonResponse(200, item.dump());
        }
        for (const auto &listed : faults.entries())
            removed.push_back(ruleJson(listed));
        faults.clear();
        return listJson(removed);
    }
    return statusResponse(
        model::errors::methodNotAllowed("the server does not allow this method on the requested resource"));
}

} // namespace rvscope::api
