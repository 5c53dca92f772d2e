// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "RegistryTestSupport.h"
#include "api/ApiHandler.h"
#include "server/ApiServer.h"

namespace rvscope::testing {

// A registry served by a real ApiServer on 127.0.0.1 (port 0), in the test's own thread, with
// shortcuts to write objects straight into its stores. The raw HTTP helpers are RawHttp.h.
struct ServerFixture {
    RegistryFixture registryFixture;
    std::shared_ptr<registry::Registry> registry;
    std::shared_ptr<api::ApiHandler> handler;
    std::unique_ptr<server::ApiServer> server;
    quint16 port = 0;

    explicit ServerFixture(std::map<std::string, std::shared_ptr<storage::Storage>> separate = {},
                           api::ApiHandler::Options handlerOptions = {})
        : registryFixture(std::move(separate))
        , registry(registryFixture.registry.get(), [](registry::Registry *) {})
        , handler(std::make_shared<api::ApiHandler>(registry, handlerOptions))
        , server(std::make_unique<server::ApiServer>(handler))
    {
        port = server->start(QHostAddress::LocalHost, 0);
    }

    std::shared_ptr<registry::Store> store(const std::string &resource) const
    {
        return registryFixture.store("", "v1", resource);
    }
    model::ObjectPtr create(const std::string &resource, nlohmann::json object, const std::string &ns = "default")
    {
        auto created = run(store(resource)->create(ns, model::Object(std::move(object)), registry::WriteOptions()));
        return created.value();
    }
    model::ObjectPtr createConfigMap(const std::string &name, const std::string &ns = "default",
                                     const std::map<std::string, std::string> &labels = {})
    {
        nlohmann::json object = {{"metadata", {{"name", name}}}, {"data", {{"a", "1"}}}};
        if (!labels.empty())
            object["metadata"]["labels"] = labels;
        return create("configmaps", std::move(object), ns);
    }
    model::ObjectPtr createSecret(const std::string &name, const std::string &ns = "default")
    {
        return create("secrets", {{"metadata", {{"name", name}}}, {"data", {{"k", "dg=="}}}}, ns);
    }
    model::ObjectPtr touchConfigMap(const std::string &name, const std::string &value, const std::string &ns = "default")
    {
        const std::string patch = R"({"data":{"a":")" + value + R"("}})";
        auto updated = run(store("configmaps")->update(ns, name, mergePatch(patch.c_str()), registry::WriteOptions()));
        return updated.value().object;
    }
    std::int64_t currentRevision() const { return run(registryFixture.storage->currentRevision()).value(); }
};

} // namespace rvscope::testing
