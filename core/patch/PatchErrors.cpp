// SPDX-License-Identifier: MIT
#include "patch/PatchErrors.h"

#include <nlohmann/json.hpp>

namespace rvscope::patch {

model::Status unprocessablePatch()
{
    model::Status status;
    status.code = 422;
    status.reason = "Invalid";
    status.message = "the server rejected our request due to an error in our request";
    return status;
}

std::string describeJson(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char *goJsonTypeName(const nlohmann::json &value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object:
        return "object";
    case nlohmann::json::value_t::array:
        return "array";
    case nlohmann::json::value_t::string:
        return "string";
    case nlohmann::json::value_t::boolean:
        return "bool";
    case nlohmann::json::value_t::null:
        return "null";
    default:
        return "number";
    }
}

} // namespace rvscope::patch
