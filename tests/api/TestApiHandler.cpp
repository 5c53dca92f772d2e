// SPDX-License-Identifier: MIT
// The REST mapping without sockets: requests in, responses out, as kubectl and the Python
// client would send them (wire contract).
#include <QtTest/QtTest>

#include "ApiTestSupport.h"
#include "api/Watcher.h"

using namespace rvscope;
using api::ApiRequest;
using api::ApiResponse;
using testing::run;

namespace {
using Fixture = testing::ApiFixture;

nlohmann::json json(const ApiResponse &response)
{
    return nlohmann::json::parse(response.body, nullptr, false);
}

// Drains a watch response's events that are already available.
std::vector<nlohmann::json> events(const ApiResponse &response, bool *ended = nullptr)
{
    std::vector<nlohmann::json> lines;
    bool done = false;
    response.watch->attach([&lines](const std::string &line) { lines.push_back(nlohmann::json::parse(line)); },
                           [&done] { done = true; });
    if (ended)
        *ended = done;
    return lines;
}

const char *CM_FOO = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"foo"},"data":{"a":"1"}})";
} // namespace

class TestApiHandler final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testDiscoveryWithTrailingSlashes_data();
    void testDiscoveryWithTrailingSlashes();
    void testUnknownPathIs404Status();
    void testLongRunningIsWhatIsServedAsAWatch();
    void testCrudRoundTrip();
    void testStalePutIs409WithExactMessage();
    void testListShape();
    void testPatchContentTypes();
    void testBadRequestsChangeNothing_data();
    void testBadRequestsChangeNothing();
    void testWatchStreamsEvents();
    void testWatchTooOldIsErrorEventInA200Stream();
    void testDeleteResponses();
    void testScaleSubresource();
    void testOneHandlerPerVerb_data();
    void testOneHandlerPerVerb();
    void testDryRunCreate();
    void testHostileBodiesGetStatuses_data();
    void testHostileBodiesGetStatuses();
    void testAcceptOfNothingServedIs406();
    void testGetHonoursItsResourceVersion();
    void testStringsThatAreNotUtf8ReadAsGoReadsThem();
};

void TestApiHandler::testDiscoveryWithTrailingSlashes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("kind");
    QTest::newRow("/api") << "/api" << "APIVersions";
    QTest::newRow("/api/") << "/api/" << "APIVersions";
    QTest::newRow("/apis/") << "/apis/" << "APIGroupList";
    QTest::newRow("/api/v1/") << "/api/v1/" << "APIResourceList";
    QTest::newRow("/apis/apps/") << "/apis/apps/" << "APIGroup";
    QTest::newRow("/apis/apps/v1") << "/apis/apps/v1" << "APIResourceList";
    QTest::newRow("/version/") << "/version/" << "";
}

void TestApiHandler::testDiscoveryWithTrailingSlashes()
{
    QFETCH(QString, path);
    QFETCH(QString, kind);
    Fixture fixture;
    const ApiResponse response = fixture.call("GET", path.toStdString());
    QCOMPARE(response.status, 200);
    const nlohmann::json body = json(response);
    if (kind.isEmpty())
        QCOMPARE(body["major"], "1");
    else
        QCOMPARE(body["kind"], kind.toStdString());
}

// The server leaves long-running requests out of --max-requests-inflight, as the
// apiserver does: exactly those the handler serves as a watch.
void TestApiHandler::testLongRunningIsWhatIsServedAsAWatch()
{
    Fixture fixture;
    auto longRunning = [&fixture](const char *method, const char *path, const char *watch) {
        ApiRequest request;
        request.method = method;
        request.path = path;
        if (watch)
            request.query["watch"] = watch;
        return fixture.handler.isLongRunning(request);
    };
    const char *configMaps = "/api/v1/namespaces/default/configmaps";
    QVERIFY(longRunning("GET", configMaps, "true"));
    QVERIFY(longRunning("GET", configMaps, "1")); // Go's strconv.ParseBool, as the list handler
    QVERIFY(longRunning("GET", "/api/v1/namespaces/default/configmaps/one", "true")); // the one-object watch
    QVERIFY(!longRunning("GET", configMaps, nullptr));
    QVERIFY(!longRunning("GET", configMaps, "false"));
    QVERIFY(!longRunning("GET", configMaps, "maybe")); // answered 400 at once
    QVERIFY(!longRunning("POST", configMaps, "true"));
    QVERIFY(!longRunning("GET", "/nope", "true"));
    // A subresource is read, never watched.
    const char *status = "/apis/apps/v1/namespaces/default/deployments/d/status";
    QCOMPARE(json(fixture.call("GET", status))["reason"], "NotFound");
    QVERIFY(json(fixture.call("GET", status))["message"] != "the server could not find the requested resource");
    QVERIFY(!longRunning("GET", status, "true"));
}

