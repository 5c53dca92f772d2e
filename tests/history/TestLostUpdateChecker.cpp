// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "HistoryBuilders.h"
#include "history/History.h"
#include "history/LostUpdateChecker.h"

using namespace rvscope::history;
using rvscope::history::testing::boundedJournal;
using rvscope::history::testing::joined;
using rvscope::history::testing::keptOperations;
using rvscope::history::testing::counterObject;
using rvscope::history::testing::kHotKey;
using rvscope::history::testing::record;
using rvscope::history::testing::simulateCasCounter;

namespace {


bool anyFindingContains(const Verdict &verdict, const std::string &text)
{
    for (const std::string &finding : verdict.findings)
        if (finding.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestLostUpdateChecker final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testRetryOnConflictHistoryPasses();
    void testBlindWritesLoseUpdates();
    void testTwoWritesBasedOnSameRevisionFail();
    void testWrongIncrementFails();
    void testJumpExplainedByPendingWritePasses();
    void testIntegerCounterAndOtherKeysIgnored();
    void testMissingCounterIsUnknown();
    void testDeleteRestartsTheChain();
    void testLargeGeneratedHistories();
    void testNoWritesHasNothingToCheck();
    void testTruncatedHistoryIsCheckedAsFarAsItGoes();
};

void TestLostUpdateChecker::testRetryOnConflictHistoryPasses()
{
    // The seed scenario with resourceVersion: client 2's PUT gets 409, it re-reads, retries.
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "get", 10, 20, 200, "", "1", counterObject(0)),
        record(3, "c2", "get", 11, 21, 200, "", "1", counterObject(0)),
        record(4, "c1", "update", 30, 40, 200, "1", "2", counterObject(1)),
        record(5, "c2", "update", 31, 41, 409, "1", "", counterObject(1)),
        record(6, "c2", "get", 50, 60, 200, "", "2", counterObject(1)),
        record(7, "c2", "update", 70, 80, 200, "2", "3", counterObject(2)),
    };
    const Verdict verdict = LostUpdateChecker().check(ops, "configmaps/default/hot");
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
    QVERIFY2(verdict.summary.find("2 increments, final value 2") != std::string::npos, verdict.summary.c_str());
}

void TestLostUpdateChecker::testBlindWritesLoseUpdates()
{
    // The seed scenario without resourceVersion: both PUTs succeed, one increment is lost.
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "get", 10, 20, 200, "", "1", counterObject(0)),
        record(3, "c2", "get", 11, 21, 200, "", "1", counterObject(0)),
        record(4, "c1", "update", 30, 40, 200, "", "2", counterObject(1)),
        record(5, "c2", "update", 31, 41, 200, "", "3", counterObject(1)),
    };
    const Verdict verdict = LostUpdateChecker().check(ops, kHotKey);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
    QVERIFY2(anyFindingContains(verdict, "op 5 (c2 update rv 3) was based on rv 1 and overwrote op 4 (c1 update rv 2)"),
             joined(verdict).c_str());
    QVERIFY2(anyFindingContains(verdict, "final value 1 != baseline 0 + 2"), joined(verdict).c_str());
}

void TestLostUpdateChecker::testTwoWritesBasedOnSameRevisionFail()
{
    // A broken server accepted two preconditions on rv 1.
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "update", 30, 40, 200, "1", "2", counterObject(1)),
        record(3, "c2", "update", 31, 41, 200, "1", "3", counterObject(1)),
    };
    const Verdict verdict = LostUpdateChecker().check(ops, kHotKey);
    QVERIFY(verdict.failed());
    QVERIFY2(anyFindingContains(verdict, "2 successful writes based on rv 1"), joined(verdict).c_str());
}

void TestLostUpdateChecker::testWrongIncrementFails()
{
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "update", 30, 40, 200, "1", "2", counterObject(5)),
    };
    const Verdict verdict = LostUpdateChecker().check(ops, kHotKey);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
    QVERIFY2(anyFindingContains(verdict, "wrote 5 after value 0"), joined(verdict).c_str());
}

void TestLostUpdateChecker::testJumpExplainedByPendingWritePasses()
{
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "update", 10, -1, 0, "1", "", counterObject(1)), // no answer; committed rv 2
        record(3, "c2", "get", 20, 30, 200, "", "2", counterObject(1)),
        record(4, "c2", "update", 40, 50, 200, "2", "3", counterObject(2)),
    };
    Verdict verdict = LostUpdateChecker().check(ops, kHotKey);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    ops.erase(ops.begin() + 1);
    ops[1] = record(3, "c2", "get", 20, 30, 200, "", "1", counterObject(0));
    ops[2] = record(4, "c2", "update", 40, 50, 200, "", "3", counterObject(2));
    verdict = LostUpdateChecker().check(ops, kHotKey);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
}

