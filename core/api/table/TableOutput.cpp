// SPDX-License-Identifier: MIT
#include "api/table/TableOutput.h"

#include <chrono>
#include <memory>

#include "api/table/Printers.h"
#include "model/JsonAccess.h"
#include "model/JsonWrite.h"
#include "model/StatusErrors.h"
#include "registry/ResourceType.h"

namespace rvscope::api::table {
namespace {

std::string trimmed(std::string text)
{
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string &text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(trimmed(text.substr(start, end == std::string::npos ? std::string::npos : end - start)));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

std::int64_t nowSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string columnsJson(const Printer &printer)
{
    nlohmann::json columns = nlohmann::json::array();
    for (const Column &column : printer.columns)
        columns.push_back({{"name", column.name},
                           {"type", column.type},
                           {"format", column.format},
                           {"description", column.description},
                           {"priority", column.priority}});
    return model::dumpJson(columns);
}

void appendRow(std::string &out, const TableRequest &request, const Printer &printer, const model::Object &object,
               std::int64_t now)
{
    const nlohmann::json &tree = object.json();
    out += R"({"cells":)";
    model::appendJson(out, printer.cells(tree, now));
    out += R"(,"object":)";
    if (request.includeObject == "None") {
        out += "null";
    } else if (request.includeObject == "Object") {
        out += object.bytes();
    } else {
        out += R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/)" + request.version + R"(","metadata":)";
        model::appendJson(out, model::member(tree, "metadata"));
        out += '}';
    }
    out += '}';
}

} // namespace

model::Result<std::optional<TableRequest>> tableRequested(const ApiRequest &request)
{
    const std::string accept = request.header("accept");
    if (accept.find("as=Table") == std::string::npos)
        return std::optional<TableRequest>();
    for (const std::string &clause : split(accept, ',')) {
        const std::vector<std::string> parts = split(clause, ';');
        const std::string &media = parts.front();
        if (media != "application/json" && media != "application/*" && media != "*/*")
            continue;
        std::string as, group, version;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            const std::size_t equals = parts[i].find('=');
            if (equals == std::string::npos)
                continue;
            const std::string key = parts[i].substr(0, equals);
            const std::string value = parts[i].substr(equals + 1);
            if (key == "as")
                as = value;
            else if (key == "g")
                group = value;
            else if (key == "v")
                version = value;
        }
        if (as.empty())
            return std::optional<TableRequest>(); // plain JSON comes first
        if (as != "Table" || group != "meta.k8s.io" || (version != "v1" && version != "v1beta1"))
            continue; // a conversion this server cannot make: the next clause
        TableRequest table;
        table.version = version;
        if (const std::string *include = request.queryValue("includeObject"); include && !include->empty()) {
            if (*include != "Metadata" && *include != "Object" && *include != "None")
                return model::errors::badRequest("Unable to convert to Table as requested: includeObject must be "
                                                 "'Metadata', 'Object', 'None', or empty");
            table.includeObject = *include;
        }
        return std::optional<TableRequest>(table);
    }
    return std::optional<TableRequest>();
}

std::string tableJson(const TableRequest &request, const registry::ResourceType &type,
                      const std::vector<model::ObjectPtr> &objects, const TablePage &page, bool headers)
{
    const Printer printer = printerFor(type);
    const std::int64_t now = nowSeconds();
    std::string out = R"({"kind":"Table","apiVersion":"meta.k8s.io/)" + request.version + R"(","metadata":{)";
    bool first = true;
    auto field = [&](const char *name, const std::string &json) {
        out += first ? "" : ",";
        first = false;
        out += '"' + std::string(name) + "\":" + json;
    };
    if (!page.resourceVersion.empty())
        field("resourceVersion", nlohmann::json(page.resourceVersion).dump());
    if (!page.continueToken.empty())
        field("continue", nlohmann::json(page.continueToken).dump());
    if (page.remainingItemCount)
        field("remainingItemCount", std::to_string(*page.remainingItemCount));
    out += R"(},"columnDefinitions":)";
    out += headers ? columnsJson(printer) : "null";
    out += R"(,"rows":[)";
    for (std::size_t i = 0; i < objects.size(); ++i) {
        if (i > 0)
            out += ',';
        appendRow(out, request, printer, *objects[i], now);
    }
    out += "]}";
    return out;
}

std::function<std::string(const registry::WatchEvent &)> tableWatchEncoder(TableRequest request,
                                                                         std::shared_ptr<const registry::ResourceType> type)
{
    auto headersSent = std::make_shared<bool>(false);
    return [request = std::move(request), type = std::move(type), headersSent](const registry::WatchEvent &event) {
        using registry::WatchEventType;
        if (!event.object || event.type == WatchEventType::Error || event.type == WatchEventType::Bookmark)
            return registry::watchEventJson(event);
        TablePage page;
        page.resourceVersion = event.object->resourceVersion();
        const std::string table = tableJson(request, *type, {event.object}, page, !*headersSent);
        *headersSent = true;
        return R"({"type":")" + std::string(registry::watchEventTypeName(event.type)) + R"(","object":)" + table + '}';
    };
}

} // namespace rvscope::api::table