void TestApiHandler::testUnknownPathIs404Status()
{
    Fixture fixture;
    for (const char *path : {"/nope", "/api/v1/widgets", "/apis/example.com/v1/widgets", "/api/v1/namespaces/default/foos"}) {
        const ApiResponse response = fixture.call("GET", path);
        QCOMPARE(response.status, 404);
        QCOMPARE(json(response)["kind"], "Status");
        QCOMPARE(json(response)["message"], "the server could not find the requested resource");
    }
}

void TestApiHandler::testCrudRoundTrip()
{
    Fixture fixture;
    const ApiResponse created = fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    QCOMPARE(created.status, 201);
    const nlohmann::json object = json(created);
    QCOMPARE(object["kind"], "ConfigMap");
    QCOMPARE(object["metadata"]["namespace"], "default");

    const ApiResponse got = fixture.call("GET", "/api/v1/namespaces/default/configmaps/foo");
    QCOMPARE(got.status, 200);
    QCOMPARE(json(got), object);

    nlohmann::json changed = object;
    changed["data"]["a"] = "2";
    const ApiResponse updated = fixture.call("PUT", "/api/v1/namespaces/default/configmaps/foo", changed.dump());
    QCOMPARE(updated.status, 200);
    QVERIFY(json(updated)["metadata"]["resourceVersion"] != object["metadata"]["resourceVersion"]);

    const ApiResponse deleted = fixture.call("DELETE", "/api/v1/namespaces/default/configmaps/foo");
    QCOMPARE(deleted.status, 200);
    QCOMPARE(json(deleted)["status"], "Success");
    QCOMPARE(json(deleted)["details"]["kind"], "configmaps");
    QCOMPARE(fixture.call("GET", "/api/v1/namespaces/default/configmaps/foo").status, 404);
}

void TestApiHandler::testStalePutIs409WithExactMessage()
{
    Fixture fixture;
    const nlohmann::json first = json(fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO));
    nlohmann::json one = first;
    one["data"]["bar"] = "one";
    QCOMPARE(fixture.call("PUT", "/api/v1/namespaces/default/configmaps/foo", one.dump()).status, 200);
    nlohmann::json two = first;
    two["data"]["baz"] = "two";
    const ApiResponse conflict = fixture.call("PUT", "/api/v1/namespaces/default/configmaps/foo", two.dump());
    QCOMPARE(conflict.status, 409);
    QCOMPARE(json(conflict)["reason"], "Conflict");
    QCOMPARE(json(conflict)["message"],
             "Operation cannot be fulfilled on configmaps \"foo\": the object has been modified; please apply your "
             "changes to the latest version and try again");
}

void TestApiHandler::testListShape()
{
    Fixture fixture;
    const ApiResponse empty = fixture.call("GET", "/api/v1/namespaces/default/configmaps");
    QCOMPARE(empty.status, 200);
    QCOMPARE(json(empty)["kind"], "ConfigMapList");
    QCOMPARE(json(empty)["apiVersion"], "v1");
    QVERIFY(json(empty)["items"].is_array());
    QVERIFY(json(empty)["metadata"]["resourceVersion"].is_string());

    fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    const nlohmann::json all = json(fixture.call("GET", "/api/v1/configmaps?limit=500"));
    QCOMPARE(all["items"].size(), std::size_t(1));
    QCOMPARE(all["items"][0]["metadata"]["name"], "foo");
    QCOMPARE(json(fixture.call("GET", "/apis/apps/v1/deployments"))["kind"], "DeploymentList");
}

