// SPDX-License-Identifier: MIT
// NodeGraphFeeder: the node authorizer's graph follows the pods of the registry, a graph
// change queues one re-check of the open watches, and a watch that lost access ends with an
// ERROR event carrying the 403.
#include <QtTest/QtTest>

#include "SimTestSupport.h"
#include "api/AccessControl.h"
#include "api/Watcher.h"
#include "auth/Policy.h"
#include "auth/TokenFile.h"
#include "sim/NodeGraphFeeder.h"

using namespace rvscope;

namespace {

nlohmann::json pod(const std::string &name, const std::string &nodeName, const std::string &secret)
{
    nlohmann::json spec = {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}};
    if (!nodeName.empty())
        spec["nodeName"] = nodeName;
    if (!secret.empty())
        spec["volumes"] = {{{"name", "v"}, {"secret", {{"secretName", secret}}}}};
    return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", name}, {"namespace", "default"}}}, {"spec", spec}};
}

// A core with access control on: "admin-token" may do anything, "node-token" is the kubelet
// of n1 (node authorizer only).
struct AccessFixture {
    testing::SimFixture sim;
    std::shared_ptr<api::AccessControl> access;
    sim::KubeClient admin;
    sim::KubeClient kubelet;
    int rechecks = 0;

    AccessFixture()
        : access(makeAccess())
        , admin(std::make_shared<sim::BearerTokenTransport>(sim.transport, "admin-token"), "admin", "")
        , kubelet(std::make_shared<sim::BearerTokenTransport>(sim.transport, "node-token"), "kubelet", "")
    {
        sim.handler->setAccessControl(access);
    }

    static std::shared_ptr<api::AccessControl> makeAccess()
    {
        auto tokens = auth::TokenFile::parse("admin-token,admin,1\nnode-token,system:node:n1,2,system:nodes\n");
        auto policy = auth::Policy::parse(R"({"rules":[{"users":["admin"],"verbs":["*"],"resources":["*"]}]})");
        return std::make_shared<api::AccessControl>(std::move(tokens).value(), std::move(policy).value());
    }

    std::shared_ptr<sim::NodeGraphFeeder> startFeeder(bool counting)
    {
        sim::NodeGraphFeeder::Recheck recheck;
        if (counting)
            recheck = [this] { ++rechecks; };
        auto feeder = sim::NodeGraphFeeder::start(*sim.registryFixture.registry, access, recheck);
        if (!feeder)
            qFatal("NodeGraphFeeder::start: %s", feeder.error().message.c_str());
        return std::move(feeder).value();
    }

    int create(const nlohmann::json &object)
    {
        const std::string resource = object["kind"] == "Pod" ? "pods" : "secrets";
        return testing::run(admin.create(sim::ObjectRef(resource, "default", object["metadata"]["name"]), object)).status;
    }
    int removePod(const std::string &name)
    {
        return testing::run(admin.remove(sim::ObjectRef("pods", "default", name), "")).status;
    }
    bool related(const std::string &secret) const
    {
        return access->authorizer().nodeGraph().hasRelationship("n1", auth::NodeObjectType::Secret, "default", secret);
    }
};

} // namespace

class TestNodeGraphFeeder final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testExistingPodsAreInTheGraphAtStart();
    void testGraphChangesQueueOneRecheck();
    void testRecheckNowRunsTheQueuedRecheckOnce();
    void testPodChangesThatKeepTheEdgesQueueNothing();
    void testWatchThatLostAccessEndsWith403();
    void testDestroyedFeederStopsFeeding();
};

void TestNodeGraphFeeder::testExistingPodsAreInTheGraphAtStart()
{
    AccessFixture fixture;
    QCOMPARE(fixture.create(pod("web", "n1", "db")), 201);
    QVERIFY(!fixture.related("db"));
    auto feeder = fixture.startFeeder(true);
    QVERIFY(fixture.related("db"));
    QCOMPARE(fixture.access->authorizer().nodeGraph().podCount(), std::size_t(1));
}

void TestNodeGraphFeeder::testGraphChangesQueueOneRecheck()
{
    AccessFixture fixture;
    auto feeder = fixture.startFeeder(true);
    QVERIFY(!feeder->recheckQueued());
    QCOMPARE(fixture.create(pod("a", "n1", "db")), 201);
    QVERIFY(fixture.related("db"));
    QVERIFY(feeder->recheckQueued());
    QCOMPARE(fixture.rechecks, 0); // never inside storage's notification
    QCOMPARE(fixture.create(pod("b", "n1", "other")), 201);
    QTRY_COMPARE(fixture.rechecks, 1);
    QVERIFY(!feeder->recheckQueued());
    QCoreApplication::sendPostedEvents();
    QCOMPARE(fixture.rechecks, 1); // two changes, one re-check
}

