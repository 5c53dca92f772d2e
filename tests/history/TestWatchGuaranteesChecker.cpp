// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "HistoryBuilders.h"
#include "history/History.h"
#include "history/WatchGuaranteesChecker.h"

using namespace rvscope::history;
using rvscope::history::testing::boundedJournal;
using rvscope::history::testing::joined;
using rvscope::history::testing::counterObject;
using rvscope::history::testing::record;
using rvscope::history::testing::simulateCasCounter;

namespace {

const std::string kFoo = "/registry/configmaps/default/foo";
const std::string kBar = "/registry/configmaps/default/bar";
const std::string kSecret = "/registry/secrets/default/s";


bool anyFindingContains(const Verdict &verdict, const std::string &text)
{
    for (const std::string &finding : verdict.findings)
        if (finding.find(text) != std::string::npos)
            return true;
    return false;
}

// Commits: rv 2 ADDED foo, 3 ADDED bar, 4 ADDED secret, 5 MODIFIED foo, 6 DELETED bar.
// Op 100 watches configmaps in default from rv 2 (resume): it must get 3, 5, 6.
std::vector<OperationRecord> commitLog()
{
    return {
        record(1, "a", "create", 0, 10, 201, "", "2", counterObject(0, "foo"), kFoo),
        record(2, "a", "create", 20, 30, 201, "", "3", counterObject(0, "bar"), kBar),
        record(3, "a", "create", 40, 50, 201, "", "4", nlohmann::json::object(), kSecret),
        record(4, "a", "update", 60, 70, 200, "2", "5", counterObject(1, "foo"), kFoo),
        record(5, "b", "update", 61, 71, 409, "2", "", nullptr, kFoo),
        record(6, "a", "delete", 80, 90, 200, "", "6", nullptr, kBar),
        record(100, "w", "watch", 15, -1, 0, "2", "", nullptr, "/registry/configmaps/default/"),
    };
}

WatchDelivery delivery(const std::string &type, const std::string &rv, const std::string &key)
{
    return WatchDelivery{"w1", 100, type, rv, key, 0};
}

// Two watches of the hot key's collection, correct by construction: "early" from rv 1 (the
// create) and "late", opened half-way from the revision current then; each event is handed
// over when its write ends.
void watchedCounter(std::vector<OperationRecord> &ops, std::vector<WatchDelivery> &deliveries)
{
    ops = simulateCasCounter(8, 150, 21);
    std::vector<const OperationRecord *> commits;
    for (const OperationRecord &op : ops)
        if (op.verb == "update" && op.succeeded())
            commits.push_back(&op);
    std::sort(commits.begin(), commits.end(), [](const OperationRecord *a, const OperationRecord *b) {
        return std::stoll(a->resourceVersionProduced) < std::stoll(b->resourceVersionProduced);
    });
    const OperationRecord &middle = *commits[commits.size() / 2];
    const std::int64_t lateStart = *middle.endNs;
    std::vector<OperationRecord> watches{
        record(900001, "early", "watch", 5, 5, 200, "1", "", nullptr, "/registry/configmaps/default/"),
        record(900002, "late", "watch", lateStart, lateStart, 200, middle.resourceVersionProduced, "", nullptr,
               "/registry/configmaps/default/")};
    // Events go out in revision order; the writer may hear back later than a later writer.
    std::int64_t handedOver = 0;
    for (const OperationRecord *commit : commits) {
        handedOver = std::max(handedOver + 2, *commit->endNs);
        deliveries.push_back(WatchDelivery{"early", 900001, "MODIFIED", commit->resourceVersionProduced, commit->key, handedOver});
        if (std::stoll(commit->resourceVersionProduced) > std::stoll(middle.resourceVersionProduced))
            deliveries.push_back(
                WatchDelivery{"late", 900002, "MODIFIED", commit->resourceVersionProduced, commit->key, handedOver + 1});
    }
    ops.insert(ops.end(), watches.begin(), watches.end());
}

std::vector<WatchDelivery> correctStream()
{
    return {delivery("ADDED", "3", kBar), delivery("BOOKMARK", "4", ""), delivery("MODIFIED", "5", kFoo), delivery("DELETED", "6", kBar)};
}

} // namespace

class TestWatchGuaranteesChecker final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testCorrectStreamPasses();
    void testGapFails();
    void testDuplicateFails();
    void testReorderFails();
    void testWrongResumeFails();
    void testInventedEventFails();
    void testWrongEventTypeFails();
    void testStreamWithoutWatchOperationChecksOrderOnly();
    void testSeveralWatchersAreIndependent();
    void testLargeGeneratedStreamPasses();
    void testNoDeliveriesHasNothingToCheck();
    void testTruncatedHistoryIsCheckedAsFarAsItGoes();
};

