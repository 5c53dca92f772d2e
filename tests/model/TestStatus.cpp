// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "model/Status.h"
#include "model/StatusErrors.h"

using namespace rvscope::model;

// The Status shapes and the apiserver's exact texts (wire contract §2.3): clients match on them.
class TestStatus final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testFailureJsonShape();
    void testSuccessJsonOmitsCode();
    void testJsonRoundTrip();
    void testMessages_data();
    void testMessages();
    void testInvalidListsCauses();
    void testGroupResourceNames();
    void testDumpWritesWhatTheTreeWrites();
    void testDumpIsWhatTheApiserverWrites();
};

void TestStatus::testFailureJsonShape()
{
    const nlohmann::json json = errors::notFound({"apps", "deployments"}, "web").toJson();
    QCOMPARE(json.dump(), std::string(R"({"apiVersion":"v1","code":404,"details":{"group":"apps","kind":"deployments",)"
                                      R"("name":"web"},"kind":"Status","message":"deployments.apps \"web\" not found",)"
                                      R"("metadata":{},"reason":"NotFound","status":"Failure"})"));
}

void TestStatus::testSuccessJsonOmitsCode()
{
    Status success;
    success.details.name = "foo";
    success.details.kind = "configmaps";
    const nlohmann::json json = success.toJson();
    QCOMPARE(json["status"], "Success");
    QVERIFY(!json.contains("code"));
    QCOMPARE(json["details"]["name"], "foo");
}

void TestStatus::testJsonRoundTrip()
{
    Status original = errors::tooLargeResourceVersion(20, 10);
    Status copy = Status::fromJson(original.toJson());
    QCOMPARE(copy.code, 504);
    QCOMPARE(copy.reason, original.reason);
    QCOMPARE(copy.message, original.message);
    QCOMPARE(copy.details.retryAfterSeconds, 1);
    QCOMPARE(copy.details.causes.size(), std::size_t(1));
    QCOMPARE(copy.details.causes[0].type, std::string("ResourceVersionTooLarge"));
    QCOMPARE(original.toJson()["details"]["causes"][0]["reason"], "ResourceVersionTooLarge");
}

void TestStatus::testMessages_data()
{
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("expectedMessage");
    auto row = [](const char *name, const Status &s, const char *expected) {
        QTest::newRow(name) << s.code << QString::fromStdString(s.reason) << QString::fromStdString(s.message)
                            << QString::fromUtf8(expected);
    };
    row("not found", errors::notFound({"", "configmaps"}, "foo"), "configmaps \"foo\" not found");
    row("already exists", errors::alreadyExists({"", "configmaps"}, "foo"), "configmaps \"foo\" already exists");
    row("optimistic lock", errors::conflict({"", "configmaps"}, "foo", errors::OPTIMISTIC_LOCK_ERROR_MSG),
        "Operation cannot be fulfilled on configmaps \"foo\": the object has been modified; please apply your "
        "changes to the latest version and try again");
    row("expired", errors::expired("too old resource version: 5 (100)"), "too old resource version: 5 (100)");
    row("too large", errors::tooLargeResourceVersion(12, 10), "Too large resource version: 12, current: 10");
    row("path", errors::pathNotFound(), "the server could not find the requested resource");
}

void TestStatus::testMessages()
{
    QFETCH(int, code);
    QFETCH(QString, reason);
    QFETCH(QString, message);
    QFETCH(QString, expectedMessage);
    QCOMPARE(message, expectedMessage);
    static const std::map<QString, int> codes = {{"NotFound", 404}, {"AlreadyExists", 409}, {"Conflict", 409},
                                                 {"Expired", 410},  {"Timeout", 504}};
    QCOMPARE(code, codes.at(reason));
}

void TestStatus::testInvalidListsCauses()
{
    const Status one = errors::invalid("ConfigMap", "Bad_x",
                                       {{"FieldValueInvalid", "Invalid value: \"Bad_x\": bad", "metadata.name"}});
    QCOMPARE(one.code, 422);
    QCOMPARE(one.message, std::string("ConfigMap \"Bad_x\" is invalid: metadata.name: Invalid value: \"Bad_x\": bad"));
    const Status two = errors::invalid("Pod", "p", {{"FieldValueRequired", "Required value", "spec.containers"},
                                                    {"FieldValueRequired", "Required value", "spec.x"}});
    QCOMPARE(two.message, std::string("Pod \"p\" is invalid: [spec.containers: Required value, spec.x: Required value]"));
    QCOMPARE(two.toJson()["details"]["causes"][1]["field"], "spec.x");

    // The message names each distinct error once (ToAggregate), the causes list them all.
    const Status repeated = errors::invalid("Pod", "p", {{"FieldValueRequired", "Required value", "f"},
                                                         {"FieldValueRequired", "Required value", "f"}});
    QCOMPARE(repeated.message, std::string("Pod \"p\" is invalid: f: Required value"));
    QCOMPARE(repeated.details.causes.size(), std::size_t(2));

    // Past MAX_LISTED_FIELD_ERRORS the rest is counted, not listed.
    std::vector<StatusCause> many;
    for (std::size_t i = 0; i < errors::MAX_LISTED_FIELD_ERRORS + 5; ++i)
        many.push_back({"FieldValueRequired", "Required value", "f" + std::to_string(i)});
    many.push_back({"FieldValueRequired", "Required value", "f0"}); // a repeat is not counted
    const Status bounded = errors::invalid("Pod", "p", std::move(many));
    QCOMPARE(bounded.details.causes.size(), errors::MAX_LISTED_FIELD_ERRORS);
    QVERIFY2(bounded.message.ends_with("f999: Required value, and 5 more errors]"), bounded.message.c_str() + 
             bounded.message.size() - 80);
    QVERIFY(bounded.message.size() < 30 * errors::MAX_LISTED_FIELD_ERRORS + 100);
}

