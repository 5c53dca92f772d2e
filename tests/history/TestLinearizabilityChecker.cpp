// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include <chrono>

#include "HistoryBuilders.h"
#include "history/LinearizabilityChecker.h"

using namespace rvscope::history;
using rvscope::history::testing::boundedJournal;
using rvscope::history::testing::joined;
using rvscope::history::testing::keptOperations;
using rvscope::history::testing::counterObject;
using rvscope::history::testing::record;
using rvscope::history::testing::simulateCasCounter;

namespace {


Verdict check(const std::vector<OperationRecord> &ops, std::chrono::milliseconds budget = std::chrono::milliseconds(5000))
{
    return LinearizabilityChecker(LinearizabilityChecker::Options{budget}).check(ops);
}

} // namespace

class TestLinearizabilityChecker final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testSequentialHistoryPasses();
    void testConcurrentReadOfOlderValuePasses();
    void testConflictConcurrentWithWritePasses();
    void testConflictThatShouldHaveSucceededFails();
    void testOwnershipConflictConstrainsNothing();
    void testInjectedFaultsDidNothing();
    void testStaleReadAfterCompletedWriteFails();
    void testReadOfWrongValueFails();
    void testTwoWritesFromSameRevisionFail();
    void testDuplicateProducedRevisionFails();
    void testUnconditionalWritesPass();
    void testCreateDeleteAndAbsence();
    void testPendingWriteMayOrMayNotTakeEffect();
    void testKeysAreCheckedIndependently();
    void testEmptyHistoryHasNothingToCheck();
    void testLargeGeneratedHistoryPasses();
    void testLargeHistoryWithStaleReadFails();
    void testExhaustedBudgetIsUnknown();
    void testManySmallGeneratedHistoriesPass();
    void testTruncatedHistoryIsCheckedAsFarAsItGoes();
    void testStaleReadAfterTheCutStillFails();
};

void TestLinearizabilityChecker::testSequentialHistoryPasses()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "get", 20, 30, 200, "", "1", counterObject(0)),
        record(3, "a", "update", 40, 50, 200, "1", "2", counterObject(1)),
        record(4, "b", "update", 60, 70, 409, "1", ""),
        record(5, "b", "get", 80, 90, 200, "", "2", counterObject(1)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testConcurrentReadOfOlderValuePasses()
{
    // The read overlaps the write, so it may be ordered before it.
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "update", 20, 60, 200, "1", "2", counterObject(1)),
        record(3, "b", "get", 30, 70, 200, "", "1", counterObject(0)),
        record(4, "c", "get", 25, 65, 200, "", "2", counterObject(1)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testConflictConcurrentWithWritePasses()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "b", "update", 20, 40, 409, "1", ""), // may follow op 3's commit
        record(3, "a", "update", 15, 30, 200, "1", "2", counterObject(1)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testConflictThatShouldHaveSucceededFails()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "b", "update", 20, 30, 409, "1", ""), // rv 1 was current the whole time
        record(3, "a", "update", 40, 50, 200, "1", "2", counterObject(1)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
    QCOMPARE(verdict.findings.size(), std::size_t(1));
    QVERIFY2(verdict.findings[0].find("op 2 ") != std::string::npos, joined(verdict).c_str());
}

// An injected 409 carried the current resourceVersion and an injected 500 or drop never
// ran: with the journal's flag they constrain nothing (without it the 409 fails, as above).
void TestLinearizabilityChecker::testInjectedFaultsDidNothing()
{
    OperationRecord conflict = record(2, "b", "update", 20, 30, 409, "1", "");
    conflict.injected = "conflict";
    OperationRecord error = record(4, "b", "update", 60, 70, 500, "1", "");
    error.injected = "error";
    OperationRecord dropped = record(5, "b", "delete", 80, 90, 0, "", "");
    dropped.injected = "drop";
    // A late reply is the write that landed.
    OperationRecord late = record(6, "a", "update", 100, 900, 200, "2", "3", counterObject(2));
    late.injected = "delay-after-commit";
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        conflict,
        record(3, "a", "update", 40, 50, 200, "1", "2", counterObject(1)),
        error,
        dropped,
        late,
        record(7, "c", "get", 950, 960, 200, "", "3", counterObject(2)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
    QVERIFY(conflict.refusedByFault() && error.refusedByFault() && dropped.refusedByFault());
    QVERIFY(!late.refusedByFault());
}

// A server-side apply refused because another manager owns a field (journal reason
// FieldManagerConflict) carried the current resourceVersion: unlike a stale-version 409 it
// is no evidence of a concurrent write.
void TestLinearizabilityChecker::testOwnershipConflictConstrainsNothing()
{
    OperationRecord refused = record(2, "b", "patch", 20, 30, 409, "1", "");
    refused.reason = "FieldManagerConflict";
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        refused,
        record(3, "a", "update", 40, 50, 200, "1", "2", counterObject(1)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testStaleReadAfterCompletedWriteFails()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "update", 20, 30, 200, "1", "2", counterObject(1)),
        record(3, "b", "get", 40, 50, 200, "", "1", counterObject(0)), // starts after op 2 ended
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
    QVERIFY2(verdict.findings[0].find("op 3 ") != std::string::npos, joined(verdict).c_str());
}

void TestLinearizabilityChecker::testReadOfWrongValueFails()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "b", "get", 40, 50, 200, "", "1", counterObject(7)),
    };
    QVERIFY(check(ops).failed());
}

