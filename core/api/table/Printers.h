// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rvscope::registry {
struct ResourceType;
}

// The columns and cells `kubectl get` shows for each type, as kube-apiserver 1.32's printers
// make them (shared/reference/table-output.md §4, §5). Wide (priority 1) columns are always
// made; kubectl shows them with -o wide.
namespace rvscope::api::table {

struct Column final {
    std::string name;
    std::string type; // string, integer, number, boolean, date
    std::string format; // "name" for the primary name column
    std::string description;
    int priority = 0;
};

struct Printer final {
    std::vector<Column> columns;
    // One cell per column for `object`, ages taken at `now` (seconds since the epoch).
    std::function<nlohmann::json(const nlohmann::json &object, std::int64_t now)> cells;
    // Column definitions even where a Table asks for none (later watch events): the
    // aggregator's APIService convertor ignores NoHeaders (table-output.md §3.1, §4.3).
    bool headersAlways = false;
};

// The printer of `type`: a built-in kind's, a custom resource's additionalPrinterColumns (or
// Name and Age), else the default convertor's Name and Created At.
Printer printerFor(const registry::ResourceType &type);

} // namespace rvscope::api::table