void TestStatus::testGroupResourceNames()
{
    QCOMPARE(GroupResource({"", "configmaps"}).toString(), std::string("configmaps"));
    QCOMPARE(GroupResource({"apps", "deployments"}).toString(), std::string("deployments.apps"));
    QCOMPARE(GroupVersionKind({"apps", "v1", "Deployment"}).apiVersion(), std::string("apps/v1"));
    QCOMPARE(GroupVersionResource({"", "v1", "pods"}).apiVersion(), std::string("v1"));
    QCOMPARE(splitApiVersion("apps/v1"), (std::pair<std::string, std::string>{"apps", "v1"}));
    QCOMPARE(splitApiVersion("v1"), (std::pair<std::string, std::string>{"", "v1"}));
}

void TestStatus::testDumpWritesWhatTheTreeWrites()
{
    Status success;
    success.details.name = "foo";
    success.details.kind = "configmaps";
    success.details.uid = "u-1";
    Status retry = errors::tooManyRequests("too many open watches, please try again later", 3);
    Status escapes = errors::badRequest(std::string("quote \" backslash \\ tab \t nl \n ctl \x01 \x1f del \x7f"));
    Status utf8 = errors::badRequest("caf\xc3\xa9");
    Status empty;
    empty.code = 500;
    const Status statuses[] = {
        errors::conflict({"", "configmaps"}, "hot", errors::OPTIMISTIC_LOCK_ERROR_MSG),
        errors::invalid("Pod", "p", {{"FieldValueRequired", "Required value", "spec.containers"},
                                     {"FieldValueRequired", "", "spec.x"}}),
        errors::pathNotFound(), success, retry, escapes, utf8, empty};
    // The same JSON value as the tree, written in Go's order rather than nlohmann's sorted one.
    for (const Status &status : statuses) {
        QCOMPARE(nlohmann::json::parse(status.dump()), status.toJson());
        QVERIFY2(status.dump().rfind(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":)", 0) == 0,
                 status.dump().c_str());
    }
}

void TestStatus::testDumpIsWhatTheApiserverWrites()
{
    // metav1.Status through Go's encoding/json: struct field order, omitempty, HTML-safe escapes.
    const std::string conflictJson =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
        "\"Operation cannot be fulfilled on configmaps \\\"hot\\\": the object has been modified; please apply your "
        "changes to the latest version and try again\",\"reason\":\"Conflict\",\"details\":"
        "{\"name\":\"hot\",\"kind\":\"configmaps\"},\"code\":409}";
    QCOMPARE(errors::conflict({"", "configmaps"}, "hot", errors::OPTIMISTIC_LOCK_ERROR_MSG).dump(), conflictJson);
    const std::string invalidJson =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
        "\"Pod \\\"p\\\" is invalid: spec.containers: Required value\",\"reason\":\"Invalid\",\"details\":"
        "{\"name\":\"p\",\"kind\":\"Pod\",\"causes\":[{\"reason\":\"FieldValueRequired\",\"message\":\"Required value\","
        "\"field\":\"spec.containers\"}]},\"code\":422}";
    QCOMPARE(errors::invalid("Pod", "p", {{"FieldValueRequired", "Required value", "spec.containers"}}).dump(),
             invalidJson);
    Status success;
    success.details = {"foo", "apps", "deployments", "u-1", {}, 0};
    const std::string successJson = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\","
                                    "\"details\":{\"name\":\"foo\",\"group\":\"apps\",\"kind\":\"deployments\",\"uid\":\"u-1\"}}";
    QCOMPARE(success.dump(), successJson);
    const std::string retry = errors::tooManyRequests("slow down", 3).dump();
    QVERIFY(retry.find("\"details\":{\"retryAfterSeconds\":3},\"code\":429}") != std::string::npos);
    const std::string html = errors::badRequest("<a> & <b>\xe2\x80\xa8\xff").dump();
    const std::string escaped = "\"message\":\"\\u003ca\\u003e \\u0026 \\u003cb\\u003e\\u2028\\ufffd\"";
    QVERIFY2(html.find(escaped) != std::string::npos, html.c_str());
}

QTEST_GUILESS_MAIN(TestStatus)
#include "TestStatus.moc"
