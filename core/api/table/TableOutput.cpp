// SPDX-License-Identifier: MIT
#include "api/table/TableOutput.h"

#include <chrono>
#include <memory>

#include "api/MediaRange.h"
#include "api/table/Printers.h"
#include "model/JsonAccess.h"
#include "model/JsonWrite.h"
#include "model/StatusErrors.h"
#include "registry/ResourceType.h"

namespace rvscope::api::table {
namespace {

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
        return std::optional<TableRequest>(); // the common case costs one find
    for (const MediaRange &range : parseAccept(accept)) {
        if (range.acceptsPlainJson())
            return std::optional<TableRequest>(); // plain JSON comes first
        const std::string version = range.param("v");
        if ((range.type != "application/json" && range.type != "application/*" && range.type != "*/*")
            || range.param("as") != "Table" || range.param("g") != "meta.k8s.io"
            || (version != "v1" && version != "v1beta1"))
            continue; // a conversion this server cannot make: the next range
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

namespace {
std::string tableWith(const TableRequest &request, const Printer &printer, const std::vector<model::ObjectPtr> &objects,
                      const TablePage &page, bool headers)
{
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
    out += headers || printer.headersAlways ? columnsJson(printer) : "null";
    out += R"(,"rows":[)";
    for (std::size_t i = 0; i < objects.size(); ++i) {
        if (i > 0)
            out += ',';
        appendRow(out, request, printer, *objects[i], now);
    }
    out += "]}";
    return out;
}
} // namespace

std::string tableJson(const TableRequest &request, const registry::ResourceType &type,
                      const std::vector<model::ObjectPtr> &objects, const TablePage &page, bool headers)
{
    return tableWith(request, printerFor(type), objects, page, headers);
}

std::function<std::string(const registry::WatchEvent &)> tableWatchEncoder(TableRequest request,
                                                                         std::shared_ptr<const registry::ResourceType> type)
{
    auto headersSent = std::make_shared<bool>(false);
    auto printer = std::make_shared<const Printer>(printerFor(*type)); // made once per watch, not per event
    return [request = std::move(request), printer, headersSent](const registry::WatchEvent &event) {
        using registry::WatchEventType;
        if (!event.object || event.type == WatchEventType::Error || event.type == WatchEventType::Bookmark)
            return registry::watchEventJson(event);
        TablePage page;
        page.resourceVersion = event.object->resourceVersion();
        const std::string table = tableWith(request, *printer, {event.object}, page, !*headersSent);
        *headersSent = true;
        return R"({"type":")" + std::string(registry::watchEventTypeName(event.type)) + R"(","object":)" + table + '}';
    };
}

} // namespace rvscope::api::table
