// SPDX-License-Identifier: MIT
// What carrying out a fault rule takes beyond matching it (api/FaultInjector), through the
// handler every request goes through: targets resolved against the served types, a delay
// released when the server stops, no injected conflict for an object that does not exist,
// the apiserver's Status bodies, and an injected expiry that stays for resumes from before it.
#include <QtTest/QtTest>

#include <chrono>

#include "ApiTestSupport.h"
#include "api/FaultInjector.h"
#include "api/Watcher.h"
#include "faults/FaultSet.h"

using namespace rvscope;
using api::ApiResponse;
using testing::run;

namespace {
using Fixture = testing::ApiFixture;
const std::string CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

std::string configmap(const std::string &name)
{
    return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("},"data":{"a":"1"}})";
}

std::uint64_t addRule(Fixture &fixture, const char *text)
{
    auto id = fixture.handler.faults().add(text);
    if (!id)
        qFatal("%s", id.error().message.c_str());
    return *id;
}

// The problem text of a refused rule ("" when it was added).
QString refusal(Fixture &fixture, const char *text)
{
    auto id = fixture.handler.faults().add(text);
    return id ? QString() : QString::fromStdString(id.error().message);
}

// The events a watch response has ready, and whether it ended.
std::vector<nlohmann::json> events(const ApiResponse &response, bool *ended)
{
    std::vector<nlohmann::json> lines;
    response.watch->attach([&lines](const std::string &line) { lines.push_back(nlohmann::json::parse(line)); },
                           [ended] { *ended = true; });
    return lines;
}

std::string revisionOf(const ApiResponse &response)
{
    return nlohmann::json::parse(response.body)["metadata"]["resourceVersion"].get<std::string>();
}
} // namespace

class TestApiFaults final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testTargetsAreResolvedAgainstTheServedTypes();
    void testReleasedDelayLetsItsRequestFinish();
    void testNoInjectedConflictWithoutAnObject();
    void testInjectedStatusBodiesAreTheApiserversOwn();
    void testInjectedExpiryStaysForResumesFromBeforeIt();
    void testAResumeFromTheHeadGoesOn();
};

void TestApiFaults::testTargetsAreResolvedAgainstTheServedTypes()
{
    Fixture fixture;
    QVERIFY(refusal(fixture, "update deploymnets/x conflict")
                .contains("the server serves no resource \"deploymnets\" (a custom resource's definition"));
    QVERIFY(refusal(fixture, "update deploy/x conflict").endsWith("(a rule names the plural: \"deployments\")"));
    QVERIFY(refusal(fixture, "update deployment/x conflict").endsWith("(a rule names the plural: \"deployments\")"));
    QVERIFY(refusal(fixture, "get deployments.extensions error")
                .contains("no resource \"deployments\" in group \"extensions\""));
    QVERIFY(refusal(fixture, "get nodes/x/n1 error").endsWith("\"nodes\" is cluster-scoped: its target is nodes[/NAME]"));
    QVERIFY(fixture.handler.faults().empty()); // nothing refused was added
    QCOMPARE(refusal(fixture, "get * error"), QString());  // a glob resource is not resolved
    fixture.handler.faults().clear();

    // A cluster-scoped resource's second part is the object's name.
    addRule(fixture, "get nodes/n1 error");
    const std::string node = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"NAME"}})";
    for (const char *name : {"n1", "n2"}) {
        std::string body = node;
        body.replace(body.find("NAME"), 4, name);
        QCOMPARE(fixture.call("POST", "/api/v1/nodes", body).status, 201);
    }
    QCOMPARE(fixture.call("GET", "/api/v1/nodes/n1").status, 500);
    QCOMPARE(fixture.call("GET", "/api/v1/nodes/n2").status, 200);
    // resource.group names that group's resource.
    fixture.handler.faults().clear();
    addRule(fixture, "list deployments.apps/default timeout");
    QCOMPARE(fixture.call("GET", "/apis/apps/v1/namespaces/default/deployments").status, 504);
    QCOMPARE(fixture.call("GET", "/apis/apps/v1/namespaces/default/replicasets").status, 200);
}

void TestApiFaults::testReleasedDelayLetsItsRequestFinish()
{
    Fixture fixture;
    QCOMPARE(fixture.call("POST", CONFIGMAPS, configmap("foo")).status, 201);
    addRule(fixture, "get configmaps delay=60s");
    api::ApiRequest request;
    request.method = "GET";
    request.path = CONFIGMAPS + "/foo";
    QElapsedTimer clock;
    clock.start();
    auto pending = fixture.handler.handle(std::move(request)); // suspended in its delay
    QCOMPARE(fixture.handler.faultInjector().delaysInFlight(), std::size_t(1));
    // The server stops: the delay ends now and the request runs to its reply.
    fixture.handler.faultInjector().releaseDelays();
    const ApiResponse response = run(std::move(pending));
    QCOMPARE(response.status, 200);
    QVERIFY2(clock.elapsed() < 10000, "released, not waited out");
    QCOMPARE(fixture.handler.faultInjector().delaysInFlight(), std::size_t(0));
}

