// SPDX-License-Identifier: MIT
// Bulk watch sessions through the real transport: QWebSocket clients on 127.0.0.1 talking
// to an ApiServer, every message type and error of the protocol, and routing at scale.
#include <QtNetwork/QTcpSocket>

#include "BulkTestSupport.h"
#include "RawHttp.h"
#include "model/StatusErrors.h"

using namespace rvscope;
using testing::BulkClient;
using testing::BulkFixture;
using testing::rawRequest;
using testing::readReply;
using testing::run;
using testing::selector;
using testing::watchRequest;

namespace {
std::string kindOf(const nlohmann::json &event)
{
    return event["object"].value("kind", std::string());
}
std::string nameOf(const nlohmann::json &event)
{
    return event["object"]["metadata"].value("name", std::string());
}
std::int64_t rvOf(const nlohmann::json &event)
{
    return std::stoll(event["object"]["metadata"]["resourceVersion"].get<std::string>());
}
} // namespace

class TestBulkWatchSession final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testWatchResponseThenEvents();
    void testChannelsCountFromOnePerConnection();
    void testSameObjectOnTwoChannels();
    void testEventsInIncreasingResourceVersion();
    void testChannelsOverSeparateRevisionSeries();
    void testCloseWatch();
    void testCloseWatchOfUnknownChannel();
    void testTooOldResourceVersionEndsOnlyItsChannel();
    void testRequestErrors();
    void testMalformedFramesNeverKillTheSession();
    void testChannelLimit();
    void testAuthorizerRejectsPerChannel();
    void testCloseChannelSendsErrorAndOthersContinue();
    void testStalledReaderLosesOnlyItsBusyChannels();
    void testChannelsAreJournaledLikeWatches();
    void testChannelsIntrospection();
    void testClosingTheSocketClosesEveryChannel();
    void testPlainWatchPathsStayRegularWatches();
};

void TestBulkWatchSession::testWatchResponseThenEvents()
{
    BulkFixture fixture;
    fixture.createConfigMap("existing");
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("configmaps", {{"namespace", "default"}})));
    const auto response = client.response(1);
    QCOMPARE(response, nlohmann::json({{"requestId", 1}, {"channel", 1}}));
    // The initial ADDED event of a watch without resourceVersion follows the response.
    QVERIFY(client.waitEvents(1, 1));
    QCOMPARE(client.frames.front(), response);
    auto events = client.events(1);
    QCOMPARE(events[0]["type"], "ADDED");
    QCOMPARE(nameOf(events[0]), "existing");
    QCOMPARE(kindOf(events[0]), "ConfigMap");

    fixture.touchConfigMap("existing", "2");
    fixture.createConfigMap("later");
    QVERIFY(client.waitEvents(1, 3));
    events = client.events(1);
    QCOMPARE(events[1]["type"], "MODIFIED");
    QCOMPARE(events[2]["type"], "ADDED");
    QCOMPARE(nameOf(events[2]), "later");
    QVERIFY(run(fixture.store("configmaps")->remove("default", "later", registry::DeleteOptions())).ok());
    QVERIFY(client.waitEvents(1, 4));
    QCOMPARE(client.events(1)[3]["type"], "DELETED");
}

void TestBulkWatchSession::testChannelsCountFromOnePerConnection()
{
    BulkFixture fixture;
    BulkClient first(fixture.port);
    BulkClient second(fixture.port);
    QVERIFY(first.waitConnected());
    QVERIFY(second.waitConnected());
    for (int id = 10; id < 13; ++id)
        first.send(watchRequest(id, selector("configmaps")));
    QCOMPARE(first.response(10)["channel"], 1);
    QCOMPARE(first.response(11)["channel"], 2);
    QCOMPARE(first.response(12)["channel"], 3);
    second.send(watchRequest(7, selector("secrets")));
    QCOMPARE(second.response(7)["channel"], 1);
}