void TestLinearizabilityChecker::testTwoWritesFromSameRevisionFail()
{
    // Both preconditions name rv 1; only the first can have held.
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "update", 20, 40, 200, "1", "2", counterObject(1)),
        record(3, "b", "update", 20, 40, 200, "1", "3", counterObject(1)),
    };
    QVERIFY(check(ops).failed());
}

void TestLinearizabilityChecker::testDuplicateProducedRevisionFails()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "update", 20, 40, 200, "", "2", counterObject(1)),
        record(3, "b", "update", 20, 40, 200, "", "2", counterObject(2)),
    };
    const Verdict verdict = check(ops);
    QVERIFY(verdict.failed());
    QVERIFY2(verdict.findings[0].find("produced by two writes") != std::string::npos, joined(verdict).c_str());
}

void TestLinearizabilityChecker::testUnconditionalWritesPass()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "update", 20, 40, 200, "", "3", counterObject(1)),
        record(3, "b", "update", 20, 40, 200, "", "2", counterObject(1)),
        record(4, "c", "get", 50, 60, 200, "", "3", counterObject(1)),
    };
    const Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testCreateDeleteAndAbsence()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "get", 0, 5, 404, "", ""),
        record(2, "a", "create", 10, 20, 201, "", "1", counterObject(0)),
        record(3, "b", "create", 12, 22, 409, "", ""),
        record(4, "a", "delete", 30, 40, 200, "1", "2"),
        record(5, "b", "get", 50, 60, 404, "", ""),
        record(6, "b", "update", 50, 60, 404, "1", ""),
        record(7, "b", "create", 70, 80, 201, "", "3", counterObject(5)),
        record(8, "a", "get", 90, 95, 200, "", "3", counterObject(5)),
    };
    Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    ops.push_back(record(9, "c", "get", 100, 110, 404, "", "")); // absent although present
    verdict = check(ops);
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testPendingWriteMayOrMayNotTakeEffect()
{
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "update", 20, -1, 0, "1", ""), // no response
        record(3, "b", "get", 30, 40, 200, "", "1", counterObject(0)),
    };
    Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    // It took effect: a later read sees a revision nobody else produced.
    ops.push_back(record(4, "b", "get", 50, 60, 200, "", "2", counterObject(1)));
    ops.push_back(record(5, "c", "update", 70, 80, 200, "2", "3", counterObject(2)));
    verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    // A 504 has an unknown outcome too; but a read of an unexplained revision without any
    // pending write is a violation.
    ops[1].endNs = 25;
    ops[1].statusCode = 504;
    QVERIFY(check(ops).passed());
    ops.erase(ops.begin() + 1);
    QVERIFY(check(ops).failed());
}

