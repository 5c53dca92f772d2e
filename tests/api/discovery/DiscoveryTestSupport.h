// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "../../registry/RegistryTestSupport.h"
#include "registry/CustomResources.h"

// Custom resource types for the discovery and OpenAPI tests, and a way to find an entry by
// one of its fields in a JSON array.
namespace rvscope::testing {

// A CustomResourceDefinition for crontabs.stable.example.com, served as v1 (storage, with a
// /status subresource) and v1beta1, plus v2alpha1 when `withAlpha`.
inline nlohmann::json cronTabDefinition(const std::string &scope = "Namespaced", bool withAlpha = false)
{
    nlohmann::json versions = nlohmann::json::array({{{"name", "v1beta1"}, {"served", true}, {"storage", false}},
                                                     {{"name", "v1"},
                                                      {"served", true},
                                                      {"storage", true},
                                                      {"subresources", {{"status", nlohmann::json::object()}}}}});
    if (withAlpha)
        versions.push_back({{"name", "v2alpha1"}, {"served", true}, {"storage", false}});
    return {{"apiVersion", "apiextensions.k8s.io/v1"},
            {"kind", "CustomResourceDefinition"},
            {"metadata", {{"name", "crontabs.stable.example.com"}}},
            {"spec",
             {{"group", "stable.example.com"},
              {"scope", scope},
              {"names", {{"plural", "crontabs"}, {"singular", "crontab"}, {"kind", "CronTab"}, {"shortNames", {"ct"}}}},
              {"versions", versions}}}};
}

// The registry's types plus the custom types `definition` adds (without storing it).
inline std::vector<std::shared_ptr<const registry::ResourceType>>
withCustomTypes(std::vector<std::shared_ptr<const registry::ResourceType>> types, const nlohmann::json &definition)
{
    for (auto &type : registry::customResourceTypes(model::Object(definition)))
        types.push_back(std::move(type));
    return types;
}

// The element of `array` whose `field` is `value`, or null.
inline nlohmann::json findBy(const nlohmann::json &array, const char *field, const std::string &value)
{
    if (!array.is_array())
        return nullptr;
    const auto found = std::find_if(array.begin(), array.end(), [&](const nlohmann::json &item) {
        return item.is_object() && item.contains(field) && item[field] == value;
    });
    return found == array.end() ? nlohmann::json(nullptr) : *found;
}

} // namespace rvscope::testing