void TestBulkWatchSession::testSameObjectOnTwoChannels()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    const std::string rv = std::to_string(fixture.currentRevision());
    client.send(watchRequest(1, selector("configmaps", {{"namespace", "default"}, {"resourceVersion", rv}})));
    client.send(watchRequest(2, selector("configmaps", {{"fieldSelector", "metadata.name=shared"},
                                                        {"resourceVersion", rv}})));
    client.send(watchRequest(3, selector("configmaps", {{"labelSelector", "app=other"}, {"resourceVersion", rv}})));
    QCOMPARE(client.response(1)["channel"], 1);
    QCOMPARE(client.response(2)["channel"], 2);
    QCOMPARE(client.response(3)["channel"], 3);
    fixture.createConfigMap("shared");
    QVERIFY(client.waitEvents(1, 1));
    QVERIFY(client.waitEvents(2, 1));
    QCOMPARE(nameOf(client.events(1)[0]), "shared");
    QCOMPARE(client.events(1)[0], client.events(2)[0]);
    QVERIFY(client.sync()); // every event before it has arrived
    QCOMPARE(client.events(3).size(), std::size_t(0));
}

void TestBulkWatchSession::testEventsInIncreasingResourceVersion()
{
    BulkFixture fixture;
    fixture.createConfigMap("a");
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("configmaps", {{"resourceVersion", "0"}})));
    QCOMPARE(client.response(1)["channel"], 1);
    for (int i = 0; i < 20; ++i)
        fixture.touchConfigMap("a", std::to_string(i));
    QVERIFY(client.waitEvents(1, 21));
    const auto events = client.events(1);
    for (std::size_t i = 1; i < events.size(); ++i)
        QVERIFY(rvOf(events[i]) > rvOf(events[i - 1]));
}

void TestBulkWatchSession::testChannelsOverSeparateRevisionSeries()
{
    // Secrets live in a storage of their own: their channel counts in that series, and a
    // resourceVersion from it resumes there, whatever the main series is at.
    auto secrets = std::make_shared<storage::MemoryStorage>();
    BulkFixture fixture({{"secrets", secrets}});
    fixture.createSecret("s0");
    const std::string secretsFrom = std::to_string(secrets->revision());
    for (int i = 0; i < 5; ++i)
        fixture.createConfigMap("c" + std::to_string(i));
    QVERIFY(fixture.currentRevision() > secrets->revision());
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("secrets", {{"namespace", "default"}, {"resourceVersion", secretsFrom}})));
    client.send(watchRequest(2, selector("configmaps", {{"namespace", "default"}})));
    QCOMPARE(client.response(2)["channel"], 2);
    for (int i = 1; i <= 3; ++i) {
        fixture.createSecret("s" + std::to_string(i));
        fixture.touchConfigMap("c0", std::to_string(i));
    }
    QVERIFY(client.waitEvents(1, 3));
    QVERIFY(client.waitEvents(2, 3));
    const auto secretEvents = client.events(1);
    for (std::size_t i = 0; i < secretEvents.size(); ++i) {
        QCOMPARE(secretEvents[i]["object"]["metadata"]["name"], "s" + std::to_string(i + 1));
        QCOMPARE(rvOf(secretEvents[i]), std::stoll(secretsFrom) + std::int64_t(i) + 1); // gap-free in its series
    }
    const auto configMapEvents = client.events(2);
    for (std::size_t i = 1; i < configMapEvents.size(); ++i)
        QVERIFY(rvOf(configMapEvents[i]) > rvOf(configMapEvents[i - 1]));
}

void TestBulkWatchSession::testCloseWatch()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("configmaps", {{"namespace", "default"}})));
    client.send(watchRequest(2, selector("configmaps", {{"namespace", "default"}})));
    QCOMPARE(client.response(2)["channel"], 2);
    client.send({{"id", 3}, {"closeWatch", {{"channel", 1}}}});
    QCOMPARE(client.response(3), nlohmann::json({{"requestId", 3}, {"channel", 1}}));
    fixture.createConfigMap("after");
    QVERIFY(client.waitEvents(2, 1));
    QVERIFY(client.sync()); // every event before it has arrived
    QCOMPARE(client.events(1).size(), std::size_t(0));
    QCOMPARE(fixture.server->bulkWatchSessions().at(0)->channelCount(), std::size_t(1));
}

