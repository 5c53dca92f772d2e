// SPDX-License-Identifier: MIT
// Bulk watch channels over the real transport, beyond the protocol's messages: periodic
// bookmarks, and routing 10,000 channels over 100 sockets.
#include "BulkTestSupport.h"

using namespace rvscope;
using testing::BulkClient;
using testing::BulkFixture;
using testing::selector;
using testing::watchRequest;

namespace {
std::string kindOf(const nlohmann::json &event)
{
    return event["object"].value("kind", std::string());
}
std::int64_t rvOf(const nlohmann::json &event)
{
    return std::stoll(event["object"]["metadata"]["resourceVersion"].get<std::string>());
}
} // namespace

class TestBulkWatchChannels final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testBookmarksOnRequest();
    void testTenThousandChannelsOverHundredSockets();
};

void TestBulkWatchChannels::testBookmarksOnRequest()
{
    api::ApiHandler::Options options;
    options.bookmarkIntervalMs = 50;
    BulkFixture fixture({}, options);
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    const std::string rv = std::to_string(fixture.currentRevision());
    client.send(watchRequest(1, selector("configmaps", {{"resourceVersion", rv}, {"allowWatchBookmarks", true}})));
    client.send(watchRequest(2, selector("configmaps", {{"resourceVersion", rv}})));
    QCOMPARE(client.response(1)["channel"], 1);
    QCOMPARE(client.response(2)["channel"], 2);
    const std::int64_t created = std::stoll(fixture.createConfigMap("a")->resourceVersion());
    const auto bookmarked = [&client] {
        for (const auto &event : client.events(1)) {
            if (event["type"] == "BOOKMARK")
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(bookmarked(), 5000);
    auto events = client.events(1);
    QCOMPARE(events[0]["type"], "ADDED");
    const auto &bookmark = events[1];
    QCOMPARE(bookmark["type"], "BOOKMARK");
    QCOMPARE(kindOf(bookmark), "ConfigMap");
    QCOMPARE(bookmark["object"]["apiVersion"], "v1");
    QVERIFY(rvOf(bookmark) >= created);
    // Later events are newer than the bookmark; the channel that did not ask gets none.
    fixture.touchConfigMap("a", "2");
    QVERIFY(client.waitEvents(2, 2));
    QTRY_VERIFY(client.events(1).back()["type"] == "BOOKMARK" || rvOf(client.events(1).back()) > rvOf(bookmark));
    for (const auto &event : client.events(1)) {
        if (event["type"] == "MODIFIED")
            QVERIFY(rvOf(event) > rvOf(bookmark));
    }
    for (const auto &event : client.events(2))
        QVERIFY(event["type"] != "BOOKMARK");
}

void TestBulkWatchChannels::testTenThousandChannelsOverHundredSockets()
{
    constexpr int SOCKETS = 100;
    constexpr int CHANNELS_PER_SOCKET = 100;
    constexpr int OBJECTS = 200; // 100 configmaps + 100 secrets
    BulkFixture fixture;
    api::BulkWatchSession::Options options;
    options.maxChannels = CHANNELS_PER_SOCKET;
    fixture.server->setBulkWatchOptions(options);
    QElapsedTimer timer;
    timer.start();
    std::vector<std::unique_ptr<BulkClient>> clients;
    for (int s = 0; s < SOCKETS; ++s)
        clients.push_back(std::make_unique<BulkClient>(fixture.port));
    for (auto &client : clients)
        QVERIFY(client->waitConnected());
    const std::string rv = std::to_string(fixture.currentRevision());
    auto objectOf = [](int s, int k) { return (s * CHANNELS_PER_SOCKET + k) % OBJECTS; };
    auto resourceOf = [](int object) { return object % 2 == 0 ? std::string("configmaps") : std::string("secrets"); };
    auto objectName = [](int object) { return "obj-" + std::to_string(object); };
    for (int s = 0; s < SOCKETS; ++s) {
        for (int k = 0; k < CHANNELS_PER_SOCKET; ++k) {
            const int object = objectOf(s, k);
            clients[s]->send(watchRequest(k, selector(resourceOf(object), {{"namespace", "default"},
                                                                          {"fieldSelector", "metadata.name=" + objectName(object)},
                                                                          {"resourceVersion", rv}})));
        }
    }
    // request k on socket s -> channel id; responses come in request order here.
    std::vector<std::map<std::int64_t, int>> objectOfChannel(SOCKETS);
    for (int s = 0; s < SOCKETS; ++s) {
        for (int k = 0; k < CHANNELS_PER_SOCKET; ++k) {
            const auto response = clients[s]->response(k, 10000);
            QVERIFY2(response.contains("channel"), response.dump().c_str());
            objectOfChannel[s][response["channel"].get<std::int64_t>()] = objectOf(s, k);
        }
        QCOMPARE(objectOfChannel[s].size(), std::size_t(CHANNELS_PER_SOCKET));
    }
    const qint64 openMs = timer.restart();
    for (int object = 0; object < OBJECTS; ++object) {
        if (resourceOf(object) == "configmaps")
            fixture.createConfigMap(objectName(object));
        else
            fixture.createSecret(objectName(object));
    }
    const std::size_t expected = std::size_t(SOCKETS) * CHANNELS_PER_SOCKET;
    QVERIFY(QTest::qWaitFor(
        [&] {
            std::size_t total = 0;
            for (const auto &client : clients)
                total += client->eventCount();
            return total >= expected;
        },
        20000));
    const qint64 deliverMs = timer.restart();
    for (const auto &client : clients)
        QVERIFY(client->sync()); // every event before it has arrived
    for (int s = 0; s < SOCKETS; ++s) {
        QCOMPARE(clients[s]->eventCount(), std::size_t(CHANNELS_PER_SOCKET));
        for (const auto &[channel, object] : objectOfChannel[s]) {
            const auto events = clients[s]->events(channel);
            QCOMPARE(events.size(), std::size_t(1));
            QCOMPARE(events[0]["type"], "ADDED");
            QCOMPARE(objectName(object), events[0]["object"]["metadata"]["name"].get<std::string>());
            QCOMPARE(std::string(resourceOf(object) == "configmaps" ? "ConfigMap" : "Secret"), kindOf(events[0]));
        }
    }
    qInfo("10000 channels over 100 sockets: opened in %lld ms, 10000 events delivered in %lld ms", openMs,
          deliverMs);
}

QTEST_GUILESS_MAIN(TestBulkWatchChannels)
#include "TestBulkWatchChannels.moc"
