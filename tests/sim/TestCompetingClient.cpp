// SPDX-License-Identifier: MIT
// Competing clients through the real API handler on a virtual clock: each strategy does
// what the real client library does, and the journal and checkers see the consequences.
#include <QtTest/QtTest>

#include "SimTestSupport.h"
#include "history/LinearizabilityChecker.h"
#include "history/LostUpdateChecker.h"
#include "sim/Workload.h"

using namespace rvscope;
using sim::ClientSpec;
using sim::WriteStrategy;

namespace {

ClientSpec spec(WriteStrategy strategy, int clients, int operations)
{
    ClientSpec spec;
    spec.strategy = strategy;
    spec.clients = clients;
    spec.operations = operations;
    spec.seed = 7;
    return spec;
}

struct Outcome {
    sim::WorkloadSummary summary;
    std::int64_t counter = 0;
    history::Verdict lostUpdates;
    history::Verdict linearizable;
    std::size_t journaled = 0;
};

Outcome runWorkload(const ClientSpec &clientSpec)
{
    testing::SimFixture fixture;
    auto workload = std::make_shared<sim::Workload>(fixture.transport, fixture.clock, clientSpec);
    fixture.drive(workload->run());
    Outcome outcome;
    outcome.summary = workload->summary();
    outcome.counter = fixture.counter("counter-0");
    outcome.lostUpdates = history::LostUpdateChecker("data.counter").check(fixture.journal->history(),
                                                                           "configmaps/default/counter-0");
    outcome.linearizable = history::LinearizabilityChecker().check(fixture.journal->history());
    outcome.journaled = fixture.journal->history().operations().size();
    return outcome;
}

} // namespace

class TestCompetingClient final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testBackoffStepsLikeClientGo();
    void testThinkTimeParsing_data();
    void testThinkTimeParsing();
    void testClientSpecJsonRejectsUnknownFields();
    void testRawPutShowsConflictsAndLosesNothing();
    void testRetryOnConflictLandsEveryIncrement();
    void testBlindPutLosesUpdatesAndTheCheckerSaysWhich();
    void testMergePatchWithoutResourceVersionLosesUpdates();
    void testOptimisticPatchesLandEveryIncrement_data();
    void testOptimisticPatchesLandEveryIncrement();
    void testLeaseSerializesWriters();
    void testApplyWithoutForceMeetsTheOwner();
    void testForcedApplyTakesTheFieldAndLosesUpdates();
    void testApplyWithResourceVersionLandsEveryIncrement();
    void testSameSeedSameHistory();
    void testJournalRecordsWhatTheServerDecided();
};

void TestCompetingClient::testBackoffStepsLikeClientGo()
{
    std::mt19937_64 random(1);
    sim::Backoff backoff = sim::Backoff::defaultBackoff();
    backoff.jitter = 0;
    QCOMPARE(backoff.step(random), std::chrono::nanoseconds(std::chrono::milliseconds(10)));
    QCOMPARE(backoff.step(random), std::chrono::nanoseconds(std::chrono::milliseconds(50)));
    QCOMPARE(backoff.step(random), std::chrono::nanoseconds(std::chrono::milliseconds(250)));
    QCOMPARE(backoff.steps, 1);
    sim::Backoff jittered = sim::Backoff::defaultRetry();
    for (int i = 0; i < 50; ++i) {
        const auto step = jittered.step(random);
        QVERIFY(step >= std::chrono::milliseconds(10));
        QVERIFY(step <= std::chrono::milliseconds(11));
    }
}

void TestCompetingClient::testThinkTimeParsing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("normalized");
    QTest::newRow("constant") << "5ms" << true << "5ms";
    QTest::newRow("uniform") << "2-10ms" << true << "2-10ms";
    QTest::newRow("micro") << "250us" << true << "250us";
    QTest::newRow("seconds") << "1s" << true << "1000ms";
    QTest::newRow("exponential") << "exp:3ms" << true << "exp:3ms";
    QTest::newRow("reversed") << "10-2ms" << false << "";
    QTest::newRow("garbage") << "soon" << false << "";
    QTest::newRow("negative") << "-1ms" << false << "";
}