void TestBulkWatchSession::testCloseWatchOfUnknownChannel()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send({{"id", 4}, {"closeWatch", {{"channel", 42}}}});
    const auto response = client.response(4);
    QCOMPARE(response["error"]["code"], 404);
    QCOMPARE(response["error"]["kind"], "Status");
    // A closed channel is unknown afterwards too.
    client.send(watchRequest(5, selector("configmaps")));
    QCOMPARE(client.response(5)["channel"], 1);
    client.send({{"id", 6}, {"closeWatch", {{"channel", 1}}}});
    QCOMPARE(client.response(6)["channel"], 1);
    client.send({{"id", 7}, {"closeWatch", {{"channel", 1}}}});
    QCOMPARE(client.response(7)["error"]["code"], 404);
}

void TestBulkWatchSession::testTooOldResourceVersionEndsOnlyItsChannel()
{
    BulkFixture fixture;
    fixture.createConfigMap("a");
    fixture.touchConfigMap("a", "2");
    fixture.touchConfigMap("a", "3");
    const std::int64_t current = fixture.currentRevision();
    QVERIFY(run(fixture.registryFixture.storage->compact(current)).ok());
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("configmaps", {{"resourceVersion", std::to_string(current)}})));
    client.send(watchRequest(2, selector("configmaps", {{"resourceVersion", "1"}})));
    QCOMPARE(client.response(1)["channel"], 1);
    QCOMPARE(client.response(2)["channel"], 2);
    QVERIFY(client.waitEvents(2, 1));
    const auto expired = client.events(2)[0];
    QCOMPARE(expired["type"], "ERROR");
    QCOMPARE(expired["object"]["code"], 410);
    QCOMPARE(expired["object"]["reason"], "Expired");
    fixture.touchConfigMap("a", "4");
    QVERIFY(client.waitEvents(1, 1));
    QCOMPARE(client.events(1)[0]["type"], "MODIFIED");
    QCOMPARE(client.events(2).size(), std::size_t(1));
    client.send({{"id", 3}, {"closeWatch", {{"channel", 2}}}});
    QCOMPARE(client.response(3)["error"]["code"], 404);
}

void TestBulkWatchSession::testRequestErrors()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("nosuchthings")));
    client.send(watchRequest(2, selector("configmaps", {{"labelSelector", "a in (("}})));
    client.send(watchRequest(3, selector("namespaces", {{"namespace", "default"}})));
    client.send(watchRequest(4, selector("configmaps", {{"resourceVersion", "abc"}})));
    client.send(watchRequest(5, selector("configmaps", {{"fieldSelector", "spec.nope=1"}})));
    QCOMPARE(client.response(1)["error"]["code"], 404);
    QCOMPARE(client.response(2)["error"]["code"], 400);
    QCOMPARE(client.response(3)["error"]["code"], 404);
    QVERIFY(client.response(4)["error"]["code"].get<int>() >= 400);
    QCOMPARE(client.response(5)["error"]["code"], 400);
    // Rejected requests take no channel id.
    client.send(watchRequest(6, selector("configmaps")));
    QCOMPARE(client.response(6)["channel"], 1);
}

void TestBulkWatchSession::testMalformedFramesNeverKillTheSession()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    const QStringList garbage = {
        QStringLiteral("this is not json"),
        QStringLiteral("[1,2,3]"),
        QStringLiteral("{\"watch\":{\"selector\":{}}}"),
        QStringLiteral("{\"id\":\"seven\",\"watch\":{}}"),
        QStringLiteral("{\"id\":1.5,\"closeWatch\":{\"channel\":1}}"),
        QString(),
    };
    for (const QString &frame : garbage)
        client.sendRaw(frame);
    client.sendBinary(QByteArray("\x00\xff\x10", 3));
    QVERIFY(QTest::qWaitFor([&] { return client.frames.size() >= std::size_t(garbage.size() + 1); }, 5000));
    for (const auto &frame : client.frames) {
        QVERIFY(frame["requestId"].is_null());
        QCOMPARE(frame["error"]["code"], 400);
        QCOMPARE(frame["error"]["reason"], "BadRequest");
    }
    client.frames.clear();
    client.send({{"id", 20}});
    client.send({{"id", 21}, {"watch", {{"selector", selector("configmaps")}}}, {"closeWatch", {{"channel", 1}}}});
    client.send({{"id", 22}, {"watch", 5}});
    client.send({{"id", 23}, {"watch", {{"selector", {{"resource", {{"version", 1}, {"resource", "configmaps"}}}}}}}});
    client.send({{"id", 24}, {"watch", {{"selector", {{"resource", {{"version", "v1"}}}}}}}});
    client.send({{"id", 25}, {"watch", {{"selector", selector("configmaps", {{"namespace", 3}})}}}});
    client.send({{"id", 26}, {"closeWatch", {{"channel", "one"}}}});
    client.send({{"id", 27}, {"closeWatch", 1}});
    client.send({{"id", 28}, {"watch", {{"selector", selector("configmaps", {{"allowWatchBookmarks", "yes"}})}}}});
    for (int id = 20; id <= 28; ++id)
        QCOMPARE(client.response(id)["error"]["code"], 400);
    // The session and the server go on.
    client.send(watchRequest(30, selector("configmaps")));
    QCOMPARE(client.response(30)["channel"], 1);
    fixture.createConfigMap("alive");
    QVERIFY(client.waitEvents(1, 1));
    QTcpSocket http;
    http.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(http.waitForConnected(5000));
    http.write(rawRequest("GET", "/healthz"));
    QCOMPARE(readReply(http).body, QByteArray("ok"));
}

