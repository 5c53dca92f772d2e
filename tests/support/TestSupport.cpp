// SPDX-License-Identifier: MIT
#include "TestSupport.h"

namespace rvscope::testing {

model::Object configMap(const std::string &name, const std::string &ns,
                        const std::map<std::string, std::string> &data)
{
    nlohmann::json json = {
        {"apiVersion", "v1"},
        {"kind", "ConfigMap"},
        {"metadata", {{"name", name}, {"namespace", ns}}},
        {"data", nlohmann::json::object()},
    };
    for (const auto &[key, value] : data)
        json["data"][key] = value;
    return model::Object(std::move(json));
}

model::Object configMapOfSize(const std::string &name, std::size_t bytes)
{
    model::Object object = configMap(name);
    nlohmann::json &json = object.mutableJson();
    json["metadata"]["labels"] = {{"app", "rvscope-bench"}, {"tier", "backend"}};
    json["metadata"]["uid"] = "6f1c2a4e-0d1b-4c55-9a3e-1f2b3c4d5e6f";
    json["metadata"]["creationTimestamp"] = "2026-11-21T00:00:00Z";
    int i = 0;
    while (object.bytes().size() < bytes) {
        json["data"]["key-" + std::to_string(i)] = std::string(40, static_cast<char>('a' + i % 26));
        ++i;
        object.mutableJson(); // drop the cached encoding so bytes() measures again
    }
    return object;
}

std::string configMapKey(const std::string &name, const std::string &ns)
{
    return "/registry/configmaps/" + ns + '/' + name;
}

} // namespace rvscope::testing
