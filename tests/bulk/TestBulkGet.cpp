// SPDX-License-Identifier: MIT
// Bulk get (POST /apis/bulk.k8s.io/v1/bulkgetoperations): one list across resource types,
// all or nothing. Through ApiHandler, and once over a real socket.
#include <QtNetwork/QTcpSocket>

#include "BulkTestSupport.h"
#include "RawHttp.h"
#include "bulk/BulkGet.h"
#include "model/StatusErrors.h"

using namespace rvscope;
using testing::BulkFixture;
using testing::HttpReply;
using testing::rawRequest;
using testing::readReply;
using testing::run;
using testing::selector;

namespace {
api::ApiResponse post(BulkFixture &fixture, const std::string &body, const std::string &method = "POST")
{
    api::ApiRequest request;
    request.method = method;
    request.path = "/apis/bulk.k8s.io/v1/bulkgetoperations";
    request.body = body;
    request.headers["content-type"] = "application/json";
    request.user = "alice";
    return run(fixture.handler->handle(std::move(request)));
}

nlohmann::json operations(std::vector<nlohmann::json> selectors)
{
    return {{"operations", std::move(selectors)}};
}

std::vector<std::string> names(const nlohmann::json &list)
{
    std::vector<std::string> out;
    for (const auto &item : list["items"])
        out.push_back(item["kind"].get<std::string>() + '/' + item["metadata"]["name"].get<std::string>());
    return out;
}
} // namespace

class TestBulkGet final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testMixedKindsInOneList();
    void testSelectorsAndNamespaces();
    void testEmptyOperations();
    void testSeparateRevisionSeries();
    void testAllOrNothing_data();
    void testAllOrNothing();
    void testAuthorizerDenialFailsTheWholeRequest();
    void testOtherMethodsAre405();
    void testOverRealSocket();
};

void TestBulkGet::testMixedKindsInOneList()
{
    BulkFixture fixture;
    fixture.createConfigMap("c1");
    fixture.createSecret("s1");
    fixture.createConfigMap("c2", "kube-system");
    const auto response = post(fixture, operations({selector("configmaps", {{"namespace", "default"}}),
                                                    selector("secrets", {{"namespace", "default"}})})
                                             .dump());
    QCOMPARE(response.status, 200);
    const auto list = nlohmann::json::parse(response.body);
    QCOMPARE(list["kind"], "List");
    QCOMPARE(list["apiVersion"], "v1");
    QCOMPARE(list["metadata"]["resourceVersion"], std::to_string(fixture.currentRevision()));
    QCOMPARE(names(list), (std::vector<std::string>{"ConfigMap/c1", "Secret/s1"}));
    for (const auto &item : list["items"])
        QCOMPARE(item["apiVersion"], "v1");
}

void TestBulkGet::testSelectorsAndNamespaces()
{
    BulkFixture fixture;
    fixture.createConfigMap("web", "default", {{"app", "web"}});
    fixture.createConfigMap("db", "default", {{"app", "db"}});
    fixture.createConfigMap("web", "kube-system", {{"app", "web"}});
    fixture.createSecret("token");
    const auto response = post(fixture, operations({selector("configmaps", {{"labelSelector", "app=web"}}),
                                                    selector("secrets", {{"fieldSelector", "metadata.name=token"}}),
                                                    selector("namespaces", {{"fieldSelector", "metadata.name=default"}})})
                                             .dump());
    QCOMPARE(response.status, 200);
    const auto list = nlohmann::json::parse(response.body);
    QCOMPARE(names(list),
             (std::vector<std::string>{"ConfigMap/web", "ConfigMap/web", "Secret/token", "Namespace/default"}));
    QCOMPARE(list["items"][0]["metadata"]["namespace"], "default");
    QCOMPARE(list["items"][1]["metadata"]["namespace"], "kube-system");
}

void TestBulkGet::testEmptyOperations()
{
    BulkFixture fixture;
    const auto response = post(fixture, R"({"operations":[]})");
    QCOMPARE(response.status, 200);
    QCOMPARE(nlohmann::json::parse(response.body)["items"], nlohmann::json::array());
}

void TestBulkGet::testSeparateRevisionSeries()
{
    auto secretsStorage = std::make_shared<storage::MemoryStorage>();
    BulkFixture fixture({{"secrets", secretsStorage}});
    fixture.createConfigMap("c1");
    fixture.createSecret("s1");
    // Types in one series: that series' resourceVersion, as before.
    auto single = nlohmann::json::parse(post(fixture, operations({selector("secrets")}).dump()).body);
    QCOMPARE(single["metadata"]["resourceVersion"], std::to_string(secretsStorage->revision()));
    QVERIFY(!single.contains("resourceVersions"));
    // Across series there is no single resourceVersion: "" and one per series.
    const auto response = post(fixture, operations({selector("configmaps", {{"namespace", "default"}}),
                                                    selector("secrets", {{"namespace", "default"}})})
                                             .dump());
    QCOMPARE(response.status, 200);
    const auto list = nlohmann::json::parse(response.body);
    QCOMPARE(list["metadata"]["resourceVersion"], "");
    QCOMPARE(list["resourceVersions"]["main"], std::to_string(fixture.currentRevision()));
    QCOMPARE(list["resourceVersions"]["secrets"], std::to_string(secretsStorage->revision()));
    QCOMPARE(names(list), (std::vector<std::string>{"ConfigMap/c1", "Secret/s1"}));
    QCOMPARE(list["items"][1]["metadata"]["resourceVersion"], std::to_string(secretsStorage->revision()));
}