void TestBulkWatchSession::testChannelLimit()
{
    BulkFixture fixture;
    api::BulkWatchSession::Options options;
    options.maxChannels = 2;
    fixture.server->setBulkWatchOptions(options);
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    for (int id = 1; id <= 3; ++id)
        client.send(watchRequest(id, selector("configmaps")));
    QCOMPARE(client.response(1)["channel"], 1);
    QCOMPARE(client.response(2)["channel"], 2);
    const auto refused = client.response(3);
    QCOMPARE(refused["error"]["code"], 429);
    QCOMPARE(refused["error"]["reason"], "TooManyRequests");
    // Closing one makes room again.
    client.send({{"id", 4}, {"closeWatch", {{"channel", 1}}}});
    QCOMPARE(client.response(4)["channel"], 1);
    client.send(watchRequest(5, selector("configmaps")));
    QCOMPARE(client.response(5)["channel"], 3);
}

void TestBulkWatchSession::testAuthorizerRejectsPerChannel()
{
    BulkFixture fixture;
    api::BulkWatchSession::Options options;
    options.user = "system:node:n1";
    std::vector<std::string> asked;
    options.authorize = [&asked](const std::string &user, const std::string &verb, const std::string &,
                                 const std::string &resource, const std::string &ns,
                                 const std::string &name) -> std::optional<model::Status> {
        asked.push_back(user + ' ' + verb + ' ' + resource + ' ' + ns + ' ' + name);
        if (resource == "secrets" && name != "allowed")
            return model::errors::forbidden("secrets is forbidden: User \"" + user + "\" cannot watch resource",
                                            {"", "secrets"}, name);
        return std::nullopt;
    };
    fixture.server->setBulkWatchOptions(options);
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("secrets", {{"namespace", "default"}, {"fieldSelector", "metadata.name=allowed"}})));
    client.send(watchRequest(2, selector("secrets", {{"namespace", "default"}, {"fieldSelector", "metadata.name=other"}})));
    client.send(watchRequest(3, selector("configmaps", {{"namespace", "default"}})));
    QCOMPARE(client.response(1)["channel"], 1);
    QCOMPARE(client.response(2)["error"]["code"], 403);
    QCOMPARE(client.response(3)["channel"], 2);
    QCOMPARE(asked.front(), "system:node:n1 watch secrets default allowed");
    fixture.createSecret("allowed");
    fixture.createSecret("other");
    QVERIFY(client.waitEvents(1, 1));
    QVERIFY(client.sync()); // every event before it has arrived
    QCOMPARE(client.events(1).size(), std::size_t(1));
    QCOMPARE(nameOf(client.events(1)[0]), "allowed");
}

void TestBulkWatchSession::testCloseChannelSendsErrorAndOthersContinue()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("secrets", {{"namespace", "default"}})));
    client.send(watchRequest(2, selector("configmaps", {{"namespace", "default"}})));
    QCOMPARE(client.response(2)["channel"], 2);
    auto sessions = fixture.server->bulkWatchSessions();
    QCOMPARE(sessions.size(), std::size_t(1));
    const model::Status revoked = model::errors::forbidden("access revoked", {"", "secrets"});
    QVERIFY(sessions[0]->closeChannel(1, revoked));
    QVERIFY(!sessions[0]->closeChannel(1, revoked));
    QVERIFY(client.waitEvents(1, 1));
    QCOMPARE(client.events(1)[0]["type"], "ERROR");
    QCOMPARE(client.events(1)[0]["object"]["code"], 403);
    fixture.createSecret("s");
    fixture.createConfigMap("c");
    QVERIFY(client.waitEvents(2, 1));
    QVERIFY(client.sync()); // every event before it has arrived
    QCOMPARE(client.events(1).size(), std::size_t(1));
}