void TestCompetingClient::testThinkTimeParsing()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QString, normalized);
    auto parsed = sim::ThinkTime::parse(text.toStdString());
    QCOMPARE(bool(parsed), valid);
    if (valid)
        QCOMPARE(QString::fromStdString(parsed->toString()), normalized);
    else
        QCOMPARE(parsed.error().code, 400);
}

void TestCompetingClient::testClientSpecJsonRejectsUnknownFields()
{
    auto parsed = ClientSpec::fromJson(nlohmann::json{{"clients", 4}, {"strategy", "lease"}, {"thinkTime", "1-2ms"}});
    QVERIFY(parsed);
    QCOMPARE(parsed->clients, 4);
    QCOMPARE(parsed->strategy, WriteStrategy::Lease);
    QCOMPARE(ClientSpec::fromJson(parsed->toJson())->toJson(), parsed->toJson());
    auto unknown = ClientSpec::fromJson(nlohmann::json{{"clinets", 4}});
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().message, std::string("unknown client spec field \"clinets\""));
    QVERIFY(!ClientSpec::fromJson(nlohmann::json{{"strategy", "optimistic"}}));
    QVERIFY(!ClientSpec::fromJson(nlohmann::json{{"clients", 0}}));
}

void TestCompetingClient::testRawPutShowsConflictsAndLosesNothing()
{
    const Outcome outcome = runWorkload(spec(WriteStrategy::RawPut, 8, 20));
    QCOMPARE(outcome.summary.operationsDone, 160);
    QVERIFY2(outcome.summary.conflicts > 0, "eight clients thinking 1-5 ms on one key must collide");
    QCOMPARE(outcome.summary.retries, 0);
    QCOMPARE(outcome.summary.succeeded + outcome.summary.failed, 160);
    QCOMPARE(outcome.counter, outcome.summary.succeeded);
    QVERIFY2(outcome.lostUpdates.passed(), outcome.lostUpdates.summary.c_str());
    QVERIFY2(outcome.linearizable.passed(), outcome.linearizable.summary.c_str());
}

void TestCompetingClient::testRetryOnConflictLandsEveryIncrement()
{
    const Outcome outcome = runWorkload(spec(WriteStrategy::RetryBackoff, 4, 25));
    QVERIFY(outcome.summary.conflicts > 0);
    QVERIFY(outcome.summary.retries > 0);
    QCOMPARE(outcome.counter, outcome.summary.succeeded);
    QVERIFY2(outcome.summary.succeeded > 90, std::to_string(outcome.summary.succeeded).c_str());
    QVERIFY2(outcome.lostUpdates.passed(), outcome.lostUpdates.summary.c_str());
    QVERIFY2(outcome.linearizable.passed(), outcome.linearizable.summary.c_str());
}

void TestCompetingClient::testBlindPutLosesUpdatesAndTheCheckerSaysWhich()
{
    const Outcome outcome = runWorkload(spec(WriteStrategy::BlindPut, 8, 20));
    QCOMPARE(outcome.summary.succeeded, 160);
    QCOMPARE(outcome.summary.conflicts, 0);
    QVERIFY2(outcome.counter < 160, "unconditional updates must overwrite each other");
    QVERIFY(outcome.lostUpdates.failed());
    QVERIFY(!outcome.lostUpdates.findings.empty());
    // Lost, but linearizable: every write was applied atomically to the latest state.
    for (const auto &finding : outcome.linearizable.findings)
        qWarning("%s", finding.c_str());
    QVERIFY2(outcome.linearizable.passed(), outcome.linearizable.summary.c_str());
}