void TestWatchGuaranteesChecker::testCorrectStreamPasses()
{
    const Verdict verdict = WatchGuaranteesChecker().check(commitLog(), correctStream());
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
    // A stream that simply stopped early is fine too.
    auto partial = correctStream();
    partial.pop_back();
    QVERIFY(WatchGuaranteesChecker().check(commitLog(), partial).passed());
}

void TestWatchGuaranteesChecker::testGapFails()
{
    auto stream = correctStream();
    stream.erase(stream.begin() + 2); // the MODIFIED at rv 5
    const Verdict verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY(verdict.failed());
    QVERIFY2(anyFindingContains(verdict, "gap: missed MODIFIED rv 5 (configmaps/default/foo, op 4)"), joined(verdict).c_str());
}

void TestWatchGuaranteesChecker::testDuplicateFails()
{
    auto stream = correctStream();
    stream.insert(stream.begin() + 3, delivery("MODIFIED", "5", kFoo));
    const Verdict verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY(verdict.failed());
    QVERIFY2(anyFindingContains(verdict, "duplicate MODIFIED rv 5"), joined(verdict).c_str());
}

void TestWatchGuaranteesChecker::testReorderFails()
{
    auto stream = correctStream();
    std::swap(stream[2], stream[3]);
    const Verdict verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY(verdict.failed());
    QVERIFY2(anyFindingContains(verdict, "out of order: MODIFIED rv 5"), joined(verdict).c_str());
}

void TestWatchGuaranteesChecker::testWrongResumeFails()
{
    // Resuming from rv 2 must not replay the commit at rv 2 itself.
    auto stream = correctStream();
    stream.insert(stream.begin(), delivery("ADDED", "2", kFoo));
    Verdict verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY(verdict.failed());
    QVERIFY2(anyFindingContains(verdict, "resume from rv 2 delivered ADDED rv 2"), joined(verdict).c_str());

    // Nor skip the first commit after it.
    stream = correctStream();
    stream.erase(stream.begin());
    verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY2(anyFindingContains(verdict, "gap: missed ADDED rv 3"), joined(verdict).c_str());
}

void TestWatchGuaranteesChecker::testInventedEventFails()
{
    auto stream = correctStream();
    stream.push_back(delivery("MODIFIED", "9", kFoo));
    Verdict verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY2(anyFindingContains(verdict, "not in the commit log"), joined(verdict).c_str());

    // ... unless a write to that key has an unknown outcome.
    auto ops = commitLog();
    ops.push_back(record(7, "c", "update", 100, -1, 0, "", "", nullptr, kFoo));
    verdict = WatchGuaranteesChecker().check(ops, stream);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
}

void TestWatchGuaranteesChecker::testWrongEventTypeFails()
{
    auto stream = correctStream();
    stream[3].eventType = "MODIFIED";
    const Verdict verdict = WatchGuaranteesChecker().check(commitLog(), stream);
    QVERIFY2(anyFindingContains(verdict, "but the commit at that rv is DELETED"), joined(verdict).c_str());
}

void TestWatchGuaranteesChecker::testStreamWithoutWatchOperationChecksOrderOnly()
{
    std::vector<WatchDelivery> stream{WatchDelivery{"anon", 0, "ADDED", "3", kBar, 0},
                                      WatchDelivery{"anon", 0, "DELETED", "6", kBar, 0}};
    QVERIFY(WatchGuaranteesChecker().check(commitLog(), stream).passed());
    stream.push_back(WatchDelivery{"anon", 0, "MODIFIED", "5", kFoo, 0});
    QVERIFY(WatchGuaranteesChecker().check(commitLog(), stream).failed());
}

void TestWatchGuaranteesChecker::testSeveralWatchersAreIndependent()
{
    History history;
    for (auto &op : commitLog())
        history.append(op);
    history.append(record(101, "w", "watch", 15, -1, 0, "3", "", nullptr, "/registry/configmaps/default/foo"));
    for (auto &d : correctStream())
        history.append(d);
    history.append(WatchDelivery{"w2", 101, "MODIFIED", "5", kFoo, 0});
    Verdict verdict = WatchGuaranteesChecker().check(history);
    QVERIFY2(verdict.passed(), joined(verdict).c_str());
    QVERIFY2(verdict.summary.find("2 watch streams") != std::string::npos, verdict.summary.c_str());

    history.append(WatchDelivery{"w2", 101, "MODIFIED", "4", kSecret, 0});
    verdict = WatchGuaranteesChecker().check(history);
    QVERIFY(verdict.failed());
    for (const std::string &finding : verdict.findings)
        QVERIFY2(finding.rfind("watcher w2: ", 0) == 0, finding.c_str());
}

