// SPDX-License-Identifier: MIT
#include "history/History.h"

#include <istream>
#include <ostream>
#include <string>

#include "history/SecretRedaction.h"
#include "model/JsonParse.h"
#include "model/JsonWrite.h"
#include "model/StatusErrors.h"

namespace rvscope::history {

namespace {

using nlohmann::json;

// Field readers that report a type mismatch instead of throwing.
bool readString(const json &object, const char *name, std::string &out, bool required)
{
    auto it = object.find(name);
    if (it == object.end() || it->is_null())
        return !required;
    if (!it->is_string())
        return false;
    out = it->get<std::string>();
    return true;
}

template <typename Int>
bool readInt(const json &object, const char *name, Int &out, bool required)
{
    auto it = object.find(name);
    if (it == object.end() || it->is_null())
        return !required;
    if (it->is_number_unsigned())
        out = static_cast<Int>(it->get<std::uint64_t>());
    else if (it->is_number_integer())
        out = static_cast<Int>(it->get<std::int64_t>());
    else
        return false;
    return true;
}

model::Status badLine(std::size_t line, const std::string &what)
{
    return model::errors::badRequest("history line " + std::to_string(line) + ": " + what);
}

} // namespace

History::History(std::size_t capacity) : m_capacity(capacity == 0 ? 1 : capacity) {}

void History::append(OperationRecord operation)
{
    if (m_operations.size() >= m_capacity) {
        m_operations.pop_front();
        ++m_droppedOperations;
    }
    m_operations.push_back(std::move(operation));
}

void History::append(WatchDelivery delivery)
{
    if (m_deliveries.size() >= m_capacity) {
        m_deliveries.pop_front();
        ++m_droppedDeliveries;
    }
    m_deliveries.push_back(std::move(delivery));
}

void History::clear()
{
    m_operations.clear();
    m_deliveries.clear();
    m_droppedOperations = 0;
    m_droppedDeliveries = 0;
}

json History::toJson(const OperationRecord &op)
{
    json line = json::object();
    line["record"] = "operation";
    line["id"] = op.id;
    line["client"] = op.clientId;
    line["verb"] = op.verb;
    line["key"] = op.key;
    line["rvSent"] = op.resourceVersionSent;
    line["startNs"] = op.startNs;
    line["endNs"] = op.endNs ? json(*op.endNs) : json(nullptr);
    line["code"] = op.statusCode;
    line["reason"] = op.reason;
    line["rvProduced"] = op.resourceVersionProduced;
    line["casRetries"] = op.casRetries;
    line["object"] = op.objectJson();
    if (!op.strategy.empty())
        line["strategy"] = op.strategy;
    if (!op.message.empty())
        line["message"] = op.message;
    if (op.noop)
        line["noop"] = true;
    if (op.apply)
        line["apply"] = true;
    if (op.remote)
        line["remote"] = true;
    if (!op.injected.empty()) {
        line["injected"] = op.injected;
        line["faultRule"] = op.faultRuleId;
    }
    if (!op.requestBody.empty())
        line["request"] = op.requestBody;
    return line;
}

json History::toJson(const WatchDelivery &delivery)
{
    json line = json::object();
    line["record"] = "watch";
    line["watcher"] = delivery.watcherId;
    line["operation"] = delivery.operationId;
    line["type"] = delivery.eventType;
    line["rv"] = delivery.resourceVersion;
    line["key"] = delivery.key;
    line["timeNs"] = delivery.timeNs;
    if (!delivery.message.empty())
        line["message"] = delivery.message;
    return line;
}

void History::exportJsonLines(std::ostream &out, SecretValues secrets) const
{
    // What a full journal dropped, so that the checkers of an imported copy know it too.
    if (m_droppedOperations > 0 || m_droppedDeliveries > 0) {
        json journal = {{"record", "journal"},
                        {"droppedOperations", m_droppedOperations},
                        {"droppedWatchDeliveries", m_droppedDeliveries}};
        out << model::dumpJson(journal) << '\n';
    }
    // Invalid UTF-8 in a recorded object must not throw out of the core: replace it.
    for (const OperationRecord &op : m_operations) {
        json line = toJson(op);
        if (secrets == SecretValues::Redacted && touchesSecrets(op)) {
            line["object"] = redactSecretObject(line["object"]);
            if (line.contains("request"))
                line["request"] = redactSecretRequest(line["request"].get<std::string>());
        }
        out << model::dumpJson(line) << '\n'; // objects hold raw nodes (JsonWrite.h)
    }
    for (const WatchDelivery &delivery : m_deliveries)
        out << model::dumpJson(toJson(delivery)) << '\n';
}

model::Result<History> History::importJsonLines(std::istream &in, std::size_t capacity)
{
    History history(capacity);
    std::string text;
    std::size_t lineNumber = 0;
    while (std::getline(in, text)) {
        ++lineNumber;
        if (text.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        std::optional<json> parsed = model::parseJson(text);
        if (!parsed)
            return badLine(lineNumber, "not valid JSON");
        json line = std::move(*parsed);
        if (!line.is_object())
            return badLine(lineNumber, "not a JSON object");
        std::string record;
        if (!readString(line, "record", record, true))
            return badLine(lineNumber, "missing or invalid \"record\"");
        if (record == "operation") {
            OperationRecord op;
            std::int64_t end = 0;
            bool hasEnd = line.contains("endNs") && !line["endNs"].is_null();
            if (!readInt(line, "id", op.id, true) || !readString(line, "verb", op.verb, true)
                || !readString(line, "key", op.key, true) || !readInt(line, "startNs", op.startNs, true))
                return badLine(lineNumber, "operation needs id, verb, key and startNs of the right types");
            if (!readString(line, "client", op.clientId, false) || !readString(line, "rvSent", op.resourceVersionSent, false)
                || !readInt(line, "endNs", end, false) || !readInt(line, "code", op.statusCode, false)
                || !readString(line, "reason", op.reason, false)
                || !readString(line, "rvProduced", op.resourceVersionProduced, false)
                || !readInt(line, "casRetries", op.casRetries, false)
                || !readString(line, "strategy", op.strategy, false)
                || !readString(line, "message", op.message, false))
                return badLine(lineNumber, "operation field of the wrong type");
            if (hasEnd)
                op.endNs = end;
            if (auto it = line.find("object"); it != line.end() && !it->is_null())
                op.object = std::make_shared<const model::Object>(std::move(*it));
            if (auto it = line.find("request"); it != line.end() && it->is_string())
                op.requestBody = it->get<std::string>();
            if (auto it = line.find("noop"); it != line.end() && it->is_boolean())
                op.noop = it->get<bool>();
            if (auto it = line.find("apply"); it != line.end() && it->is_boolean())
                op.apply = it->get<bool>();
            if (auto it = line.find("remote"); it != line.end() && it->is_boolean())
                op.remote = it->get<bool>();
            if (auto it = line.find("injected"); it != line.end() && it->is_string())
                op.injected = it->get<std::string>();
            if (auto it = line.find("faultRule"); it != line.end() && it->is_number_unsigned())
                op.faultRuleId = it->get<std::uint64_t>();
            history.append(std::move(op));
        } else if (record == "watch") {
            WatchDelivery delivery;
            if (!readString(line, "watcher", delivery.watcherId, true) || !readString(line, "type", delivery.eventType, true)
                || !readString(line, "rv", delivery.resourceVersion, true))
                return badLine(lineNumber, "watch delivery needs watcher, type and rv strings");
            if (!readInt(line, "operation", delivery.operationId, false) || !readString(line, "key", delivery.key, false)
                || !readInt(line, "timeNs", delivery.timeNs, false)
                || !readString(line, "message", delivery.message, false))
                return badLine(lineNumber, "watch delivery field of the wrong type");
            history.append(std::move(delivery));
        } else if (record == "journal") {
            std::uint64_t operations = 0, deliveries = 0;
            if (!readInt(line, "droppedOperations", operations, false)
                || !readInt(line, "droppedWatchDeliveries", deliveries, false))
                return badLine(lineNumber, "journal counts of the wrong type");
            history.m_droppedOperations += operations;
            history.m_droppedDeliveries += deliveries;
        } else {
            return badLine(lineNumber, "unknown record \"" + record + "\"");
        }
    }
    return history;
}

} // namespace rvscope::history