void TestApiHandler::testPatchContentTypes()
{
    Fixture fixture;
    fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    const std::string path = "/api/v1/namespaces/default/configmaps/foo";
    QCOMPARE(fixture.call("PATCH", path, R"({"data":{"s":"3"}})", "application/strategic-merge-patch+json").status, 200);
    QCOMPARE(fixture.call("PATCH", path, R"({"data":{"m":"4"}})", "application/merge-patch+json").status, 200);
    const ApiResponse jsonPatch =
        fixture.call("PATCH", path, R"([{"op":"add","path":"/data/j","value":"2"}])", "application/json-patch+json");
    QCOMPARE(jsonPatch.status, 200);
    QCOMPARE(json(jsonPatch)["data"], (nlohmann::json{{"a", "1"}, {"s", "3"}, {"m", "4"}, {"j", "2"}}));
    const ApiResponse failedTest =
        fixture.call("PATCH", path, R"([{"op":"test","path":"/data/a","value":"9"}])", "application/json-patch+json");
    QCOMPARE(failedTest.status, 422);
    const ApiResponse wrongType = fixture.call("PATCH", path, "{}", "text/plain");
    QCOMPARE(wrongType.status, 415);
    QCOMPARE(json(wrongType)["reason"], "UnsupportedMediaType");
    QCOMPARE(fixture.call("PATCH", "/api/v1/namespaces/default/configmaps/ghost", "{}",
                          "application/merge-patch+json")
                 .status,
             404);
    // Server-side apply creates a missing object.
    const ApiResponse applied = fixture.call("PATCH", "/api/v1/namespaces/default/configmaps/made?fieldManager=kubectl",
                                             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"made"},"data":{"x":"1"}})",
                                             "application/apply-patch+yaml");
    QCOMPARE(applied.status, 201);
}

void TestApiHandler::testBadRequestsChangeNothing_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("body");
    QTest::addColumn<int>("status");
    QTest::newRow("malformed json") << "POST" << "/api/v1/namespaces/default/configmaps" << "{not json" << 400;
    QTest::newRow("array body") << "POST" << "/api/v1/namespaces/default/configmaps" << "[1]" << 400;
    // 500 KB nested 100,000 deep: refused like Go's decoder does, never a tree whose
    // recursive encoding would exhaust the stack.
    QString deep = QStringLiteral("{\"metadata\":{\"name\":\"deep\"},\"data\":");
    for (int i = 0; i < 100000; ++i)
        deep += QStringLiteral("{\"a\":");
    deep += QStringLiteral("null") + QString(100001, u'}');
    QTest::newRow("nested too deep") << "POST" << "/api/v1/namespaces/default/configmaps" << deep << 400;
    QTest::newRow("wrong kind") << "POST" << "/api/v1/namespaces/default/configmaps"
                                << R"({"kind":"Secret","apiVersion":"v1","metadata":{"name":"x"}})" << 400;
    QTest::newRow("bad name") << "POST" << "/api/v1/namespaces/default/configmaps" << R"({"metadata":{"name":"Bad_x"}})"
                              << 422;
    QTest::newRow("bad bool") << "GET" << "/api/v1/configmaps?watch=maybe" << "" << 400;
    QTest::newRow("bad limit") << "GET" << "/api/v1/configmaps?limit=ten" << "" << 400;
    QTest::newRow("bad dryRun") << "POST" << "/api/v1/namespaces/default/configmaps?dryRun=Some"
                                << R"({"metadata":{"name":"x"}})" << 400;
    QTest::newRow("create without namespace") << "POST" << "/api/v1/configmaps" << R"({"metadata":{"name":"x"}})"
                                              << 405;
    QTest::newRow("namespace on cluster type") << "GET" << "/api/v1/namespaces/default/nodes" << "" << 404;
}

