// SPDX-License-Identifier: MIT
// A scenario's "access" section: identities, policy and anonymous flag parse strictly, the
// core gets the matching access control, and every client's requests (workloads included)
// go through the real ApiHandler as its identity.
#include <QtTest/QtTest>

#include "SimTestSupport.h"
#include "api/AccessControl.h"
#include "sim/ScenarioAccess.h"
#include "sim/ScenarioLibrary.h"
#include "sim/ScenarioRunner.h"

using namespace rvscope;

namespace {

// A scenario around `access` whose steps are done by `clients` (one get each).
nlohmann::json scenarioWith(const nlohmann::json &access, const std::vector<std::string> &clients = {"a"})
{
    nlohmann::json steps = nlohmann::json::array();
    for (const std::string &client : clients)
        steps.push_back({{"client", client}, {"do", "get"}, {"object", "configmaps/default/x"}});
    return {{"name", "access-test"}, {"access", access}, {"steps", steps}};
}

sim::Scenario parsed(const nlohmann::json &json)
{
    auto scenario = sim::Scenario::fromJson(json);
    if (!scenario)
        qFatal("scenario does not parse: %s", scenario.error().message.c_str());
    return std::move(scenario).value();
}

std::vector<sim::StepResult> runAll(testing::SimFixture &fixture, const sim::Scenario &scenario)
{
    sim::ScenarioContext context;
    context.transport = fixture.transport;
    context.clock = fixture.clock;
    context.journal = fixture.journal;
    auto installed = sim::installScenarioAccess(scenario, *fixture.handler, *fixture.registryFixture.registry, context);
    if (!installed)
        qFatal("installScenarioAccess: %s", installed.error().message.c_str());
    auto runner = std::make_shared<sim::ScenarioRunner>(scenario, context);
    fixture.drive(runner->setup());
    std::vector<sim::StepResult> results;
    while (!runner->finished())
        results.push_back(fixture.drive(runner->runNext()));
    runner->stop();
    return results;
}

const nlohmann::json NODE_ACCESS = nlohmann::json::parse(R"({
  "users": {"kubelet": {"user": "system:node:n1", "groups": ["system:nodes"]},
            "admin": {"user": "admin", "groups": ["system:masters"], "uid": "42"}},
  "policy": [{"groups": ["system:masters"], "verbs": ["*"], "resources": ["*"]}]})");

} // namespace

class TestScenarioAccess final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testAccessSectionGivesEachClientAToken();
    void testAccessSectionErrorsNameThePlace_data();
    void testAccessSectionErrorsNameThePlace();
    void testTokensAreUsableAndDistinct();
    void testExplicitSetupIdentityGetsNoImplicitRule();
    void testScenarioWithoutAccessLeavesTheCoreAlone();
    void testStepsRunAsTheirIdentity();
    void testWithoutPolicyEveryAuthenticatedUserMayDoAnything();
    void testAnonymousClients();
    void testWorkloadRunsAsItsStepClient();
    void testExpectWatchError();
};

void TestScenarioAccess::testAccessSectionGivesEachClientAToken()
{
    const sim::Scenario scenario = parsed(scenarioWith(NODE_ACCESS, {"kubelet", "admin"}));
    QVERIFY(scenario.access);
    const sim::ScenarioAccess &access = *scenario.access;
    QCOMPARE(access.identities.size(), std::size_t(3)); // kubelet, admin and the implicit setup
    const sim::ScenarioIdentity *kubelet = access.identity("kubelet");
    QVERIFY(kubelet);
    QCOMPARE(kubelet->user, std::string("system:node:n1"));
    QCOMPARE(kubelet->uid, std::string("kubelet"));
    QCOMPARE(kubelet->groups, std::vector<std::string>{"system:nodes"});
    QCOMPARE(kubelet->token, std::string("scenario-token-kubelet"));
    QCOMPARE(access.identity("admin")->uid, std::string("42"));
    const sim::ScenarioIdentity *setup = access.identity("setup");
    QVERIFY(setup);
    QCOMPARE(setup->user, std::string(sim::ScenarioAccess::SETUP_USER));
    QVERIFY(!access.identity("nobody"));
    // The setup client's rule comes after the scenario's own.
    QCOMPARE(access.policy.rules().size(), std::size_t(2));
    QCOMPARE(access.policy.rules()[1].users, std::vector<std::string>{"scenario-setup"});

    auto user = access.tokens.authenticate("Bearer scenario-token-kubelet");
    QVERIFY(user);
    QCOMPARE(user->name, std::string("system:node:n1"));
    QCOMPARE(user->groups, (std::vector<std::string>{"system:nodes", "system:authenticated"}));
    // "anonymous" defaults to false: no credentials, no entry.
    QCOMPARE(access.tokens.authenticate("").error().code, 401);
}

