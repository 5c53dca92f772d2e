// SPDX-License-Identifier: MIT
// Every built-in scenario runs to its end against a real core, each step gets the status
// its script expects, and the checkers reach the verdicts the scenario teaches.
#include <QtTest/QtTest>

#include "SimTestSupport.h"
#include "api/AccessControl.h"
#include "sim/ScenarioAccess.h"
#include "sim/ScenarioLibrary.h"
#include "sim/ScenarioPlayer.h"
#include "sim/ScenarioRunner.h"

using namespace rvscope;

namespace {

struct Run {
    std::vector<sim::StepResult> steps;
    std::vector<sim::CheckResult> checks;
    std::size_t operations = 0;
};

Run runScenario(testing::SimFixture &fixture, const sim::Scenario &scenario, std::uint64_t seed = 1)
{
    sim::ScenarioContext context;
    context.transport = fixture.transport;
    context.clock = fixture.clock;
    context.journal = fixture.journal;
    context.seed = seed;
    context.fault = sim::faultRulesOf(fixture.handler);
    auto storage = fixture.registryFixture.storage;
    context.compact = [storage]() -> QCoro::Task<model::Result<std::int64_t>> {
        const std::int64_t revision = storage->revision();
        auto compacted = co_await storage->compact(revision);
        if (!compacted)
            co_return std::move(compacted).error();
        co_return revision;
    };
    // As the engine loads a scenario: its access control and node graph on the fresh core.
    auto installed = sim::installScenarioAccess(scenario, *fixture.handler, *fixture.registryFixture.registry, context);
    if (!installed)
        qFatal("installScenarioAccess: %s", installed.error().message.c_str());
    auto runner = std::make_shared<sim::ScenarioRunner>(scenario, context);
    Run run;
    fixture.drive(runner->setup());
    while (!runner->finished())
        run.steps.push_back(fixture.drive(runner->runNext()));
    run.checks = runner->runChecks();
    run.operations = fixture.journal->history().operations().size();
    runner->stop();
    return run;
}

} // namespace

class TestScenarioRunner final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testBuiltInsParse();
    void testBuiltInScenariosRunAsScripted_data();
    void testBuiltInScenariosRunAsScripted();
    void testLostUpdateStepsSayWhatHappened();
    void testFieldOwnershipStepsNameManagersAndFields();
    void testListWatchRelistsAfter410();
    void testNodeSecretAccessFollowsThePod();
    void testNodeSecretPlaysInThePlayer();
    void testBadScenarioFilesAreRefusedWithTheStep();
    void testUnknownScenarioNamesTheBuiltIns();
};

void TestScenarioRunner::testBuiltInsParse()
{
    const auto scenarios = sim::ScenarioLibrary::builtIns();
    QCOMPARE(scenarios.size(), std::size_t(9));
    QCOMPARE(scenarios.front().name, std::string("lost-update"));
    for (const auto &scenario : scenarios) {
        QVERIFY(!scenario.title.empty());
        QVERIFY(!scenario.description.empty());
        for (const auto &step : scenario.steps)
            QVERIFY2(!step.explain.empty(), scenario.name.c_str());
    }
}

void TestScenarioRunner::testBuiltInScenariosRunAsScripted_data()
{
    QTest::addColumn<QString>("name");
    for (const auto &scenario : sim::ScenarioLibrary::builtIns()) {
        if (scenario.name != "hot-key") // the long run has its own test (TestHotKeyRun)
            QTest::newRow(scenario.name.c_str()) << QString::fromStdString(scenario.name);
    }
}

void TestScenarioRunner::testBuiltInScenariosRunAsScripted()
{
    QFETCH(QString, name);
    testing::SimFixture fixture;
    const auto scenario = sim::ScenarioLibrary::load(name.toStdString());
    QVERIFY(scenario);
    const Run run = runScenario(fixture, *scenario);
    QCOMPARE(run.steps.size(), scenario->steps.size());
    for (const auto &step : run.steps)
        QVERIFY2(step.expectationMet, (std::to_string(step.index + 1) + ": " + step.outcome).c_str());
    QCOMPARE(run.checks.size(), scenario->checks.size());
    for (const auto &check : run.checks)
        QVERIFY2(check.asExpected(), (check.check.checker + ": " + check.verdict.summary).c_str());
}

void TestScenarioRunner::testLostUpdateStepsSayWhatHappened()
{
    testing::SimFixture fixture;
    const Run run = runScenario(fixture, *sim::ScenarioLibrary::load("lost-update"));
    const sim::StepResult &conflict = run.steps[3];
    QCOMPARE(conflict.status, 409);
    QCOMPARE(conflict.reason, std::string("Conflict"));
    QCOMPARE(conflict.message, std::string("Operation cannot be fulfilled on configmaps \"foo\": the object has been "
                                           "modified; please apply your changes to the latest version and try again"));
    QVERIFY2(conflict.outcome.find("Client #2 PUT configmaps/default/foo (rv ") == 0, conflict.outcome.c_str());
    const sim::StepResult &blind = run.steps[7];
    QCOMPARE(blind.status, 200);
    QVERIFY(blind.resourceVersionSent.empty());
    QVERIFY(!run.checks[0].verdict.findings.empty());
    // The journal holds the setup create, 4 gets and 4 puts.
    QCOMPARE(run.operations, std::size_t(9));
}