void TestBulkGet::testAllOrNothing_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<int>("status");
    const auto good = selector("configmaps");
    auto withBad = [&good](nlohmann::json bad) { return QString::fromStdString(operations({good, std::move(bad)}).dump()); };
    QTest::newRow("not json") << QStringLiteral("{nope") << 400;
    QTest::newRow("not an object") << QStringLiteral("[1]") << 400;
    QTest::newRow("no operations") << QStringLiteral("{}") << 400;
    QTest::newRow("operations not an array") << QStringLiteral("{\"operations\":{}}") << 400;
    QTest::newRow("operation not an object") << withBad(7) << 400;
    QTest::newRow("resource missing") << withBad({{"options", nlohmann::json::object()}}) << 400;
    QTest::newRow("resource wrong type") << withBad({{"resource", {{"version", 1}, {"resource", "x"}}}}) << 400;
    QTest::newRow("options wrong type") << withBad(selector("configmaps", {{"labelSelector", 5}})) << 400;
    QTest::newRow("unknown resource") << withBad(selector("nosuchthings")) << 404;
    QTest::newRow("unknown version") << withBad({{"resource", {{"group", ""}, {"version", "v9"}, {"resource", "configmaps"}}}})
                                     << 404;
    QTest::newRow("namespace on cluster-scoped") << withBad(selector("namespaces", {{"namespace", "default"}})) << 404;
    QTest::newRow("bad label selector") << withBad(selector("secrets", {{"labelSelector", "a in (("}})) << 400;
    QTest::newRow("bad field selector") << withBad(selector("secrets", {{"fieldSelector", "spec.nope=1"}})) << 400;
}

void TestBulkGet::testAllOrNothing()
{
    QFETCH(QString, body);
    QFETCH(int, status);
    BulkFixture fixture;
    fixture.createConfigMap("c1");
    const auto response = post(fixture, body.toStdString());
    QCOMPARE(response.status, status);
    const auto json = nlohmann::json::parse(response.body);
    QCOMPARE(json["kind"], "Status");
    QCOMPARE(json["code"], status);
    QVERIFY(!json.contains("items"));
}

void TestBulkGet::testAuthorizerDenialFailsTheWholeRequest()
{
    BulkFixture fixture;
    fixture.createConfigMap("c1");
    fixture.createSecret("s1");
    std::vector<std::string> asked;
    fixture.handler->bulkGet().setAuthorizer(
        [&asked](const std::string &user, const std::string &verb, const std::string &, const std::string &resource,
                 const std::string &ns, const std::string &name) -> std::optional<model::Status> {
            asked.push_back(user + ' ' + verb + ' ' + resource + ' ' + ns + ' ' + name);
            if (resource == "secrets")
                return model::errors::forbidden("secrets is forbidden: User \"" + user
                                                    + "\" cannot list resource \"secrets\" in API group \"\"",
                                                {"", "secrets"});
            return std::nullopt;
        });
    auto response = post(fixture, operations({selector("configmaps", {{"namespace", "default"}}),
                                              selector("secrets", {{"namespace", "default"},
                                                                   {"fieldSelector", "metadata.name=s1"}})})
                                       .dump());
    QCOMPARE(response.status, 403);
    QCOMPARE(nlohmann::json::parse(response.body)["reason"], "Forbidden");
    QCOMPARE(asked, (std::vector<std::string>{"alice list configmaps default ", "alice list secrets default s1"}));
    response = post(fixture, operations({selector("configmaps", {{"namespace", "default"}})}).dump());
    QCOMPARE(response.status, 200);
    QCOMPARE(names(nlohmann::json::parse(response.body)), (std::vector<std::string>{"ConfigMap/c1"}));
}

void TestBulkGet::testOtherMethodsAre405()
{
    BulkFixture fixture;
    for (const char *method : {"GET", "PUT", "DELETE", "PATCH"})
        QCOMPARE(post(fixture, "{}", method).status, 405);
}

void TestBulkGet::testOverRealSocket()
{
    BulkFixture fixture;
    fixture.createConfigMap("c1");
    fixture.createSecret("s1");
    const QByteArray body = QByteArray::fromStdString(
        operations({selector("configmaps"), selector("secrets", {{"namespace", "default"}})}).dump());
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, fixture.port);
    QVERIFY(socket.waitForConnected(5000));
    socket.write(rawRequest("POST", "/apis/bulk.k8s.io/v1/bulkgetoperations", body));
    const HttpReply answer = readReply(socket);
    QVERIFY(answer.body.endsWith("]}\n"));
    QCOMPARE(answer.status, 200);
    const auto list = nlohmann::json::parse(answer.body.toStdString());
    QCOMPARE(names(list), (std::vector<std::string>{"ConfigMap/c1", "Secret/s1"}));
}

QTEST_GUILESS_MAIN(TestBulkGet)
#include "TestBulkGet.moc"