void TestLinearizabilityChecker::testKeysAreCheckedIndependently()
{
    const std::string other = "configmaps/default/other";
    std::vector<OperationRecord> ops{
        record(1, "a", "create", 0, 10, 201, "", "1", counterObject(0)),
        record(2, "a", "create", 0, 10, 201, "", "2", counterObject(0, "other"), other),
        record(3, "a", "update", 20, 30, 200, "2", "3", counterObject(1, "other"), other),
        record(4, "b", "get", 40, 50, 200, "", "1", counterObject(0)),
    };
    Verdict verdict = check(ops);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
    QVERIFY2(verdict.summary.find("2 keys") != std::string::npos, verdict.summary.c_str());

    ops.push_back(record(5, "b", "get", 40, 50, 200, "", "2", counterObject(0, "other"), other));
    verdict = check(ops);
    QVERIFY(verdict.failed());
    QCOMPARE(verdict.findings.size(), std::size_t(1));
    QVERIFY2(verdict.findings[0].rfind("configmaps/default/other", 0) == 0, joined(verdict).c_str());
}

void TestLinearizabilityChecker::testEmptyHistoryHasNothingToCheck()
{
    // UI.md: a checker never calls an empty history a pass; it says there was nothing to check.
    const Verdict verdict = check({});
    QVERIFY(!verdict.passed());
    QCOMPARE(verdict.outcome, Verdict::Outcome::NoHistory);
    QVERIFY2(verdict.summary.rfind("no history: ", 0) == 0, verdict.summary.c_str());
}

void TestLinearizabilityChecker::testLargeGeneratedHistoryPasses()
{
    const auto ops = simulateCasCounter(64, 1500, 42);
    QElapsedTimer timer;
    timer.start();
    Verdict verdict = check(ops, std::chrono::milliseconds(60000));
    qInfo("linearizability of %zu operations (64 clients, one hot key): %lld ms", ops.size(),
          static_cast<long long>(timer.elapsed()));
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    // The same with about 1% of the writes' responses lost (pending or 504) after commit.
    auto lossy = ops;
    std::size_t lost = 0;
    for (std::size_t i = 5; i < lossy.size(); i += 97) {
        if (lossy[i].verb != "update")
            continue;
        ++lost;
        lossy[i].resourceVersionProduced.clear();
        if (i % 2 == 0)
            lossy[i].endNs.reset();
        else
            lossy[i].statusCode = 504;
    }
    timer.restart();
    verdict = check(lossy, std::chrono::milliseconds(60000));
    qInfo("... with %zu lost responses: %lld ms", lost, static_cast<long long>(timer.elapsed()));
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestLinearizabilityChecker::testLargeHistoryWithStaleReadFails()
{
    auto ops = simulateCasCounter(64, 300, 7);
    // A read long after everything else that returns the very first revision.
    const std::int64_t end = *ops.back().endNs + 1'000'000;
    ops.push_back(record(999999, "late", "get", end, end + 10, 200, "", "1", counterObject(0)));
    const Verdict verdict = check(ops, std::chrono::milliseconds(60000));
    QVERIFY2(verdict.failed(), joined(verdict).c_str());
    QVERIFY2(verdict.findings[0].find("op 999999") != std::string::npos, joined(verdict).c_str());
}

void TestLinearizabilityChecker::testExhaustedBudgetIsUnknown()
{
    const auto ops = simulateCasCounter(64, 200, 3);
    const Verdict verdict = check(ops, std::chrono::milliseconds(0));
    QCOMPARE(verdict.outcome, Verdict::Outcome::Unknown);
    QVERIFY2(verdict.summary.find("time budget") != std::string::npos, verdict.summary.c_str());
}

void TestLinearizabilityChecker::testManySmallGeneratedHistoriesPass()
{
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        for (bool blind : {false, true}) {
            auto ops = simulateCasCounter(8, 60, seed, blind);
            Verdict verdict = check(ops);
            QVERIFY2(verdict.passed(), (std::to_string(seed) + ": " + joined(verdict)).c_str());
            // Writes whose response was lost: pending, or a 504, but committed all the same.
            for (std::size_t i = 3; i < ops.size(); i += 7) {
                if (ops[i].verb != "update")
                    continue;
                ops[i].resourceVersionProduced.clear();
                if (i % 2 == 0) {
                    ops[i].endNs.reset();
                    ops[i].statusCode = 0;
                } else {
                    ops[i].statusCode = 504;
                }
            }
            verdict = check(ops);
            QVERIFY2(verdict.passed(), (std::to_string(seed) + " with lost responses: " + joined(verdict)).c_str());
        }
    }
}