void TestScenarioRunner::testFieldOwnershipStepsNameManagersAndFields()
{
    testing::SimFixture fixture;
    const Run run = runScenario(fixture, *sim::ScenarioLibrary::load("field-ownership"));
    const sim::StepResult &refused = run.steps[1];
    QCOMPARE(refused.status, 409);
    QCOMPARE(refused.reason, std::string("Conflict"));
    QCOMPARE(refused.message, std::string("Apply failed with 1 conflict: conflict with \"controller-a\": .data.owner"));
    QVERIFY(refused.details.empty()); // nothing changed, so nothing to list
    const sim::StepResult &forced = run.steps[2];
    QCOMPARE(forced.details, (std::vector<std::string>{"manages controller-a (Apply): .data.theme",
                                                       "manages controller-b (Apply): .data.owner"}));
    const sim::StepResult &edited = run.steps[7];
    QCOMPARE(edited.details.back(), std::string("manages kubectl-edit (Update): .data.owner"));
    const sim::StepResult &stale = run.steps[8];
    QCOMPARE(stale.status, 409);
    QVERIFY(stale.message.starts_with("Operation cannot be fulfilled on configmaps \"web-config\""));
    // The journal tells the two kinds apart.
    int ownership = 0;
    int stalePatches = 0;
    for (const auto &op : fixture.journal->history().operations()) {
        ownership += op.reason == "FieldManagerConflict";
        stalePatches += op.statusCode == 409 && op.reason == "Conflict";
    }
    QCOMPARE(ownership, 3);
    QCOMPARE(stalePatches, 1);
    // Every apply is journaled as one (the timeline draws no lost update for them); the
    // kubectl-edit patch is not.
    for (const auto &op : fixture.journal->history().operations()) {
        if (op.verb == "patch")
            QCOMPARE(op.apply, op.clientId != "kubectl-edit");
    }
}

void TestScenarioRunner::testListWatchRelistsAfter410()
{
    testing::SimFixture fixture;
    const Run run = runScenario(fixture, *sim::ScenarioLibrary::load("list-watch-410"));
    const sim::StepResult &expired = run.steps[9];
    QCOMPARE(expired.status, 410);
    QVERIFY2(expired.outcome.find("ERROR event 410") != std::string::npos, expired.outcome.c_str());
    // The last write reaches both open watches with the same resourceVersion.
    const sim::StepResult &last = run.steps.back();
    int modified = 0;
    for (const auto &line : last.details)
        modified += line.find("MODIFIED foo rv " + last.resourceVersionProduced) != std::string::npos;
    QCOMPARE(modified, 2);
    QVERIFY(!fixture.journal->history().watchDeliveries().empty());
}

void TestScenarioRunner::testNodeSecretAccessFollowsThePod()
{
    testing::SimFixture fixture;
    const auto scenario = sim::ScenarioLibrary::load("node-secret");
    QVERIFY(scenario);
    QVERIFY(scenario->access);
    const Run run = runScenario(fixture, *scenario);
    std::vector<int> statuses;
    for (const auto &step : run.steps) {
        statuses.push_back(step.status);
        QVERIFY2(step.expectationMet, (std::to_string(step.index + 1) + ": " + step.outcome).c_str());
    }
    // get a, get b, list a (no name), list a (by name), watch a, rotate, delete pod, get a,
    // relist a, pod on node-b, get b, get a.
    QCOMPARE(statuses, (std::vector<int>{200, 403, 403, 200, 200, 200, 200, 403, 403, 201, 200, 403}));
    QCOMPARE(run.steps[1].reason, std::string("Forbidden"));
    QCOMPARE(run.steps[1].message,
             std::string("secrets \"db-password\" is forbidden: User \"system:node:node-b\" cannot get resource "
                         "\"secrets\" in API group \"\" in the namespace \"default\": no relationship found between "
                         "node 'node-b' and this object"));
    QCOMPARE(run.steps[2].message,
             std::string("secrets is forbidden: User \"system:node:node-a\" cannot list resource \"secrets\" in API "
                         "group \"\" in the namespace \"default\": No Object name found"));
    QCOMPARE(run.steps[7].message,
             std::string("secrets \"db-password\" is forbidden: User \"system:node:node-a\" cannot get resource "
                         "\"secrets\" in API group \"\" in the namespace \"default\": no relationship found between "
                         "node 'node-a' and this object"));

    // The rotation reaches the kubelet's watch...
    const std::string watcher = "kubelet-a/secrets/default/db-password#1";
    const sim::StepResult &rotate = run.steps[5];
    QCOMPARE(rotate.details, std::vector<std::string>{watcher + " ← MODIFIED db-password rv " + rotate.resourceVersionProduced});
    // ...and deleting the pod ends it with the 403, reported by the delete step itself.
    const sim::StepResult &removal = run.steps[6];
    QCOMPARE(removal.details.size(), std::size_t(1));
    QCOMPARE(removal.details[0],
             watcher + " ← ERROR 403 Forbidden: secrets \"db-password\" is forbidden: User \"system:node:node-a\" cannot "
                       "watch resource \"secrets\" in API group \"\" in the namespace \"default\": no relationship "
                       "found between node 'node-a' and this object");
    QVERIFY2(removal.outcome.ends_with("; the server ended watch " + watcher + " with ERROR 403 Forbidden"),
             removal.outcome.c_str());
    for (std::size_t i = 7; i < run.steps.size(); ++i)
        QVERIFY2(run.steps[i].details.empty(), run.steps[i].outcome.c_str());

    // The journal holds the watch's two deliveries: MODIFIED, then the ERROR.
    std::vector<std::string> delivered;
    for (const auto &delivery : fixture.journal->history().watchDeliveries()) {
        if (delivery.watcherId == watcher)
            delivered.push_back(delivery.eventType + (delivery.eventType == "ERROR" ? ' ' + delivery.message.substr(0, 13) : ""));
    }
    QCOMPARE(delivered, (std::vector<std::string>{"MODIFIED", "ERROR 403 Forbidden"}));
    QCOMPARE(run.checks.size(), std::size_t(2));
    for (const auto &check : run.checks)
        QVERIFY2(check.asExpected(), (check.check.checker + ": " + check.verdict.summary).c_str());
}