void TestScenarioAccess::testAccessSectionErrorsNameThePlace_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("message");
    auto row = [](const char *name, const nlohmann::json &scenario, const char *message) {
        QTest::newRow(name) << QString::fromStdString(scenario.dump()) << QString::fromUtf8(message);
    };
    const nlohmann::json a = {{"a", {{"user", "alice"}}}};
    row("not an object", scenarioWith(nlohmann::json::array()),
        "scenario access: must be a JSON object with \"users\"");
    row("unknown field", scenarioWith({{"users", a}, {"roles", 1}}),
        "scenario access: unknown field \"roles\" (expected users, policy, anonymous)");
    row("no users", scenarioWith({{"anonymous", true}}), "scenario access: \"users\" must map client names to identities");
    row("empty users", scenarioWith({{"users", nlohmann::json::object()}}),
        "scenario access: \"users\" must map client names to identities");
    row("identity not an object", scenarioWith({{"users", {{"a", 3}}}}),
        "scenario access: users \"a\": an identity is {\"user\": ..., \"groups\": [...]} or \"anonymous\"");
    row("other string", scenarioWith({{"users", {{"a", "admin"}}}}), "scenario access: users \"a\": an identity is");
    row("no user", scenarioWith({{"users", {{"a", {{"groups", {"g"}}}}}}}),
        "scenario access: users \"a\": \"user\" must be a non-empty string");
    row("empty user", scenarioWith({{"users", {{"a", {{"user", ""}}}}}}),
        "scenario access: users \"a\": \"user\" must be a non-empty string");
    row("groups not a list", scenarioWith({{"users", {{"a", {{"user", "alice"}, {"groups", "devs"}}}}}}),
        "scenario access: users \"a\": \"groups\" must be a list of group names");
    row("empty group", scenarioWith({{"users", {{"a", {{"user", "alice"}, {"groups", {""}}}}}}}),
        "scenario access: users \"a\": \"groups\" must be a list of non-empty group names");
    row("unknown identity field", scenarioWith({{"users", {{"a", {{"user", "alice"}, {"token", "t"}}}}}}),
        "scenario access: users \"a\": unknown field \"token\" (an identity has user, groups and uid)");
    row("uid not a string", scenarioWith({{"users", {{"a", {{"user", "alice"}, {"uid", 7}}}}}}),
        "scenario access: users \"a\": \"uid\" must be a string");
    row("anonymous not a boolean", scenarioWith({{"users", a}, {"anonymous", "yes"}}),
        "scenario access: \"anonymous\" must be true or false");
    row("policy not a list", scenarioWith({{"users", a}, {"policy", "all"}}),
        "scenario access: \"policy\" must be a list of rules");
    row("bad policy verb",
        scenarioWith({{"users", a},
                      {"policy", nlohmann::json::parse(R"([{"users":["alice"],"verbs":["gets"],"resources":["*"]}])")}}),
        "scenario access: policy rules[0].verbs[0]: unknown verb \"gets\"");
    row("policy object with unknown key", scenarioWith({{"users", a}, {"policy", {{"rulez", nlohmann::json::array()}}}}),
        "scenario access: policy: unknown key \"rulez\"");
    row("step client without identity", scenarioWith({{"users", a}}, {"a", "kubelet-c"}),
        "scenario step 2: client \"kubelet-c\" has no identity: name it in \"access\".\"users\"");
    nlohmann::json watchError = scenarioWith({{"users", a}});
    watchError["steps"][0]["expectWatchError"] = "403";
    row("expectWatchError not a code", watchError, "scenario step 1: expectWatchError must be an HTTP status code");
}

void TestScenarioAccess::testAccessSectionErrorsNameThePlace()
{
    QFETCH(QString, scenario);
    QFETCH(QString, message);
    auto result = sim::Scenario::parse(scenario.toStdString());
    QVERIFY(!result);
    QCOMPARE(result.error().code, 400);
    QVERIFY2(result.error().message.starts_with(message.toStdString()), result.error().message.c_str());
}

