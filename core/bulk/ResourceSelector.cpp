// SPDX-License-Identifier: MIT
#include "bulk/ResourceSelector.h"

#include <nlohmann/json.hpp>

#include "model/StatusErrors.h"

namespace rvscope::bulk {
namespace {
// A string member: absent is "", present with another JSON type is an error.
bool readString(const nlohmann::json &object, const char *field, std::string &out)
{
    auto it = object.find(field);
    if (it == object.end() || it->is_null())
        return true;
    if (!it->is_string())
        return false;
    out = it->get<std::string>();
    return true;
}

model::Status wrongType(const std::string &where, const std::string &field, const char *expected)
{
    return model::errors::badRequest(where + "." + field + ": expected " + expected);
}

std::string trimmed(std::string text)
{
    const auto first = text.find_first_not_of(' ');
    if (first == std::string::npos)
        return {};
    const auto last = text.find_last_not_of(' ');
    return text.substr(first, last - first + 1);
}
} // namespace

std::string ResourceSelector::objectName() const
{
    const std::string &selector = options.fieldSelector;
    std::size_t start = 0;
    while (start <= selector.size()) {
        std::size_t end = selector.find(',', start);
        if (end == std::string::npos)
            end = selector.size();
        const std::string term = selector.substr(start, end - start);
        const auto equals = term.find('=');
        if (equals != std::string::npos && (equals == 0 || term[equals - 1] != '!')) {
            const std::string key = trimmed(term.substr(0, equals));
            std::string value = term.substr(equals + 1);
            if (!value.empty() && value.front() == '=')
                value.erase(0, 1);
            if (key == "metadata.name")
                return trimmed(value);
        }
        start = end + 1;
    }
    return {};
}

model::Result<ResourceSelector> parseResourceSelector(const nlohmann::json &json, const std::string &where)
{
    if (!json.is_object())
        return model::errors::badRequest(where + ": expected an object with \"resource\" and \"options\"");
    ResourceSelector selector;
    auto resource = json.find("resource");
    if (resource == json.end() || !resource->is_object())
        return wrongType(where, "resource", "an object {group, version, resource}");
    if (!readString(*resource, "group", selector.resource.group))
        return wrongType(where, "resource.group", "a string");
    if (!readString(*resource, "version", selector.resource.version))
        return wrongType(where, "resource.version", "a string");
    if (!readString(*resource, "resource", selector.resource.resource))
        return wrongType(where, "resource.resource", "a string");
    if (selector.resource.version.empty() || selector.resource.resource.empty())
        return model::errors::badRequest(where + ".resource: version and resource are required");

    auto options = json.find("options");
    if (options == json.end() || options->is_null())
        return selector;
    if (!options->is_object())
        return wrongType(where, "options", "an object");
    registry::ListOptions &list = selector.options;
    struct StringField {
        const char *name;
        std::string *target;
    };
    const StringField fields[] = {
        {"namespace", &selector.namespaceName},
        {"labelSelector", &list.labelSelector},
        {"fieldSelector", &list.fieldSelector},
        {"resourceVersion", &list.resourceVersion},
        {"resourceVersionMatch", &list.resourceVersionMatch},
    };
    for (const auto &field : fields) {
        if (!readString(*options, field.name, *field.target))
            return wrongType(where, std::string("options.") + field.name, "a string");
    }
    auto bookmarks = options->find("allowWatchBookmarks");
    if (bookmarks != options->end() && !bookmarks->is_null()) {
        if (!bookmarks->is_boolean())
            return wrongType(where, "options.allowWatchBookmarks", "a boolean");
        list.allowWatchBookmarks = bookmarks->get<bool>();
    }
    auto initial = options->find("sendInitialEvents");
    if (initial != options->end() && !initial->is_null()) {
        if (!initial->is_boolean())
            return wrongType(where, "options.sendInitialEvents", "a boolean");
        list.sendInitialEvents = initial->get<bool>();
    }
    return selector;
}

std::optional<model::Status> authorizeSelector(const Authorizer &authorize, const std::string &user,
                                               const std::string &verb, const ResourceSelector &selector)
{
    if (!authorize)
        return std::nullopt;
    return authorize(user, verb, selector.resource.group, selector.resource.resource, selector.namespaceName,
                     selector.objectName());
}

} // namespace rvscope::bulk