void TestCompetingClient::testMergePatchWithoutResourceVersionLosesUpdates()
{
    const Outcome outcome = runWorkload(spec(WriteStrategy::MergePatch, 8, 20));
    QCOMPARE(outcome.summary.conflicts, 0);
    QVERIFY(outcome.counter < outcome.summary.succeeded);
    QVERIFY(outcome.lostUpdates.failed());
}

void TestCompetingClient::testOptimisticPatchesLandEveryIncrement_data()
{
    QTest::addColumn<int>("strategy");
    QTest::newRow("merge-patch-rv") << int(WriteStrategy::MergePatchRv);
    QTest::newRow("json-patch-test") << int(WriteStrategy::JsonPatchTest);
    QTest::newRow("retry-default") << int(WriteStrategy::RetryDefault);
}

void TestCompetingClient::testOptimisticPatchesLandEveryIncrement()
{
    QFETCH(int, strategy);
    const Outcome outcome = runWorkload(spec(WriteStrategy(strategy), 4, 25));
    QVERIFY(outcome.summary.retries > 0);
    QCOMPARE(outcome.counter, outcome.summary.succeeded);
    QVERIFY2(outcome.lostUpdates.passed(), outcome.lostUpdates.summary.c_str());
    QVERIFY2(outcome.linearizable.passed(), outcome.linearizable.summary.c_str());
}

void TestCompetingClient::testLeaseSerializesWriters()
{
    const Outcome outcome = runWorkload(spec(WriteStrategy::Lease, 6, 10));
    QCOMPARE(outcome.summary.succeeded, 60);
    QCOMPARE(outcome.counter, 60);
    QVERIFY2(outcome.lostUpdates.passed(), outcome.lostUpdates.summary.c_str());
    QVERIFY2(outcome.linearizable.passed(), outcome.linearizable.summary.c_str());
}

void TestCompetingClient::testApplyWithoutForceMeetsTheOwner()
{
    // The setup's create made "setup" the manager of data.counter; an applier that does not
    // force cannot take it, and each 409 names the field and its manager.
    testing::SimFixture fixture;
    auto workload = std::make_shared<sim::Workload>(fixture.transport, fixture.clock, spec(WriteStrategy::Apply, 3, 4));
    fixture.drive(workload->run());
    const sim::WorkloadSummary summary = workload->summary();
    QCOMPARE(summary.succeeded, 0);
    QCOMPARE(summary.conflicts, 12);
    QCOMPARE(summary.retries, 0);
    QCOMPARE(fixture.counter("counter-0"), 0);
    int ownership = 0;
    for (const auto &op : fixture.journal->history().operations()) {
        if (op.verb != "patch")
            continue;
        QCOMPARE(op.statusCode, 409);
        QCOMPARE(op.reason, std::string("FieldManagerConflict"));
        QCOMPARE(op.message, std::string(R"(Apply failed with 1 conflict: conflict with "setup" using v1: .data.counter)"));
        ++ownership;
    }
    QCOMPARE(ownership, 12);
}

void TestCompetingClient::testForcedApplyTakesTheFieldAndLosesUpdates()
{
    const Outcome outcome = runWorkload(spec(WriteStrategy::ApplyForce, 8, 20));
    QCOMPARE(outcome.summary.succeeded, 160);
    QCOMPARE(outcome.summary.conflicts, 0);
    QVERIFY2(outcome.counter < 160, "forced applies without a resourceVersion overwrite each other");
    QVERIFY(outcome.lostUpdates.failed());
    QVERIFY2(outcome.linearizable.passed(), outcome.linearizable.summary.c_str());
}

