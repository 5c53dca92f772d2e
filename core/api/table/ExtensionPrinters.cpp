// SPDX-License-Identifier: MIT
// The API's extension points: admission webhook configurations and the aggregator's APIService
// (table-output.md §4.3, §5.2).
#include "api/table/BuiltInPrinters.h"
#include "api/table/PrinterColumns.h"
#include "api/table/TableCells.h"
#include "model/JsonAccess.h"

namespace rvscope::api::table {
namespace {

using json = nlohmann::json;
using model::member;
using model::stringOr;

Printer webhookConfigurations()
{
    return {{nameColumn(),
             column("Webhooks", "Webhooks indicates the number of webhooks registered in this configuration", 0,
                    "integer"),
             ageColumn()},
            [](const json &o, std::int64_t now) {
                return json::array({objectName(o), sizeOf(member(o, "webhooks")), objectAge(o, now)});
            }};
}

// "True"; "<status> (<reason>)" when there is a reason; the bare status; "Unknown" without the condition.
std::string availability(const json &apiService)
{
    const json &conditions = model::memberAt(apiService, "status", "conditions");
    for (const json &condition : conditions.is_array() ? conditions : json::array()) {
        if (member(condition, "type") != "Available")
            continue;
        const std::string status = stringOr(member(condition, "status"));
        const std::string reason = stringOr(member(condition, "reason"));
        return status == "True" || reason.empty() ? status : status + " (" + reason + ')';
    }
    return "Unknown";
}

} // namespace

Printer validatingWebhookConfigurations() { return webhookConfigurations(); }
Printer mutatingWebhookConfigurations() { return webhookConfigurations(); }

// The aggregator's own convertor, not a printers.go one: it sends its column definitions on
// every watch event (it ignores NoHeaders).
Printer apiServices()
{
    Printer printer{{nameColumn(), column("Service", "The reference to the service that hosts this API endpoint."),
                     column("Available", "Whether this service is available."), ageColumn()},
                    [](const json &o, std::int64_t now) {
                        const json &service = model::memberAt(o, "spec", "service");
                        const std::string reference = service.is_object()
                            ? stringOr(member(service, "namespace")) + '/' + stringOr(member(service, "name"))
                            : "Local";
                        return json::array({objectName(o), reference, availability(o), objectAge(o, now)});
                    }};
    printer.headersAlways = true;
    return printer;
}

} // namespace rvscope::api::table