void TestApiFaults::testNoInjectedConflictWithoutAnObject()
{
    Fixture fixture;
    addRule(fixture, "update configmaps/default/* conflict");
    // A replace of what does not exist is the apiserver's 404, not a conflict.
    const ApiResponse missing = fixture.call("PUT", CONFIGMAPS + "/ghost", configmap("ghost"));
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.outcome.reason, std::string("NotFound"));
    QCOMPARE(fixture.handler.faults().entries().front().fired, std::uint64_t(0));
    // One that exists gets it.
    QCOMPARE(fixture.call("POST", CONFIGMAPS, configmap("real")).status, 201);
    const ApiResponse conflict = fixture.call("PUT", CONFIGMAPS + "/real", configmap("real"));
    QCOMPARE(conflict.status, 409);
    QCOMPARE(fixture.handler.faults().entries().front().fired, std::uint64_t(1));
}

void TestApiFaults::testInjectedStatusBodiesAreTheApiserversOwn()
{
    Fixture fixture;
    const std::uint64_t id = addRule(fixture, "get configmaps/default/late timeout");
    addRule(fixture, "get configmaps/default/broken error");
    QCOMPARE(fixture.call("GET", CONFIGMAPS + "/late").body,
             std::string(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
                         R"("message":"Timeout: request did not complete within requested timeout - context deadline exceeded",)"
                         R"("reason":"Timeout","details":{},"code":504})")
                 + "\n");
    const std::string cause = "injected fault (rvscope fault rule " + std::to_string(id + 1) + ")";
    QCOMPARE(fixture.call("GET", CONFIGMAPS + "/broken").body,
             std::string(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
                         R"("message":"Internal error occurred: )" + cause + R"(","reason":"InternalError",)"
                         R"("details":{"causes":[{"message":")" + cause + R"("}]},"code":500})")
                 + "\n");
}

void TestApiFaults::testInjectedExpiryStaysForResumesFromBeforeIt()
{
    Fixture fixture;
    const std::string start = revisionOf(fixture.call("GET", CONFIGMAPS));
    const std::string first = revisionOf(fixture.call("POST", CONFIGMAPS, configmap("a")));
    fixture.call("POST", CONFIGMAPS, configmap("b"));
    const std::string last = revisionOf(fixture.call("POST", CONFIGMAPS, configmap("c")));
    const std::uint64_t id = addRule(fixture, "watch configmaps/default expire-after=1");

    bool ended = false;
    auto seen = events(fixture.call("GET", CONFIGMAPS + "?watch=1&resourceVersion=" + start), &ended);
    QCOMPARE(seen.size(), std::size_t(2));
    QCOMPARE(seen[0]["object"]["metadata"]["name"], "a");
    QCOMPARE(seen[1]["object"]["message"], "too old resource version: " + first + " (" + std::to_string(std::stoll(first) + 1) + ")");
    QVERIFY(ended);

    // As after a compaction: a resume from before what the 410 said is gone gets it again,
    // whatever the rule's turn; a resume from what is left does not.
    for (const std::string &from : {start, first}) {
        ended = false;
        seen = events(fixture.call("GET", CONFIGMAPS + "?watch=1&resourceVersion=" + from), &ended);
        QCOMPARE(seen.size(), std::size_t(1));
        QCOMPARE(seen[0]["type"], "ERROR");
        QCOMPARE(seen[0]["object"]["code"], 410);
        QCOMPARE(seen[0]["object"]["message"],
                 "too old resource version: " + from + " (" + std::to_string(std::stoll(first) + 1) + ")");
        QVERIFY(ended);
    }
    ended = false;
    seen = events(fixture.call("GET", CONFIGMAPS + "?watch=1&resourceVersion=" + last), &ended);
    QVERIFY(seen.empty());
    QVERIFY(!ended);

    // Gone with its rule.
    QVERIFY(fixture.handler.faults().remove(id));
    ended = false;
    seen = events(fixture.call("GET", CONFIGMAPS + "?watch=1&resourceVersion=" + start), &ended);
    QCOMPARE(seen.size(), std::size_t(3));
    QVERIFY(!ended);
}

void TestApiFaults::testAResumeFromTheHeadGoesOn()
{
    // Nothing is written after the expiry: a client that relists gets the revision of the
    // last event, and its watch from there must go on (a compaction never takes the head),
    // or every relist would meet the 410 again until something is written.
    Fixture fixture;
    const std::string start = revisionOf(fixture.call("GET", CONFIGMAPS));
    const std::string last = revisionOf(fixture.call("POST", CONFIGMAPS, configmap("a")));
    addRule(fixture, "watch configmaps/default expire-after=1");
    bool ended = false;
    auto seen = events(fixture.call("GET", CONFIGMAPS + "?watch=1&resourceVersion=" + start), &ended);
    QCOMPARE(seen.size(), std::size_t(2));
    QCOMPARE(seen[1]["type"], "ERROR");
    QCOMPARE(revisionOf(fixture.call("GET", CONFIGMAPS)), last); // the relist
    ended = false;
    seen = events(fixture.call("GET", CONFIGMAPS + "?watch=1&resourceVersion=" + last), &ended);
    QVERIFY(seen.empty());
    QVERIFY(!ended);
    // Another namespace's watch is no resume the rule names.
    ended = false;
    seen = events(fixture.call("GET", "/api/v1/namespaces/kube-system/configmaps?watch=1&resourceVersion=" + start), &ended);
    QVERIFY(!ended);
}

QTEST_GUILESS_MAIN(TestApiFaults)
#include "TestApiFaults.moc"