void TestApiHandler::testBadRequestsChangeNothing()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(QString, body);
    QFETCH(int, status);
    Fixture fixture;
    const auto before = run(fixture.registryFixture.storage->currentRevision()).value();
    const ApiResponse response = fixture.call(method.toStdString(), path.toStdString(), body.toStdString());
    QCOMPARE(response.status, status);
    QCOMPARE(json(response)["kind"], "Status");
    QCOMPARE(json(response)["code"], status);
    QCOMPARE(run(fixture.registryFixture.storage->currentRevision()).value(), before);
}

void TestApiHandler::testWatchStreamsEvents()
{
    Fixture fixture;
    fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    const ApiResponse watch = fixture.call("GET", "/api/v1/namespaces/default/configmaps?watch=True&resourceVersion=0");
    QCOMPARE(watch.status, 200);
    QVERIFY(watch.watch);
    std::vector<nlohmann::json> lines;
    watch.watch->attach([&lines](const std::string &line) { lines.push_back(nlohmann::json::parse(line)); }, [] {});
    QCOMPARE(lines.size(), std::size_t(1));
    QCOMPARE(lines[0]["type"], "ADDED"); // the synthetic ADDED kubectl get -w swallows
    fixture.call("PATCH", "/api/v1/namespaces/default/configmaps/foo", R"({"data":{"a":"2"}})",
                 "application/merge-patch+json");
    fixture.call("DELETE", "/api/v1/namespaces/default/configmaps/foo");
    QCOMPARE(lines.size(), std::size_t(3));
    QCOMPARE(lines[1]["type"], "MODIFIED");
    QCOMPARE(lines[1]["object"]["kind"], "ConfigMap");
    QCOMPARE(lines[2]["type"], "DELETED");
    watch.watch->close();
}

void TestApiHandler::testWatchTooOldIsErrorEventInA200Stream()
{
    Fixture fixture;
    fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    const auto now = run(fixture.registryFixture.storage->currentRevision()).value();
    run(fixture.registryFixture.storage->compact(now)).value();
    const ApiResponse watch = fixture.call("GET", "/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2");
    QCOMPARE(watch.status, 200);
    bool ended = false;
    const auto lines = events(watch, &ended);
    QCOMPARE(lines.size(), std::size_t(1));
    QCOMPARE(lines[0]["type"], "ERROR");
    QCOMPARE(lines[0]["object"]["code"], 410);
    QCOMPARE(lines[0]["object"]["reason"], "Expired");
    QVERIFY(ended);
}

void TestApiHandler::testDeleteResponses()
{
    Fixture fixture;
    const char *pod = R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}})";
    QCOMPARE(fixture.call("POST", "/api/v1/namespaces/default/pods", pod).status, 201);
    const ApiResponse deletedPod = fixture.call("DELETE", "/api/v1/namespaces/default/pods/p");
    QCOMPARE(deletedPod.status, 200);
    QCOMPARE(json(deletedPod)["kind"], "Pod"); // pods return the deleted object

    fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    const ApiResponse stale = fixture.call("DELETE", "/api/v1/namespaces/default/configmaps/foo",
                                           R"({"preconditions":{"resourceVersion":"1"}})");
    QCOMPARE(stale.status, 409);
    const ApiResponse dryRun =
        fixture.call("DELETE", "/api/v1/namespaces/default/configmaps/foo", R"({"dryRun":["All"]})");
    QCOMPARE(dryRun.status, 200);
    QCOMPARE(fixture.call("GET", "/api/v1/namespaces/default/configmaps/foo").status, 200);
}

void TestApiHandler::testScaleSubresource()
{
    Fixture fixture;
    const char *deployment = R"({"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})";
    QCOMPARE(fixture.call("POST", "/apis/apps/v1/namespaces/default/deployments", deployment).status, 201);
    const ApiResponse scaled = fixture.call("PATCH", "/apis/apps/v1/namespaces/default/deployments/web/scale",
                                            R"({"spec":{"replicas":3}})", "application/merge-patch+json");
    QVERIFY2(scaled.status == 200, scaled.body.c_str());
    QCOMPARE(json(scaled)["kind"], "Scale");
    QCOMPARE(json(scaled)["apiVersion"], "autoscaling/v1");
    QCOMPARE(json(scaled)["spec"]["replicas"], 3);
    QCOMPARE(json(scaled)["status"]["selector"], "app=web");
}