void TestCompetingClient::testApplyWithResourceVersionLandsEveryIncrement()
{
    testing::SimFixture fixture;
    auto workload = std::make_shared<sim::Workload>(fixture.transport, fixture.clock, spec(WriteStrategy::ApplyRv, 4, 25));
    fixture.drive(workload->run());
    const sim::WorkloadSummary summary = workload->summary();
    QVERIFY(summary.retries > 0);
    QCOMPARE(fixture.counter("counter-0"), summary.succeeded);
    const auto &history = fixture.journal->history();
    QVERIFY(history::LostUpdateChecker("data.counter").check(history, "configmaps/default/counter-0").passed());
    // Every 409 is the optimistic lock's: force settles ownership, the resourceVersion does not.
    for (const auto &op : history.operations()) {
        if (op.statusCode == 409)
            QCOMPARE(op.reason, std::string("Conflict"));
    }
    // The appliers took data.counter from "setup", which keeps only the map it created; each
    // forced apply took the counter from the one before, so one applier manages it now.
    const nlohmann::json managed = fixture.configMap("counter-0")["metadata"]["managedFields"];
    QVERIFY2(managed.size() == 2, managed.dump().c_str());
    QCOMPARE(managed[0]["operation"], "Apply");
    QVERIFY2(managed[0]["manager"].get<std::string>().starts_with("c"), managed.dump().c_str());
    QCOMPARE(managed[0]["fieldsV1"], nlohmann::json::parse(R"({"f:data":{"f:counter":{}}})"));
    QCOMPARE(managed[1]["manager"], "setup");
    QCOMPARE(managed[1]["fieldsV1"], nlohmann::json::parse(R"({"f:data":{}})"));
}

void TestCompetingClient::testSameSeedSameHistory()
{
    auto shape = [](const ClientSpec &clientSpec) {
        testing::SimFixture fixture;
        auto workload = std::make_shared<sim::Workload>(fixture.transport, fixture.clock, clientSpec);
        fixture.drive(workload->run());
        std::vector<std::string> lines;
        for (const auto &op : fixture.journal->history().operations())
            lines.push_back(op.clientId + ' ' + op.verb + ' ' + op.resourceVersionSent + "->" + op.resourceVersionProduced
                            + ' ' + std::to_string(op.statusCode));
        return lines;
    };
    const ClientSpec first = spec(WriteStrategy::RawPut, 6, 10);
    QCOMPARE(shape(first), shape(first));
    ClientSpec other = first;
    other.seed = 8;
    QVERIFY(shape(first) != shape(other));
}

void TestCompetingClient::testJournalRecordsWhatTheServerDecided()
{
    testing::SimFixture fixture;
    auto workload = std::make_shared<sim::Workload>(fixture.transport, fixture.clock, spec(WriteStrategy::RawPut, 2, 3));
    fixture.drive(workload->run());
    const auto &ops = fixture.journal->history().operations();
    QVERIFY(!ops.empty());
    const history::OperationRecord &create = ops[1]; // setup's GET (404), then its create
    QCOMPARE(create.verb, std::string("create"));
    QCOMPARE(create.key, std::string("configmaps/default/counter-0"));
    QCOMPARE(create.statusCode, 201);
    QCOMPARE(create.clientId, std::string("setup"));
    bool sawConflict = false;
    for (const auto &op : ops) {
        QVERIFY(op.id > 0);
        QVERIFY(op.endNs && *op.endNs >= op.startNs);
        if (op.verb == "update") {
            QCOMPARE(op.strategy, std::string("raw-put"));
            QVERIFY(!op.resourceVersionSent.empty());
            if (op.statusCode == 409) {
                sawConflict = true;
                QCOMPARE(op.reason, std::string("Conflict"));
                QVERIFY(op.resourceVersionProduced.empty());
            } else {
                QCOMPARE(op.statusCode, 200);
                QVERIFY(std::stoll(op.resourceVersionProduced) > std::stoll(op.resourceVersionSent));
                QCOMPARE(op.objectJson()["metadata"]["resourceVersion"].get<std::string>(), op.resourceVersionProduced);
            }
        }
    }
    QVERIFY(sawConflict);
}

QTEST_GUILESS_MAIN(TestCompetingClient)
#include "TestCompetingClient.moc"