void TestScenarioAccess::testTokensAreUsableAndDistinct()
{
    // Client names as the built-ins write them, with spaces and '#'; two that sanitize alike.
    const nlohmann::json access = {{"users",
                                    {{"Client #1", {{"user", "one"}}},
                                     {"Client-#1", {{"user", "two"}}},
                                     {"setup", {{"user", "root"}}}}}};
    const sim::Scenario scenario = parsed(scenarioWith(access, {"Client #1", "Client-#1"}));
    const std::string first = scenario.access->identity("Client #1")->token;
    const std::string second = scenario.access->identity("Client-#1")->token;
    QCOMPARE(first, std::string("scenario-token-Client--1"));
    QCOMPARE(second, std::string("scenario-token-Client--1-2"));
    QCOMPARE(scenario.access->tokens.authenticate("Bearer " + first)->name, std::string("one"));
    QCOMPARE(scenario.access->tokens.authenticate("Bearer " + second)->name, std::string("two"));
    QCOMPARE(scenario.access->tokens.size(), std::size_t(3));
}

void TestScenarioAccess::testExplicitSetupIdentityGetsNoImplicitRule()
{
    nlohmann::json access = NODE_ACCESS;
    access["users"]["setup"] = {{"user", "admin"}, {"groups", {"system:masters"}}};
    const sim::Scenario scenario = parsed(scenarioWith(access, {"kubelet"}));
    QCOMPARE(scenario.access->identity("setup")->user, std::string("admin"));
    QCOMPARE(scenario.access->policy.rules().size(), std::size_t(1));
}

void TestScenarioAccess::testScenarioWithoutAccessLeavesTheCoreAlone()
{
    const auto scenario = sim::ScenarioLibrary::load("lost-update");
    QVERIFY(scenario);
    QVERIFY(!scenario->access);
    QVERIFY(!sim::accessControlFor(*scenario));
    testing::SimFixture fixture;
    sim::ScenarioContext context;
    QVERIFY(sim::installScenarioAccess(*scenario, *fixture.handler, *fixture.registryFixture.registry, context));
    QVERIFY(!fixture.handler->accessControl());
    QVERIFY(!context.nodeGraph);
}

void TestScenarioAccess::testStepsRunAsTheirIdentity()
{
    nlohmann::json json = scenarioWith(NODE_ACCESS, {"kubelet", "admin"});
    json["objects"] = {{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "x"}, {"namespace", "default"}}}}};
    const sim::Scenario scenario = parsed(json);
    auto access = sim::accessControlFor(scenario);
    QVERIFY(access);
    QCOMPARE(access->tokens().size(), std::size_t(3));
    QVERIFY(access != sim::accessControlFor(scenario)); // a fresh one per core

    testing::SimFixture fixture;
    const auto results = runAll(fixture, scenario);
    QVERIFY(fixture.handler->accessControl());
    QCOMPARE(results.size(), std::size_t(2));
    // The setup client created the object; the kubelet has no pod using it.
    QCOMPARE(results[0].status, 403);
    QCOMPARE(results[0].message, std::string("configmaps \"x\" is forbidden: User \"system:node:n1\" cannot get resource "
                                             "\"configmaps\" in API group \"\" in the namespace \"default\": no "
                                             "relationship found between node 'n1' and this object"));
    QCOMPARE(results[1].status, 200);
}

void TestScenarioAccess::testWithoutPolicyEveryAuthenticatedUserMayDoAnything()
{
    const sim::Scenario scenario = parsed(scenarioWith({{"users", {{"bob", {{"user", "bob"}}}, {"curl", "anonymous"}}}},
                                                       {"bob", "curl"}));
    testing::SimFixture fixture;
    const auto results = runAll(fixture, scenario);
    QCOMPARE(results[0].status, 404); // allowed, and there is no such ConfigMap
    QCOMPARE(results[1].status, 401);
    QCOMPARE(results[1].message, std::string("Unauthorized"));
}

void TestScenarioAccess::testAnonymousClients()
{
    nlohmann::json access = NODE_ACCESS;
    access["users"]["curl"] = "anonymous";
    access["anonymous"] = true;
    const sim::Scenario scenario = parsed(scenarioWith(access, {"curl"}));
    QVERIFY(scenario.access->identity("curl")->anonymous());
    QCOMPARE(scenario.access->tokens.size(), std::size_t(3)); // kubelet, admin, setup: curl has none
    testing::SimFixture fixture;
    const auto results = runAll(fixture, scenario);
    QCOMPARE(results[0].status, 403);
    QVERIFY2(results[0].message.find("User \"system:anonymous\" cannot get") != std::string::npos,
             results[0].message.c_str());
}