void TestBulkWatchSession::testStalledReaderLosesOnlyItsBusyChannels()
{
    BulkFixture fixture;
    fixture.handler->setMaxWatchBacklog(1024 * 1024);
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("configmaps", {{"namespace", "default"}})));
    client.send(watchRequest(2, selector("secrets", {{"namespace", "default"}})));
    QCOMPARE(client.response(2)["channel"], 2);
    auto sessions = fixture.server->bulkWatchSessions();
    QCOMPARE(sessions.size(), std::size_t(1));

    // The client stops reading; configmaps of ~512 KiB keep coming on channel 1.
    client.socket().setReadBufferSize(4096);
    const std::string value(512 * 1024, 'v');
    int written = 0;
    while (sessions[0]->channelCount() == 2 && written < 200) {
        fixture.create("configmaps", {{"metadata", {{"name", "big-" + std::to_string(written)}}}, {"data", {{"v", value}}}});
        ++written;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    QVERIFY2(written < 200, "the stalled channel was never closed");
    QCOMPARE(sessions[0]->channels().at(0).channel, 2); // the quiet channel stays open

    // Reading again: channel 1's events in order, then ERROR 410 Expired, nothing after it.
    client.socket().setReadBufferSize(0);
    QVERIFY(QTest::qWaitFor(
        [&] {
            auto events = client.events(1);
            return !events.empty() && events.back()["type"] == "ERROR";
        },
        10000));
    const auto events = client.events(1);
    QVERIFY(events.size() >= 2);
    for (std::size_t i = 0; i + 1 < events.size(); ++i)
        QCOMPARE(events[i]["object"]["metadata"]["name"], "big-" + std::to_string(i));
    QCOMPARE(events.back()["object"]["code"], 410);
    QCOMPARE(events.back()["object"]["reason"], "Expired");
    // Channel 2 still flows.
    fixture.createSecret("after");
    QVERIFY(client.waitEvents(2, 1));
    QCOMPARE(client.events(2)[0]["object"]["metadata"]["name"], "after");
    fixture.createConfigMap("ignored");
    QVERIFY(client.sync()); // every event before it has arrived
    QCOMPARE(client.events(1).size(), events.size());
}

void TestBulkWatchSession::testChannelsAreJournaledLikeWatches()
{
    BulkFixture fixture;
    std::vector<api::OperationReport> operations;
    // What the journal would record of each delivery (history::WatchDelivery's fields).
    struct Delivery {
        std::uint64_t operationId = 0;
        std::string type;
        std::string key;
        std::string message;
    };
    std::vector<Delivery> deliveries;
    fixture.handler->setObserver([&operations](const api::OperationReport &report) -> std::uint64_t {
        operations.push_back(report);
        return 100 + operations.size();
    });
    fixture.handler->setDeliveryObserver(
        [&deliveries](std::uint64_t operationId, const std::string &resource, const registry::WatchEvent &event) {
            Delivery delivery{operationId, registry::watchEventTypeName(event.type), {}, {}};
            if (event.object && !event.object->name().empty())
                delivery.key = resource + '/' + event.object->namespaceName() + '/' + event.object->name();
            if (event.error)
                delivery.message = std::to_string(event.error->code) + ' ' + event.error->reason + ": "
                    + event.error->message;
            deliveries.push_back(delivery);
        });
    fixture.createConfigMap("before");
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("configmaps", {{"namespace", "default"}, {"resourceVersion", "0"}})));
    QCOMPARE(client.response(1)["channel"], 1);
    const auto sessions = fixture.server->bulkWatchSessions();
    QCOMPARE(sessions.size(), std::size_t(1));
    const std::uint64_t journalId = sessions[0]->channels().at(0).journalId;
    fixture.createConfigMap("after");
    QVERIFY(client.waitEvents(1, 2));
    QVERIFY(sessions[0]->closeChannel(1, model::errors::forbidden("access revoked", {"", "configmaps"})));
    QVERIFY(client.waitEvents(1, 3));

    // The channel is one watch operation of client "bulk:<user>"...
    const auto watch = std::find_if(operations.begin(), operations.end(),
                                    [](const api::OperationReport &report) { return report.verb == "watch"; });
    QVERIFY(watch != operations.end());
    QCOMPARE(watch->clientId, std::string("bulk:system:anonymous"));
    QCOMPARE(watch->key, std::string("configmaps/default"));
    QCOMPARE(watch->outcome.resourceVersionSent, std::string("0"));
    QCOMPARE(journalId, std::uint64_t(100 + (watch - operations.begin()) + 1));
    // ...and every event it sent is a delivery of that operation, the closing ERROR too.
    std::vector<std::string> seen;
    for (const auto &delivery : deliveries) {
        QCOMPARE(delivery.operationId, journalId);
        seen.push_back(delivery.type + ' ' + delivery.key);
    }
    QCOMPARE(seen, (std::vector<std::string>{"ADDED configmaps/default/before", "ADDED configmaps/default/after", "ERROR "}));
    QVERIFY(deliveries.back().message.starts_with("403 Forbidden: "));
}