void TestApiHandler::testOneHandlerPerVerb_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("watch");
    QTest::addColumn<QString>("verb"); // as the journal and the authorizer see it
    QTest::addColumn<QString>("kind"); // of the body

    const QString pods = "/api/v1/namespaces/default/pods";
    QTest::newRow("list") << "GET" << pods << 200 << false << "list" << "PodList";
    QTest::newRow("watch") << "GET" << pods + "?watch=true" << 200 << true << "watch" << "";
    QTest::newRow("malformed watch is a list's 400") << "GET" << pods + "?watch=maybe" << 400 << false << "list"
                                                     << "Status";
    QTest::newRow("legacy watch of one object") << "GET" << pods + "/p?watch=1" << 200 << true << "watch" << "";
    QTest::newRow("get") << "GET" << pods + "/p" << 200 << false << "get" << "Pod";
    QTest::newRow("get status") << "GET" << pods + "/p/status" << 200 << false << "get" << "Pod";
    QTest::newRow("a subresource is read, not watched")
        << "GET" << pods + "/p/status?watch=true" << 200 << false << "get" << "Pod";
    QTest::newRow("get scale") << "GET" << "/apis/apps/v1/namespaces/default/deployments/web/scale" << 200 << false
                               << "get" << "Scale";
    QTest::newRow("delete of a subresource") << "DELETE" << pods + "/p/status" << 405 << false << "delete" << "Status";
    QTest::newRow("post to one object") << "POST" << pods + "/p" << 405 << false << "create" << "Status";
    QTest::newRow("put to a collection") << "PUT" << pods << 405 << false << "update" << "Status";
    QTest::newRow("head") << "HEAD" << pods + "/p" << 405 << false << "get" << "Status";
    QTest::newRow("options") << "OPTIONS" << pods << 405 << false << "OPTIONS" << "Status";
    QTest::newRow("create without a namespace") << "POST" << "/api/v1/pods" << 405 << false << "create" << "Status";
    QTest::newRow("deletecollection of namespaces") << "DELETE" << "/api/v1/namespaces" << 405 << false
                                                    << "deletecollection" << "Status";
    QTest::newRow("namespaced object without a namespace") << "GET" << "/api/v1/pods/p/status" << 404 << false
                                                           << "get" << "Status";
    QTest::newRow("a subresource the type lacks") << "GET" << pods + "/p/scale" << 404 << false << "get" << "Status";
    // A cluster-scoped type under /namespaces/<ns>/ names a subresource of that namespace.
    QTest::newRow("cluster-scoped type in a namespace")
        << "GET" << "/api/v1/namespaces/default/nodes" << 404 << false << "get" << "Status";
}

// Every resource request resolves once to a scope whose verb picks its handler, whose
// target (the store, /status or /scale) answers it, and whose verb the journal records.
void TestApiHandler::testOneHandlerPerVerb()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(int, status);
    QFETCH(bool, watch);
    QFETCH(QString, verb);
    QFETCH(QString, kind);
    Fixture fixture;
    const char *pod = R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}})";
    QCOMPARE(fixture.call("POST", "/api/v1/namespaces/default/pods", pod).status, 201);
    const char *deployment = R"({"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})";
    QCOMPARE(fixture.call("POST", "/apis/apps/v1/namespaces/default/deployments", deployment).status, 201);
    std::vector<api::OperationReport> reports;
    fixture.handler.setObserver([&reports](api::OperationReport &&report) {
        reports.push_back(std::move(report));
        return std::uint64_t(reports.size());
    });

    const ApiResponse response = fixture.call(method.toStdString(), path.toStdString());
    QVERIFY2(response.status == status, response.body.c_str());
    QCOMPARE(bool(response.watch), watch);
    if (!watch)
        QCOMPARE(QString::fromStdString(json(response)["kind"].get<std::string>()), kind);
    QCOMPARE(reports.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(reports.front().verb), verb);
    QCOMPARE(reports.front().statusCode, status);
}

