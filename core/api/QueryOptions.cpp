// SPDX-License-Identifier: MIT
#include "api/QueryOptions.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "model/Object.h"
#include "model/StatusErrors.h"
#include "registry/FieldManager.h"
#include "registry/validation/FieldErrors.h"

namespace rvscope::api {
namespace {
model::Result<std::optional<bool>> boolParameter(const ApiRequest &request, const std::string &name)
{
    const std::string *value = request.queryValue(name);
    if (!value)
        return std::optional<bool>();
    auto parsed = parseGoBool(*value);
    if (!parsed)
        return model::errors::badRequest("strconv.ParseBool: parsing \"" + *value + "\": invalid syntax (parameter "
                                         + name + ")");
    return std::optional<bool>(*parsed);
}

model::Result<std::optional<std::int64_t>> intParameter(const ApiRequest &request, const std::string &name)
{
    const std::string *value = request.queryValue(name);
    if (!value || value->empty())
        return std::optional<std::int64_t>();
    std::int64_t parsed = 0;
    const char *end = value->data() + value->size();
    auto [ptr, ec] = std::from_chars(value->data(), end, parsed);
    if (ec != std::errc() || ptr != end)
        return model::errors::badRequest("strconv.ParseInt: parsing \"" + *value + "\": invalid syntax (parameter "
                                         + name + ")");
    return std::optional<std::int64_t>(parsed);
}

model::Result<bool> dryRunFrom(const std::string &value)
{
    if (value.empty())
        return false;
    if (value == "All")
        return true;
    return model::errors::badRequest("dryRun: Unsupported value: []string{\"" + value
                                     + "\"}: supported values: \"All\"");
}
} // namespace

std::optional<bool> parseGoBool(const std::string &text)
{
    if (text == "1" || text == "t" || text == "T" || text == "TRUE" || text == "true" || text == "True")
        return true;
    if (text == "0" || text == "f" || text == "F" || text == "FALSE" || text == "false" || text == "False")
        return false;
    return std::nullopt;
}

model::Result<std::int64_t> getResourceVersionFrom(const ApiRequest &request)
{
    const std::string *value = request.queryValue("resourceVersion");
    if (!value || value->empty() || *value == "0")
        return std::int64_t(0);
    // The watch cache parses it (cacher.Get: ParseResourceVersion) before it looks anything
    // up; worded as for a list's (registry::Store::list).
    const std::optional<std::int64_t> revision = model::parseResourceVersion(*value);
    if (!revision)
        return model::errors::badRequest("invalid resource version: " + *value);
    return *revision;
}

model::Result<registry::ListOptions> listOptionsFrom(const ApiRequest &request)
{
    // `watch` is part of upstream's ListOptions: malformed, it fails the list as well.
    if (auto watch = boolParameter(request, "watch"); !watch)
        return std::move(watch).error();
    registry::ListOptions options;
    auto text = [&request](const char *name) {
        const std::string *value = request.queryValue(name);
        return value ? *value : std::string();
    };
    options.labelSelector = text("labelSelector");
    options.fieldSelector = text("fieldSelector");
    options.resourceVersion = text("resourceVersion");
    options.resourceVersionMatch = text("resourceVersionMatch");
    options.continueToken = text("continue");
    auto limit = intParameter(request, "limit");
    if (!limit)
        return std::move(limit).error();
    options.limit = limit->value_or(0) > 0 ? **limit : 0;
    auto timeout = intParameter(request, "timeoutSeconds");
    if (!timeout)
        return std::move(timeout).error();
    options.timeoutSeconds = *timeout;
    auto bookmarks = boolParameter(request, "allowWatchBookmarks");
    if (!bookmarks)
        return std::move(bookmarks).error();
    options.allowWatchBookmarks = bookmarks->value_or(false);
    auto initial = boolParameter(request, "sendInitialEvents");
    if (!initial)
        return std::move(initial).error();
    options.sendInitialEvents = *initial;
    return options;
}

model::Result<bool> isWatchRequest(const ApiRequest &request)
{
    auto watch = boolParameter(request, "watch");
    if (!watch)
        return std::move(watch).error();
    return watch->value_or(false);
}

model::Result<registry::WriteOptions> writeOptionsFrom(const ApiRequest &request)
{
    registry::WriteOptions options;
    const std::string *dryRun = request.queryValue("dryRun");
    auto parsed = dryRunFrom(dryRun ? *dryRun : std::string());
    if (!parsed)
        return std::move(parsed).error();
    options.dryRun = *parsed;
    if (const std::string *manager = request.queryValue("fieldManager"))
        options.fieldManager = *manager;
    options.manager = options.fieldManager.empty() ? registry::managerFromUserAgent(request.header("user-agent"))
                                                   : options.fieldManager;
    auto force = boolParameter(request, "force"); // Go's ParseBool: the Python client sends "True"
    if (!force)
        return std::move(force).error();
    options.force = force->value_or(false);
    const std::string *validation = request.queryValue("fieldValidation");
    auto directive = registry::parseFieldValidation(validation ? *validation : std::string());
    if (!directive) {
        // ValidateFieldValidation, on the options of the request's verb.
        const std::string kind = request.method == "POST" ? "CreateOptions"
            : request.method == "PUT"                      ? "UpdateOptions"
                                                           : "PatchOptions";
        return model::errors::invalid(kind + ".meta.k8s.io", "",
                                      {{"FieldValueNotSupported",
                                        "Unsupported value: " + registry::goQuote(*validation)
                                            + ": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                                        "fieldValidation"}},
                                      kind, "meta.k8s.io");
    }
    options.fieldValidation = *directive;
    return options;
}

model::Result<registry::DeleteOptions> deleteOptionsFrom(const ApiRequest &request)
{
    registry::DeleteOptions options;
    nlohmann::json body = nlohmann::json::object();
    if (!request.body.empty()) {
        body = model::parseJson(request.body).value_or(nlohmann::json());
        if (!body.is_object())
            return model::errors::badRequest("the DeleteOptions body is not a JSON object");
    }
    // Body first (kubectl), query parameters as the fallback (the Python client).
    const nlohmann::json &dryRun = model::member(body, "dryRun");
    if (dryRun.is_array() && !dryRun.empty()) {
        auto parsed = dryRunFrom(model::stringOr(dryRun[0]));
        if (!parsed)
            return std::move(parsed).error();
        options.dryRun = *parsed;
    } else if (const std::string *query = request.queryValue("dryRun")) {
        auto parsed = dryRunFrom(*query);
        if (!parsed)
            return std::move(parsed).error();
        options.dryRun = *parsed;
    }
    const nlohmann::json &preconditions = model::member(body, "preconditions");
    if (!preconditions.is_null() && !preconditions.is_object())
        return model::errors::badRequest("DeleteOptions: json: cannot unmarshal " + std::string(preconditions.type_name())
                                         + " into Go struct field DeleteOptions.preconditions of type v1.Preconditions");
    for (const char *field : {"uid", "resourceVersion"}) {
        const nlohmann::json &value = model::member(preconditions, field);
        if (!value.is_null() && !value.is_string())
            return model::errors::badRequest(std::string("DeleteOptions: json: cannot unmarshal ") + value.type_name()
                                             + " into Go struct field Preconditions.preconditions." + field
                                             + " of type string");
    }
    if (const nlohmann::json &uid = model::member(preconditions, "uid"); uid.is_string())
        options.preconditions.uid = uid.get<std::string>();
    if (const nlohmann::json &rv = model::member(preconditions, "resourceVersion"); rv.is_string())
        options.preconditions.resourceVersion = rv.get<std::string>();
    if (const nlohmann::json &grace = model::member(body, "gracePeriodSeconds"); grace.is_number_integer()) {
        options.gracePeriodSeconds = grace.get<std::int64_t>();
    } else {
        auto query = intParameter(request, "gracePeriodSeconds");
        if (!query)
            return std::move(query).error();
        options.gracePeriodSeconds = *query;
    }
    if (const nlohmann::json &policy = model::member(body, "propagationPolicy"); policy.is_string())
        options.propagationPolicy = policy.get<std::string>();
    else if (const std::string *query = request.queryValue("propagationPolicy"))
        options.propagationPolicy = *query;
    return options;
}

} // namespace rvscope::api