void TestBulkWatchSession::testChannelsIntrospection()
{
    BulkFixture fixture;
    BulkClient client(fixture.port);
    QVERIFY(client.waitConnected());
    client.send(watchRequest(1, selector("secrets", {{"namespace", "ns1"}, {"fieldSelector", "metadata.name=db"}})));
    client.send(watchRequest(2, selector("configmaps", {{"labelSelector", "app=x"}})));
    QCOMPARE(client.response(2)["channel"], 2);
    const auto channels = fixture.server->bulkWatchSessions().at(0)->channels();
    QCOMPARE(channels.size(), std::size_t(2));
    QCOMPARE(channels[0].channel, 1);
    QCOMPARE(channels[0].resource.resource, "secrets");
    QCOMPARE(channels[0].namespaceName, "ns1");
    QCOMPARE(channels[0].name, "db");
    QCOMPARE(channels[0].fieldSelector, "metadata.name=db");
    QCOMPARE(channels[0].user, "system:anonymous");
    QCOMPARE(channels[1].channel, 2);
    QCOMPARE(channels[1].name, "");
    QCOMPARE(channels[1].labelSelector, "app=x");
}

void TestBulkWatchSession::testClosingTheSocketClosesEveryChannel()
{
    BulkFixture fixture;
    std::shared_ptr<api::BulkWatchSession> session;
    {
        BulkClient client(fixture.port);
        QVERIFY(client.waitConnected());
        client.send(watchRequest(1, selector("secrets")));
        client.send(watchRequest(2, selector("configmaps")));
        QCOMPARE(client.response(2)["channel"], 2);
        session = fixture.server->bulkWatchSessions().at(0);
        client.close();
        QTRY_VERIFY(fixture.server->bulkWatchSessions().empty());
    }
    QVERIFY(session->closed());
    QCOMPARE(session->channelCount(), std::size_t(0));
    // Writes after the client left reach nobody and break nothing.
    fixture.createConfigMap("after");
    fixture.createSecret("after");
}

void TestBulkWatchSession::testPlainWatchPathsStayRegularWatches()
{
    BulkFixture fixture;
    BulkClient regular(fixture.port, QStringLiteral("/api/v1/namespaces/default/configmaps?watch=true"));
    QVERIFY(regular.waitConnected());
    QTRY_COMPARE(fixture.server->openWatchCount(), std::size_t(1));
    QVERIFY(fixture.server->bulkWatchSessions().empty());
    fixture.createConfigMap("plain");
    QTRY_COMPARE(regular.frames.size(), std::size_t(1));
    QCOMPARE(regular.frames[0]["type"], "ADDED");
}

// 10 000 channels over 100 sockets: every channel selects one object by name (half on
// configmaps, half on secrets, 50 channels per object), so each write must reach exactly the
// 50 channels that selected it, on the right sockets and channel ids.
QTEST_GUILESS_MAIN(TestBulkWatchSession)
#include "TestBulkWatchSession.moc"