// Both 409s say "Conflict" on the wire; the journal (and with it the window and the
// checkers) tells an apply refused for a field another manager owns from a stale version.
void TestApiHandler::testDryRunCreate()
{
    Fixture fixture;
    const ApiResponse created = fixture.call("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", CM_FOO);
    QCOMPARE(created.status, 201);
    QVERIFY(!json(created)["metadata"].contains("resourceVersion"));
    QCOMPARE(fixture.call("GET", "/api/v1/namespaces/default/configmaps/foo").status, 404);
}

void TestApiHandler::testHostileBodiesGetStatuses_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<QString>("body");
    const QString cm = "/api/v1/namespaces/default/configmaps/foo";
    const QString deploy = "/apis/apps/v1/namespaces/default/deployments/web";
    const QString jsonPatch = "application/json-patch+json";
    const QString merge = "application/merge-patch+json";
    const QString smp = "application/strategic-merge-patch+json";
    QTest::newRow("metadata replaced by a string") << "PATCH" << cm << jsonPatch
                                                   << R"([{"op":"replace","path":"/metadata","value":"x"}])";
    QTest::newRow("metadata removed") << "PATCH" << cm << jsonPatch << R"([{"op":"remove","path":"/metadata"}])";
    QTest::newRow("name made a number") << "PATCH" << cm << merge << R"({"metadata":{"name":5}})";
    QTest::newRow("labels made a list") << "PATCH" << cm << merge << R"({"metadata":{"labels":["a"]}})";
    QTest::newRow("data made a string") << "PATCH" << cm << smp << R"({"data":"x"})";
    QTest::newRow("whole object a list") << "PATCH" << cm << jsonPatch << R"([{"op":"replace","path":"","value":[1]}])";
    QTest::newRow("finalizers a string") << "PATCH" << cm << merge << R"({"metadata":{"finalizers":"x"}})";
    QTest::newRow("resourceVersion a number") << "PATCH" << cm << merge << R"({"metadata":{"resourceVersion":5}})";
    QTest::newRow("put metadata string") << "PUT" << cm << "application/json" << R"({"metadata":"x"})";
    QTest::newRow("spec a string") << "PATCH" << deploy << merge << R"({"spec":"x"})";
    QTest::newRow("template a list") << "PATCH" << deploy << smp << R"({"spec":{"template":[]}})";
    QTest::newRow("containers a map") << "PATCH" << deploy << smp << R"({"spec":{"template":{"spec":{"containers":{"a":1}}}}})";
    QTest::newRow("selector null") << "PATCH" << deploy << merge << R"({"spec":{"selector":null}})";
    QTest::newRow("replicas a string") << "PATCH" << deploy << merge << R"({"spec":{"replicas":"many"}})";
    QTest::newRow("scale spec a list") << "PATCH" << (deploy + "/scale") << merge << R"({"spec":[]})";
    QTest::newRow("status of a list") << "PATCH" << (deploy + "/status") << merge << R"({"status":[1]})";
    QTest::newRow("create metadata list") << "POST" << "/api/v1/namespaces/default/configmaps" << "application/json"
                                          << R"({"metadata":[]})";
    QTest::newRow("create pod containers string") << "POST" << "/api/v1/namespaces/default/pods" << "application/json"
                                                  << R"({"metadata":{"name":"p"},"spec":{"containers":"x"}})";
    QTest::newRow("delete options list") << "DELETE" << cm << "application/json" << "[1]";
    QTest::newRow("delete preconditions string") << "DELETE" << cm << "application/json" << R"({"preconditions":"x"})";
}

void TestApiHandler::testHostileBodiesGetStatuses()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(QString, contentType);
    QFETCH(QString, body);
    Fixture fixture;
    QCOMPARE(fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO).status, 201);
    const char *deployment = R"({"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})";
    QCOMPARE(fixture.call("POST", "/apis/apps/v1/namespaces/default/deployments", deployment).status, 201);
    const auto before = run(fixture.registryFixture.storage->currentRevision()).value();
    const ApiResponse response =
        fixture.call(method.toStdString(), path.toStdString(), body.toStdString(), contentType.toStdString());
    QVERIFY2(response.status >= 400 && response.status < 500, response.body.c_str());
    QCOMPARE(json(response)["kind"], "Status");
    QCOMPARE(run(fixture.registryFixture.storage->currentRevision()).value(), before);
    // And the server still serves.
    QCOMPARE(fixture.call("GET", "/api/v1/namespaces/default/configmaps/foo").status, 200);
}