void TestScenarioAccess::testWorkloadRunsAsItsStepClient()
{
    const nlohmann::json access = {
        {"users", {{"writer", {{"user", "writer"}}}, {"reader", {{"user", "reader"}}}}},
        {"policy",
         {{{"users", {"writer"}}, {"verbs", {"*"}}, {"resources", {"configmaps"}}},
          {{"users", {"reader"}}, {"verbs", {"get", "list", "watch"}}, {"resources", {"configmaps"}}}}}};
    const nlohmann::json workload = {{"clients", 2}, {"strategy", "retry-default"}, {"objects", 1}, {"operations", 3}};
    nlohmann::json json = {{"name", "workload-access"},
                           {"access", access},
                           {"steps",
                            {{{"client", "writer"}, {"do", "workload"}, {"clients", workload}},
                             {{"client", "reader"}, {"do", "workload"}, {"clients", workload}}}}};
    const sim::Scenario scenario = parsed(json);
    testing::SimFixture fixture;
    const auto results = runAll(fixture, scenario);
    QVERIFY2(results[0].outcome.find("6 increments landed") != std::string::npos, results[0].outcome.c_str());
    QVERIFY2(results[1].outcome.find("0 increments landed") != std::string::npos, results[1].outcome.c_str());
    int forbidden = 0, unauthorized = 0;
    for (const auto &op : fixture.journal->history().operations()) {
        forbidden += op.statusCode == 403;
        unauthorized += op.statusCode == 401;
    }
    QVERIFY(forbidden > 0); // the reader's updates
    QCOMPARE(unauthorized, 0); // nobody ran without the step client's token
}

void TestScenarioAccess::testExpectWatchError()
{
    // A watch on a secret that a pod bound to n1 uses; deleting another pod changes the
    // graph but not this watch's access, deleting the pod that uses it ends the watch.
    auto pod = [](const std::string &name, const std::string &secret) {
        nlohmann::json object = nlohmann::json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"default"},
            "spec":{"nodeName":"n1","containers":[{"name":"c","image":"busybox"}],"volumes":[{"name":"v","secret":{}}]}})");
        object["metadata"]["name"] = name;
        object["spec"]["volumes"][0]["secret"]["secretName"] = secret;
        return object;
    };
    auto secret = [](const std::string &name) {
        return nlohmann::json{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
    };
    nlohmann::json json = nlohmann::json::parse(R"({"name":"watch-error","steps":[
        {"client":"kubelet","do":"watch","object":"secrets/default/s","expect":200},
        {"client":"admin","do":"delete","object":"pods/default/uses-t","expectWatchError":403},
        {"client":"admin","do":"delete","object":"pods/default/uses-s","expectWatchError":403},
        {"client":"admin","do":"note"}]})");
    json["access"] = NODE_ACCESS;
    json["objects"] = nlohmann::json::array({secret("s"), secret("t"), pod("uses-s", "s"), pod("uses-t", "t")});
    const sim::Scenario scenario = parsed(json);
    QCOMPARE(scenario.steps[1].expectWatchError, std::optional<int>(403));
    testing::SimFixture fixture;
    const auto results = runAll(fixture, scenario);
    QVERIFY(results[0].expectationMet);
    QCOMPARE(results[1].status, 200);
    QVERIFY(!results[1].expectationMet);
    QVERIFY2(results[1].outcome.ends_with("; no watch got the expected ERROR 403"), results[1].outcome.c_str());
    QVERIFY(results[1].details.empty());
    QVERIFY2(results[2].expectationMet, results[2].outcome.c_str());
    QVERIFY2(results[2].outcome.ends_with("; the server ended watch kubelet/secrets/default/s#1 with ERROR 403 Forbidden"),
             results[2].outcome.c_str());
    QCOMPARE(results[2].details.size(), std::size_t(1));
    QVERIFY2(results[2].details[0].starts_with("kubelet/secrets/default/s#1 ← ERROR 403 Forbidden: secrets \"s\" is "
                                               "forbidden: User \"system:node:n1\" cannot watch resource \"secrets\""),
             results[2].details[0].c_str());
    QVERIFY(results[3].details.empty());
}

QTEST_GUILESS_MAIN(TestScenarioAccess)
#include "TestScenarioAccess.moc"