void TestLostUpdateChecker::testIntegerCounterAndOtherKeysIgnored()
{
    auto object = [](int n) { return nlohmann::json{{"spec", {{"count", n}}}}; };
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", object(10)),
        record(2, "c1", "update", 10, 20, 200, "1", "2", object(11)),
        record(3, "c1", "update", 10, 20, 200, "", "3", object(0), "configmaps/default/unrelated"),
        record(4, "c1", "update", 30, 40, 200, "2", "4", object(12)),
    };
    const Verdict verdict = LostUpdateChecker("spec.count").check(ops, kHotKey);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
    QVERIFY2(verdict.summary.find("final value 12") != std::string::npos, verdict.summary.c_str());
}

void TestLostUpdateChecker::testMissingCounterIsUnknown()
{
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "update", 10, 20, 200, "1", "2", nlohmann::json::object()),
    };
    const Verdict verdict = LostUpdateChecker().check(ops, kHotKey);
    QCOMPARE(verdict.outcome, Verdict::Outcome::Unknown);
}

void TestLostUpdateChecker::testDeleteRestartsTheChain()
{
    std::vector<OperationRecord> ops{
        record(1, "setup", "create", 0, 5, 201, "", "1", counterObject(0)),
        record(2, "c1", "update", 10, 20, 200, "1", "2", counterObject(1)),
        record(3, "c1", "delete", 30, 40, 200, "", "3"),
        record(4, "c1", "create", 50, 60, 201, "", "4", counterObject(100)),
        record(5, "c1", "update", 70, 80, 200, "4", "5", counterObject(101)),
    };
    const Verdict verdict = LostUpdateChecker().check(ops, kHotKey);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLostUpdateChecker::testNoWritesHasNothingToCheck()
{
    // An empty history (the journal off) or one without a successful write of the key has
    // nothing to check: never a PASS of "0 successful writes".
    Verdict verdict = LostUpdateChecker().check(std::vector<OperationRecord>{}, kHotKey);
    QCOMPARE(verdict.outcome, Verdict::Outcome::NoHistory);
    QVERIFY2(verdict.summary.find("no operation on") != std::string::npos, verdict.summary.c_str());
    std::vector<OperationRecord> refused{record(1, "c1", "update", 10, 20, 409, "1", "")};
    verdict = LostUpdateChecker().check(refused, kHotKey);
    QCOMPARE(verdict.outcome, Verdict::Outcome::NoHistory);
    QVERIFY2(verdict.summary.find("no successful write of") != std::string::npos, verdict.summary.c_str());
}

void TestLostUpdateChecker::testLargeGeneratedHistories()
{
    History history;
    for (auto &op : simulateCasCounter(64, 1500, 11))
        history.append(std::move(op));
    QElapsedTimer timer;
    timer.start();
    Verdict verdict = LostUpdateChecker().check(history, kHotKey);
    qInfo("lost-update check of %zu operations: %lld ms", history.operations().size(),
          static_cast<long long>(timer.elapsed()));
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    const auto blind = simulateCasCounter(16, 200, 11, /*blindWrites=*/true);
    verdict = LostUpdateChecker().check(blind, kHotKey);
    QVERIFY2(verdict.failed(), verdict.summary.c_str());
    QVERIFY(anyFindingContains(verdict, "lost update: "));
}

void TestLostUpdateChecker::testTruncatedHistoryIsCheckedAsFarAsItGoes()
{
    int strictFailures = 0, histories = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const auto ops = simulateCasCounter(8, 60, seed);
        for (std::size_t capacity : {ops.size() / 2, ops.size() / 5}) {
            const History kept = boundedJournal(ops, {}, capacity);
            const Verdict verdict = LostUpdateChecker().check(kept, kHotKey);
            QVERIFY2(verdict.passed(), (std::to_string(seed) + ": " + joined(verdict)).c_str());
            QVERIFY2(verdict.summary.find("the journal dropped its oldest") != std::string::npos, verdict.summary.c_str());
            ++histories;
            strictFailures += LostUpdateChecker().check(keptOperations(kept), kHotKey).failed() ? 1 : 0;
        }
    }
    qInfo("without the window, %d of %d truncated histories were said to lose updates", strictFailures, histories);

    // Blind writes lose updates after the cut too.
    const auto blind = simulateCasCounter(8, 60, 4, true);
    const Verdict verdict = LostUpdateChecker().check(boundedJournal(blind, {}, blind.size() / 2), kHotKey);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
}

QTEST_GUILESS_MAIN(TestLostUpdateChecker)
#include "TestLostUpdateChecker.moc"