void TestWatchGuaranteesChecker::testLargeGeneratedStreamPasses()
{
    auto ops = simulateCasCounter(64, 1500, 5);
    ops.push_back(record(500000, "watcher", "watch", 0, -1, 0, "1", "", nullptr, "/registry/configmaps/"));
    std::vector<WatchDelivery> stream;
    std::vector<std::pair<std::int64_t, std::string>> commits;
    for (const OperationRecord &op : ops)
        if (op.verb == "update" && op.succeeded())
            commits.emplace_back(std::stoll(op.resourceVersionProduced), op.key);
    std::sort(commits.begin(), commits.end());
    for (const auto &[rv, key] : commits)
        stream.push_back(WatchDelivery{"big", 500000, "MODIFIED", std::to_string(rv), key, 0});
    QElapsedTimer timer;
    timer.start();
    Verdict verdict = WatchGuaranteesChecker().check(ops, stream);
    qInfo("watch check of %zu deliveries: %lld ms", stream.size(), static_cast<long long>(timer.elapsed()));
    QVERIFY2(verdict.passed(), joined(verdict).c_str());

    stream.erase(stream.begin() + static_cast<std::ptrdiff_t>(stream.size() / 2));
    verdict = WatchGuaranteesChecker().check(ops, stream);
    QVERIFY(verdict.failed());
    QCOMPARE(verdict.findings.size(), std::size_t(1));
}

void TestWatchGuaranteesChecker::testNoDeliveriesHasNothingToCheck()
{
    const Verdict verdict = WatchGuaranteesChecker().check(commitLog(), {});
    QCOMPARE(verdict.outcome, Verdict::Outcome::NoHistory);
    QVERIFY2(verdict.summary == "no history: no watch delivery was recorded", verdict.summary.c_str());
}

void TestWatchGuaranteesChecker::testTruncatedHistoryIsCheckedAsFarAsItGoes()
{
    std::vector<OperationRecord> ops;
    std::vector<WatchDelivery> deliveries;
    watchedCounter(ops, deliveries);
    QVERIFY(WatchGuaranteesChecker().check(ops, deliveries).passed());
    // Operations dropped, deliveries all kept; both dropped; deliveries dropped first.
    int strictFailures = 0;
    for (std::size_t capacity : {ops.size() / 2, deliveries.size() / 2, deliveries.size() / 5, ops.size() / 10}) {
        const History kept = boundedJournal(ops, deliveries, capacity);
        QVERIFY(kept.droppedOperations() > 0 || kept.droppedWatchDeliveries() > 0);
        const Verdict verdict = WatchGuaranteesChecker().check(kept);
        QVERIFY2(verdict.passed(), (std::to_string(capacity) + ": " + joined(verdict)).c_str());
        QVERIFY2(verdict.summary.find(": checked what it kept;") != std::string::npos, verdict.summary.c_str());
        strictFailures += WatchGuaranteesChecker()
                              .check({kept.operations().begin(), kept.operations().end()},
                                     {kept.watchDeliveries().begin(), kept.watchDeliveries().end()})
                              .failed();
    }
    qInfo("without the window, %d of 4 truncated histories broke watch guarantees", strictFailures);

    // What the journal kept is still checked: a gap and a duplicate late in the stream whose
    // watch operation the journal kept, and an invented event in the other one.
    const std::size_t capacity = ops.size() * 2 / 3;
    const History kept = boundedJournal(ops, deliveries, capacity);
    QVERIFY(std::any_of(kept.operations().begin(), kept.operations().end(), [](const OperationRecord &op) { return op.id == 900002; }));
    std::vector<WatchDelivery> late;
    for (const WatchDelivery &d : kept.watchDeliveries())
        if (d.watcherId == "late")
            late.push_back(d);
    const WatchDelivery missing = late[late.size() - 10];
    auto gap = deliveries;
    gap.erase(std::find_if(gap.begin(), gap.end(), [&](const WatchDelivery &d) {
        return d.watcherId == "late" && d.resourceVersion == missing.resourceVersion;
    }));
    Verdict verdict = WatchGuaranteesChecker().check(boundedJournal(ops, gap, capacity));
    QVERIFY2(anyFindingContains(verdict, "watcher late: gap: missed MODIFIED rv " + missing.resourceVersion), joined(verdict).c_str());
    auto twice = deliveries;
    twice.push_back(WatchDelivery{"late", 900002, "MODIFIED", missing.resourceVersion, missing.key, 999'999'999});
    verdict = WatchGuaranteesChecker().check(boundedJournal(ops, twice, capacity));
    QVERIFY2(anyFindingContains(verdict, "watcher late: duplicate MODIFIED rv " + missing.resourceVersion), joined(verdict).c_str());
    auto invented = deliveries;
    invented.push_back(WatchDelivery{"early", 900001, "MODIFIED", "99999", missing.key, 999'999'999});
    verdict = WatchGuaranteesChecker().check(boundedJournal(ops, invented, capacity));
    QVERIFY2(anyFindingContains(verdict, "delivered MODIFIED rv 99999 (configmaps/default/hot) which is not in the commit log"),
             joined(verdict).c_str());
}

QTEST_GUILESS_MAIN(TestWatchGuaranteesChecker)
#include "TestWatchGuaranteesChecker.moc"
