// SPDX-License-Identifier: MIT
#pragma once

#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>

#include <nlohmann/json.hpp>

#include "RegistryTestSupport.h"
#include "api/ApiHandler.h"
#include "server/ApiServer.h"

// A registry served by a real ApiServer on 127.0.0.1 (port 0), and a bulk watch client.
namespace rvscope::testing {

inline const QString BULK_PATH = QStringLiteral("/apis/bulk.k8s.io/v1/bulkgetoperations");

struct BulkFixture {
    RegistryFixture registryFixture;
    std::shared_ptr<registry::Registry> registry;
    std::shared_ptr<api::ApiHandler> handler;
    std::unique_ptr<server::ApiServer> server;
    quint16 port = 0;

    explicit BulkFixture(std::map<std::string, std::shared_ptr<storage::Storage>> separate = {},
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

inline nlohmann::json selector(const std::string &resource, nlohmann::json options = nlohmann::json::object())
{
    return {{"resource", {{"group", ""}, {"version", "v1"}, {"resource", resource}}}, {"options", std::move(options)}};
}

inline nlohmann::json watchRequest(std::int64_t id, nlohmann::json sel)
{
    return {{"id", id}, {"watch", {{"selector", std::move(sel)}}}};
}

// One client websocket on the bulk path, collecting every frame it receives.
class BulkClient final {
public:
    explicit BulkClient(quint16 port, const QString &path = BULK_PATH)
    {
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket, [this](const QString &message) {
            frames.push_back(nlohmann::json::parse(message.toStdString(), nullptr, false));
        });
        m_socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1%2").arg(port).arg(path)));
    }
    bool waitConnected()
    {
        return QTest::qWaitFor([this] { return m_socket.state() == QAbstractSocket::ConnectedState; }, 5000);
    }
    void send(const nlohmann::json &request) { m_socket.sendTextMessage(QString::fromStdString(request.dump())); }
    void sendRaw(const QString &text) { m_socket.sendTextMessage(text); }
    void sendBinary(const QByteArray &bytes) { m_socket.sendBinaryMessage(bytes); }
    void close() { m_socket.close(); }
    QWebSocket &socket() { return m_socket; }

    // The response to request `id` (waits for it); null JSON on timeout.
    nlohmann::json response(const nlohmann::json &id, int timeoutMs = 5000)
    {
        nlohmann::json found;
        (void)QTest::qWaitFor(
            [&] {
                for (const auto &frame : frames) {
                    if (frame.is_object() && frame.contains("requestId") && frame["requestId"] == id) {
                        found = frame;
                        return true;
                    }
                }
                return false;
            },
            timeoutMs);
        return found;
    }
    // The events received so far on `channel`, in order ({"type":..., "object":...}).
    std::vector<nlohmann::json> events(std::int64_t channel) const
    {
        std::vector<nlohmann::json> out;
        for (const auto &frame : frames) {
            if (frame.is_object() && frame.contains("event") && frame["channel"] == channel)
                out.push_back(frame["event"]);
        }
        return out;
    }
    bool waitEvents(std::int64_t channel, std::size_t count, int timeoutMs = 5000)
    {
        return QTest::qWaitFor([&] { return events(channel).size() >= count; }, timeoutMs);
    }
    std::size_t eventCount() const
    {
        std::size_t count = 0;
        for (const auto &frame : frames)
            count += frame.is_object() && frame.contains("event");
        return count;
    }

    std::vector<nlohmann::json> frames;

private:
    QWebSocket m_socket;
};

} // namespace rvscope::testing
