// SPDX-License-Identifier: MIT
#pragma once

#include <QtTest/QtTest>
#include <QtWebSockets/QWebSocket>

#include <nlohmann/json.hpp>

#include "ServerFixture.h"

// A bulk watch client on a ServerFixture.
namespace rvscope::testing {

inline const QString BULK_PATH = QStringLiteral("/apis/bulk.k8s.io/v1/bulkgetoperations");

// The bulk tests' server: a registry served on 127.0.0.1 (ServerFixture.h).
using BulkFixture = ServerFixture;

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
    // A barrier instead of a wait: a request the session always answers (closing a channel
    // that does not exist), sent now. Frames reach the client in the order the server wrote
    // them, so once its answer is here, every event of what happened before it is too.
    bool sync()
    {
        const std::int64_t id = m_nextSyncId++;
        send({{"id", id}, {"closeWatch", {{"channel", 1 << 30}}}});
        return !response(id).is_null();
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
    std::int64_t m_nextSyncId = 1'000'000'000;
};

} // namespace rvscope::testing