void TestScenarioRunner::testNodeSecretPlaysInThePlayer()
{
    // The engine's way: a player on a virtual clock, playing at full speed with the pause
    // between steps, the access control installed by installScenarioAccess.
    testing::SimFixture fixture;
    const auto scenario = sim::ScenarioLibrary::load("node-secret");
    QVERIFY(scenario);
    sim::ScenarioContext context;
    context.transport = fixture.transport;
    context.clock = fixture.clock;
    context.journal = fixture.journal;
    int rechecks = 0;
    auto handler = fixture.handler;
    auto recheck = [&rechecks, handler] {
        ++rechecks;
        handler->accessControl()->recheckWatches();
    };
    QVERIFY(sim::installScenarioAccess(*scenario, *fixture.handler, *fixture.registryFixture.registry, context, recheck));
    sim::ScenarioPlayer player(*scenario, context, fixture.clock);
    std::vector<sim::StepResult> steps;
    std::vector<sim::CheckResult> checks;
    bool finished = false;
    connect(&player, &sim::ScenarioPlayer::stepCompleted, this, [&steps](const sim::StepResult &step) { steps.push_back(step); });
    connect(&player, &sim::ScenarioPlayer::finishedPlaying, this, [&](const std::vector<sim::CheckResult> &results) {
        checks = results;
        finished = true;
    });
    player.setStepInterval(std::chrono::milliseconds(1500));
    player.setSpeed(0);
    player.play();
    QTRY_VERIFY_WITH_TIMEOUT(finished, 20000);
    QCOMPARE(steps.size(), scenario->steps.size());
    for (const auto &step : steps)
        QVERIFY2(step.expectationMet, (std::to_string(step.index + 1) + ": " + step.outcome).c_str());
    QCOMPARE(steps[6].details.size(), std::size_t(1));
    QVERIFY2(steps[6].details[0].find("← ERROR 403 Forbidden") != std::string::npos, steps[6].details[0].c_str());
    // Deleting pod web and creating it on node-b each changed the graph (the setup's pod too).
    QCOMPARE(rechecks, 3);
    for (const auto &check : checks)
        QVERIFY2(check.asExpected(), (check.check.checker + ": " + check.verdict.summary).c_str());
}

void TestScenarioRunner::testBadScenarioFilesAreRefusedWithTheStep()
{
    auto badAction = sim::Scenario::parse(R"({"name":"x","steps":[{"do":"get","object":"configmaps/default/a"},{"do":"fly"}]})");
    QVERIFY(!badAction);
    QCOMPARE(badAction.error().code, 400);
    QVERIFY2(badAction.error().message.find("step 2: unknown action \"fly\"") != std::string::npos,
             badAction.error().message.c_str());
    QVERIFY(!sim::Scenario::parse("{not json"));
    QVERIFY(!sim::Scenario::parse(R"({"name":"x","steps":[]})"));
    QVERIFY(!sim::Scenario::parse(R"({"name":"x","steps":[{"do":"get"}]})"));
    QVERIFY(!sim::Scenario::parse(R"({"name":"x","steps":[{"do":"get","object":"configmaps/default/a","colour":1}]})"));
    QVERIFY(!sim::Scenario::parse(R"({"name":"x","steps":[{"do":"workload","clients":{"strategy":"hope"}}]})"));
}

void TestScenarioRunner::testUnknownScenarioNamesTheBuiltIns()
{
    auto missing = sim::ScenarioLibrary::load("lost-updates");
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, 404);
    QVERIFY(missing.error().message.find("lost-update, put-vs-patch") != std::string::npos);
    auto noFile = sim::ScenarioLibrary::load("/nonexistent/x.json");
    QVERIFY(!noFile);
}

QTEST_GUILESS_MAIN(TestScenarioRunner)
#include "TestScenarioRunner.moc"
