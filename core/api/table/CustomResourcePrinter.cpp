// SPDX-License-Identifier: MIT
// A custom resource's Table columns: Name, then its version's additionalPrinterColumns (or
// Age when it has none), each cell the first JSONPath result converted to the column's type
// (table-output.md §4.2).
#include <cmath>

#include "api/table/PrinterColumns.h"
#include "api/table/Printers.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;

// The first value `path` reaches: ".spec.replicas", ".status.conditions[0].type",
// ".items[*].name" (the first item), a backslash escaping a dot in a name. Null when none.
const json *evaluate(const json &object, const std::string &path)
{
    const json *node = &object;
    std::size_t at = 0;
    while (at < path.size()) {
        if (path[at] == '.') {
            ++at;
            std::string name;
            while (at < path.size() && path[at] != '.' && path[at] != '[') {
                if (path[at] == '\\' && at + 1 < path.size())
                    ++at;
                name += path[at++];
            }
            if (name.empty())
                continue;
            if (!node->is_object())
                return nullptr;
            auto it = node->find(name);
            if (it == node->end())
                return nullptr;
            node = &*it;
        } else if (path[at] == '[') {
            const std::size_t close = path.find(']', at);
            if (close == std::string::npos)
                return nullptr;
            const std::string index = path.substr(at + 1, close - at - 1);
            at = close + 1;
            if (!node->is_array() || node->empty())
                return nullptr;
            std::size_t i = 0;
            if (index != "*") {
                try {
                    i = std::stoul(index);
                } catch (const std::exception &) {
                    return nullptr;
                }
            }
            if (i >= node->size())
                return nullptr;
            node = &(*node)[i];
        } else {
            return nullptr; // a form this subset does not read
        }
    }
    return node;
}

json cellOf(const json *value, const std::string &type, std::int64_t now)
{
    if (!value || value->is_null())
        return nullptr;
    if (type == "integer") {
        if (value->is_number_integer())
            return *value;
        if (value->is_number_float())
            return std::int64_t(std::trunc(value->get<double>()));
        return nullptr;
    }
    if (type == "number")
        return value->is_number() ? json(value->get<double>()) : json();
    if (type == "boolean")
        return value->is_boolean() ? *value : json();
    if (type == "date") {
        if (!value->is_string())
            return nullptr;
        const std::string &text = value->get_ref<const std::string &>();
        if (text.empty())
            return "<unknown>";
        const auto time = parseTime(text);
        return time ? json(humanDuration(now - *time)) : json("<invalid>");
    }
    return value->is_string() ? *value : json(value->dump());
}

} // namespace

Printer customResourcePrinter(const json &printerColumns)
{
    struct Extra {
        std::string path;
        std::string type;
    };
    Printer printer;
    printer.columns.push_back(nameColumn());
    std::vector<Extra> extras;
    if (printerColumns.is_array() && !printerColumns.empty()) {
        for (const json &definition : printerColumns) {
            const std::string path = textOr(model::member(definition, "jsonPath"), "");
            const std::string description = textOr(
                model::member(definition, "description"),
                "Custom resource definition column (in JSONPath format): " + path);
            printer.columns.push_back(Column{textOr(model::member(definition, "name"), ""),
                                             textOr(model::member(definition, "type"), "string"),
                                             textOr(model::member(definition, "format"), ""), description,
                                             int(integerOr0(model::member(definition, "priority")))});
            extras.push_back({path, printer.columns.back().type});
        }
    } else {
        printer.columns.push_back(Column{"Age", "date", "", AGE_DOC, 0});
        extras.push_back({".metadata.creationTimestamp", "date"});
    }
    printer.cells = [extras](const json &object, std::int64_t now) {
        json cells = json::array({textOr(model::memberAt(object, "metadata", "name"), "")});
        for (const Extra &extra : extras)
            cells.push_back(cellOf(evaluate(object, extra.path), extra.type, now));
        return cells;
    };
    return printer;
}

} // namespace rvscope::api::table
