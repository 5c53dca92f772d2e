// SPDX-License-Identifier: MIT
#include "registry/ListOptions.h"

#include "model/StatusErrors.h"

namespace rvscope::registry {
namespace {
model::Status invalidOptions(std::string field, std::string type, std::string message)
{
    return model::errors::invalid("ListOptions.meta.k8s.io", "",
                                  {{std::move(type), std::move(message), std::move(field)}});
}

model::Status forbidden(std::string field, const std::string &detail)
{
    return invalidOptions(std::move(field), "FieldValueForbidden", "Forbidden: " + detail);
}
} // namespace

std::optional<model::Status> validateListOptions(const ListOptions &options, bool watch)
{
    const std::string &match = options.resourceVersionMatch;
    if (options.sendInitialEvents.has_value()) {
        if (!watch)
            return forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list");
        if (match != "NotOlderThan") {
            return invalidOptions("resourceVersionMatch", "FieldValueNotSupported",
                                  "Unsupported value: \"" + match + "\": supported values: \"NotOlderThan\"");
        }
        return std::nullopt;
    }
    if (match.empty())
        return std::nullopt;
    if (watch)
        return forbidden("resourceVersionMatch",
                         "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
    if (options.resourceVersion.empty())
        return forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided");
    if (!options.continueToken.empty())
        return forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided");
    if (match == "Exact") {
        if (options.resourceVersion == "0")
            return forbidden("resourceVersionMatch",
                             "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
        return std::nullopt;
    }
    if (match == "NotOlderThan")
        return std::nullopt;
    return invalidOptions("resourceVersionMatch", "FieldValueNotSupported",
                          "Unsupported value: \"" + match
                              + "\": supported values: \"Exact\", \"NotOlderThan\", \"\"");
}

} // namespace rvscope::registry