void TestLinearizabilityChecker::testTruncatedHistoryIsCheckedAsFarAsItGoes()
{
    // A full journal dropped its oldest operations (in completion order, which is not the
    // order of revisions when operations overlap): what it kept is still linearizable.
    int strictFailures = 0, histories = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        for (bool blind : {false, true}) {
            const auto ops = simulateCasCounter(8, 60, seed, blind);
            for (std::size_t capacity : {ops.size() * 4 / 5, ops.size() / 2, ops.size() / 5, std::size_t(7)}) {
                const History kept = boundedJournal(ops, {}, capacity);
                QVERIFY(kept.droppedOperations() > 0);
                const Verdict verdict = LinearizabilityChecker().check(kept);
                const std::string where = std::to_string(seed) + (blind ? " blind" : "") + " kept "
                                          + std::to_string(capacity) + ": ";
                QVERIFY2(verdict.passed(), (where + joined(verdict)).c_str());
                QVERIFY2(verdict.summary.find("the journal dropped its oldest " + std::to_string(kept.droppedOperations())
                                              + " operations: each key checked from its first write")
                             != std::string::npos,
                         verdict.summary.c_str());
                // Checked as if it were the whole history, the same records may look wrong.
                ++histories;
                strictFailures += LinearizabilityChecker().check(keptOperations(kept)).failed() ? 1 : 0;
            }
        }
    }
    qInfo("without the window, %d of %d truncated histories were called not linearizable", strictFailures, histories);
}

void TestLinearizabilityChecker::testStaleReadAfterTheCutStillFails()
{
    auto ops = simulateCasCounter(8, 200, 9);
    const std::int64_t late = 100'000'000;
    // Long after everything: a read of a revision the journal kept, then of one it dropped.
    std::string keptRevision;
    for (const OperationRecord &op : ops)
        if (op.verb == "update" && op.succeeded() && *op.endNs > *ops.back().endNs / 2 && keptRevision.empty())
            keptRevision = op.resourceVersionProduced;
    for (const std::string &stale : {keptRevision, std::string("1")}) {
        auto withRead = ops;
        withRead.push_back(record(999999, "late", "get", late, late + 10, 200, "", stale, nullptr));
        const History kept = boundedJournal(withRead, {}, withRead.size() / 3);
        const Verdict verdict = LinearizabilityChecker().check(kept);
        QVERIFY2(verdict.failed(), ("rv " + stale + ": " + joined(verdict)).c_str());
        QVERIFY2(verdict.findings[0].find("op 999999") != std::string::npos, joined(verdict).c_str());
    }
}

QTEST_GUILESS_MAIN(TestLinearizabilityChecker)
#include "TestLinearizabilityChecker.moc"