void TestNodeGraphFeeder::testRecheckNowRunsTheQueuedRecheckOnce()
{
    AccessFixture fixture;
    auto feeder = fixture.startFeeder(true);
    QVERIFY(!feeder->recheckNow());
    QCOMPARE(fixture.create(pod("a", "n1", "db")), 201);
    QVERIFY(feeder->recheckNow());
    QCOMPARE(fixture.rechecks, 1);
    QVERIFY(!feeder->recheckNow());
    QCoreApplication::sendPostedEvents(); // the queued call finds nothing left to do
    QCOMPARE(fixture.rechecks, 1);
}

void TestNodeGraphFeeder::testPodChangesThatKeepTheEdgesQueueNothing()
{
    AccessFixture fixture;
    QCOMPARE(fixture.create(pod("bound", "n1", "db")), 201);
    auto feeder = fixture.startFeeder(true);
    feeder->recheckNow(); // the initial feed
    QCOMPARE(fixture.create(pod("unscheduled", "", "db")), 201);
    QVERIFY(!feeder->recheckQueued());
    const nlohmann::json labels = {{"metadata", {{"labels", {{"app", "web"}}}}}};
    const auto patched = testing::run(fixture.admin.patch(sim::ObjectRef("pods", "default", "bound"),
                                                          "application/merge-patch+json", labels));
    QCOMPARE(patched.status, 200);
    QVERIFY(!feeder->recheckQueued());
    QCOMPARE(fixture.removePod("unscheduled"), 200);
    QVERIFY(!feeder->recheckQueued());
    QCOMPARE(fixture.removePod("bound"), 200);
    QVERIFY(feeder->recheckQueued());
    QVERIFY(!fixture.related("db"));
}

void TestNodeGraphFeeder::testWatchThatLostAccessEndsWith403()
{
    AccessFixture fixture;
    QCOMPARE(fixture.create({{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "db"}, {"namespace", "default"}}}}),
             201);
    QCOMPARE(fixture.create(pod("web", "n1", "db")), 201);
    auto feeder = fixture.startFeeder(false); // the default re-check: AccessControl::recheckWatches()
    const sim::KubeResponse watch = testing::run(fixture.kubelet.watch(sim::ObjectRef("secrets", "default", "db"), ""));
    QCOMPARE(watch.status, 200);
    QVERIFY(watch.watch);
    std::vector<std::string> events;
    bool ended = false;
    watch.watch->attach([&events](const std::string &line) { events.push_back(line); }, [&ended] { ended = true; });
    // No resourceVersion: the current state first, as a synthetic ADDED.
    QCOMPARE(events.size(), std::size_t(1));
    QCOMPARE(nlohmann::json::parse(events[0])["type"].get<std::string>(), std::string("ADDED"));
    QCOMPARE(fixture.removePod("web"), 200);
    QCOMPARE(events.size(), std::size_t(1)); // re-checked on the event loop, not inside the delete
    QTRY_VERIFY(ended);
    QCOMPARE(events.size(), std::size_t(2));
    const nlohmann::json event = nlohmann::json::parse(events[1]);
    QCOMPARE(event["type"].get<std::string>(), std::string("ERROR"));
    QCOMPARE(event["object"]["code"].get<int>(), 403);
    QCOMPARE(event["object"]["message"].get<std::string>(),
             std::string("secrets \"db\" is forbidden: User \"system:node:n1\" cannot watch resource \"secrets\" in API group \"\" "
             "in the namespace \"default\": no relationship found between node 'n1' and this object"));
    QCOMPARE(fixture.access->watchedCount(), std::size_t(0));
}

void TestNodeGraphFeeder::testDestroyedFeederStopsFeeding()
{
    AccessFixture fixture;
    auto feeder = fixture.startFeeder(true);
    QCOMPARE(fixture.create(pod("a", "n1", "db")), 201);
    QVERIFY(feeder->recheckQueued());
    feeder.reset();
    QCoreApplication::sendPostedEvents();
    QCOMPARE(fixture.rechecks, 0); // the queued re-check went with the feeder
    QCOMPARE(fixture.create(pod("b", "n1", "other")), 201);
    QVERIFY(!fixture.related("other"));
}

QTEST_GUILESS_MAIN(TestNodeGraphFeeder)
#include "TestNodeGraphFeeder.moc"