void TestApiHandler::testAcceptOfNothingServedIs406()
{
    Fixture fixture;
    QCOMPARE(fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO).status, 201);
    const std::map<std::string, std::string> xml = {{"accept", "application/xml"}};
    const ApiResponse got = fixture.call("GET", "/api/v1/namespaces/default/configmaps/foo", {}, {}, xml);
    QCOMPARE(got.status, 406);
    QCOMPARE(json(got)["reason"], "NotAcceptable");
    QCOMPARE(json(got)["message"], "only the following media types are accepted: application/json, application/yaml, "
                                   "application/vnd.kubernetes.protobuf");
    // The handler negotiates its output before it reads the body (a 415 for this one).
    const ApiResponse created =
        fixture.call("POST", "/api/v1/namespaces/default/configmaps", "x", "text/plain", xml);
    QCOMPARE(created.status, 406);
    // No handler, nothing negotiated: the 405 and 404 stand.
    QCOMPARE(fixture.call("PUT", "/api/v1/namespaces/default/configmaps", CM_FOO, "application/json", xml).status, 405);
    QCOMPARE(fixture.call("GET", "/api/v1/namespaces/default/widgets", {}, {}, xml).status, 404);
}

void TestApiHandler::testGetHonoursItsResourceVersion()
{
    Fixture fixture;
    const ApiResponse created = fixture.call("POST", "/api/v1/namespaces/default/configmaps", CM_FOO);
    const std::string rv = json(created)["metadata"]["resourceVersion"];
    const std::string foo = "/api/v1/namespaces/default/configmaps/foo?resourceVersion=";
    for (const std::string &any : {std::string("0"), std::string(), rv, std::to_string(std::stoll(rv) - 1)})
        QCOMPARE(fixture.call("GET", foo + any).status, 200);
    for (const char *malformed : {"abc", "-1", "1.5", "99999999999999999999999"}) {
        const ApiResponse refused = fixture.call("GET", foo + malformed);
        QCOMPARE(refused.status, 400);
        QCOMPARE(json(refused)["message"], std::string("invalid resource version: ") + malformed);
    }
    const ApiResponse ahead = fixture.call("GET", foo + std::to_string(std::stoll(rv) + 100));
    QCOMPARE(ahead.status, 504);
    QCOMPARE(json(ahead)["reason"], "Timeout");
}

void TestApiHandler::testStringsThatAreNotUtf8ReadAsGoReadsThem()
{
    Fixture fixture;
    const std::string configMaps = "/api/v1/namespaces/default/configmaps";
    const ApiResponse created = fixture.call("POST", configMaps, "{\"metadata\":{\"name\":\"u\"},\"data\":{\"a\":\"\xff\xfe\"}}");
    QCOMPARE(created.status, 201);
    QCOMPARE(json(created)["data"]["a"], "\uFFFD\uFFFD");
    const ApiResponse patched = fixture.call("PATCH", configMaps + "/u", "{\"data\":{\"b\":\"x\xc3(\"}}",
                                             "application/merge-patch+json");
    QCOMPARE(patched.status, 200);
    QCOMPARE(json(patched)["data"]["b"], "x\uFFFD(");
    const ApiResponse label = fixture.call("POST", configMaps, "{\"metadata\":{\"name\":\"l\",\"labels\":{\"a\":\"\xc3(\"}}}");
    QCOMPARE(label.status, 422);
    QCOMPARE(json(label)["details"]["causes"][0]["field"], "metadata.labels");
    // Outside a string such a byte is a syntax error, as in Go.
    QCOMPARE(fixture.call("POST", configMaps, "{\"metadata\":{\"name\":\"s\"}}\xff").status, 400);
}

QTEST_GUILESS_MAIN(TestApiHandler)
#include "TestApiHandler.moc"
