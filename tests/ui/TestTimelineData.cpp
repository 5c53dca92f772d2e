// SPDX-License-Identifier: MIT
#include <QtTest/QtTest>

#include "TimelineFixtures.h"
#include "timeline/TimelineData.h"

using rvscope::engine::OperationBatch;
using rvscope::testing::MS;
using rvscope::testing::OperationBuilder;
using rvscope::ui::TimelineData;
using rvscope::ui::TimelineOperation;
using rvscope::ui::TimelineOutcome;

class TestTimelineData final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testLanesInOrderOfFirstAppearance();
    void testRevisionsCommittedAndSeen();
    void testConflictRecordsStaleAndCurrentRevision();
    void testBlindPutIsLostUpdate();
    void testRemoteWriteIsARevisionWithoutClientLane();
    void testListCountsAsRead();
    void testNoLostUpdateWhenLatestWasSeen();
    void testNoLostUpdateOverOwnRevisions();
    void testBlindPatchIsLostUpdate();
    void testNoopCasRetriesAndErrors();
    void testPendingOperation();
    void testLookupAndClear();
    void testLateCommitReplacesSeenRevision();
    void testClusterScopedLaneLabels();
};

namespace {
const TimelineOperation &opById(const TimelineData &data, quint64 id)
{
    const int index = data.indexOf(id);
    Q_ASSERT(index >= 0);
    return data.operation(index);
}
} // namespace

void TestTimelineData::testLanesInOrderOfFirstAppearance()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c2", "get", "/registry/configmaps/default/b").produced(5).at(0, 1);
    batch << OperationBuilder(2, "c1", "get", "configmaps/default/a").produced(6).at(1, 2);
    batch << OperationBuilder(3, "c1", "list", "configmaps/default").produced(6).at(2, 3);
    batch << OperationBuilder(4, "c2", "get", "configmaps/default/b").produced(5).at(3, 4).strategy("raw-put");
    data.append(batch);
    QCOMPARE(data.objectLanes().size(), std::size_t(2)); // a list's key is a prefix, not an object
    QCOMPARE(data.objectLanes()[0].name, QStringLiteral("configmaps/default/b"));
    QCOMPARE(data.objectLanes()[0].label, QStringLiteral("default/b"));
    QCOMPARE(data.objectLanes()[0].detail, QStringLiteral("configmaps"));
    QCOMPARE(data.objectLanes()[1].label, QStringLiteral("default/a"));
    QCOMPARE(data.clientLanes().size(), std::size_t(2));
    QCOMPARE(data.clientLanes()[0].name, QStringLiteral("c2"));
    QCOMPARE(data.clientLanes()[0].detail, QStringLiteral("raw-put"));
    QCOMPARE(data.clientLanes()[1].name, QStringLiteral("c1"));
    QCOMPARE(data.clientLanes()[1].byRv.size(), std::size_t(2));
    QCOMPARE(opById(data, 3).objectLane, -1);
    QCOMPARE(data.minRv(), 5);
    QCOMPARE(data.maxRv(), 6);
}

void TestTimelineData::testRevisionsCommittedAndSeen()
{
    TimelineData data;
    data.append(rvscope::testing::lostUpdateBatch(false));
    const auto &revisions = data.objectLanes()[0].revisions;
    QCOMPARE(revisions.size(), std::size_t(2));
    QCOMPARE(revisions[0].rv, 41);
    QCOMPARE(revisions[0].operation, -1); // only seen by the reads
    QCOMPARE(revisions[1].rv, 42);
    QCOMPARE(data.operation(revisions[1].operation).id, quint64(3));
    QCOMPARE(revisions[1].timeNs, 6 * MS);
}

void TestTimelineData::testConflictRecordsStaleAndCurrentRevision()
{
    TimelineData data;
    data.append(rvscope::testing::lostUpdateBatch(false));
    const TimelineOperation &conflict = opById(data, 4);
    QCOMPARE(conflict.outcome, TimelineOutcome::Conflict);
    QCOMPARE(conflict.rvSent, 41);
    QCOMPARE(conflict.rvCurrent, 42);
    QCOMPARE(conflict.rvPosition, 41); // the mark sits at the stale RV
    QCOMPARE(conflict.conflictLineRv(), 42);
    QVERIFY(!conflict.lostUpdate());
    QCOMPARE(data.conflictCount(), 1);
    QCOMPARE(data.lostUpdateCount(), 0);
    QCOMPARE(opById(data, 3).arrowTailRv(), 41); // c1's write: read 41, produced 42
}

void TestTimelineData::testBlindPutIsLostUpdate()
{
    TimelineData data;
    data.append(rvscope::testing::lostUpdateBatch(true));
    const TimelineOperation &blind = opById(data, 4);
    QCOMPARE(blind.outcome, TimelineOutcome::Success);
    QCOMPARE(blind.rvRead, 41);
    QCOMPARE(blind.rvLost, 42);
    QCOMPARE(data.text(blind.lostClientText), QStringLiteral("c1"));
    QCOMPARE(blind.arrowTailRv(), 41);
    QVERIFY(data.objectLanes()[0].revisions[1].overwrittenUnseen);
    QCOMPARE(data.lostUpdateCount(), 1);
    QCOMPARE(data.conflictCount(), 0);
}

// A write another instance made arrives by watch: a revision on the object's lane, no client
// lane, and it counts as another client's commit (a blind PUT over it is a lost update).
void TestTimelineData::testRemoteWriteIsARevisionWithoutClientLane()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "get").produced(41).at(0, 1);
    batch << OperationBuilder(2, "another instance", "update").produced(42).at(2, 2).remote();
    batch << OperationBuilder(3, "c1", "update").produced(43).at(3, 4);
    data.append(batch);
    QCOMPARE(int(data.clientLanes().size()), 1);
    QCOMPARE(data.remoteCount(), 1);
    const TimelineOperation &remote = opById(data, 2);
    QVERIFY(remote.remote);
    QCOMPARE(remote.clientLane, -1);
    QCOMPARE(remote.objectLane, 0);
    QCOMPARE(remote.arrowTailRv(), 0);
    const auto &revisions = data.objectLanes()[0].revisions;
    QCOMPARE(int(revisions.size()), 3);
    QCOMPARE(revisions[1].rv, 42);
    QCOMPARE(revisions[1].operation, data.indexOf(2));
    QVERIFY(revisions[1].overwrittenUnseen);
    const TimelineOperation &blind = opById(data, 3);
    QCOMPARE(blind.rvLost, 42);
    QCOMPARE(data.text(blind.lostClientText), QStringLiteral("another instance"));
}

void TestTimelineData::testListCountsAsRead()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "get").produced(41).at(0, 1);
    batch << OperationBuilder(2, "c1", "update").sent(41).produced(42).at(1, 2);
    batch << OperationBuilder(3, "c2", "list", "configmaps/default").produced(42).at(2, 3);
    batch << OperationBuilder(4, "c2", "update").produced(43).at(3, 4);
    data.append(batch);
    QCOMPARE(opById(data, 4).rvRead, 42);
    QVERIFY(!opById(data, 4).lostUpdate());

    // A list of another namespace does not count.
    TimelineData other;
    batch[2].key = "configmaps/default2";
    other.append(batch);
    QCOMPARE(opById(other, 4).rvLost, 42);
}

void TestTimelineData::testNoLostUpdateWhenLatestWasSeen()
{
    TimelineData data;
    OperationBatch batch = rvscope::testing::lostUpdateBatch(true);
    // c2 reads again after c1's write: its blind PUT overwrites nothing it has not seen.
    batch.insert(3, OperationBuilder(10, "c2", "get").produced(42).at(6 * MS, 7 * MS));
    data.append(batch);
    QVERIFY(!opById(data, 4).lostUpdate());
    QCOMPARE(opById(data, 4).rvRead, 42);
    QCOMPARE(data.lostUpdateCount(), 0);
}

void TestTimelineData::testNoLostUpdateOverOwnRevisions()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "update").produced(42).at(0, 1);
    batch << OperationBuilder(2, "c1", "update").produced(43).at(1, 2);
    batch << OperationBuilder(3, "c2", "update").sent(43).produced(44).at(2, 3); // conditional: never lost
    data.append(batch);
    QCOMPARE(data.lostUpdateCount(), 0);
    QCOMPARE(opById(data, 2).rvRead, 42);
}

void TestTimelineData::testBlindPatchIsLostUpdate()
{
    TimelineData data;
    OperationBatch batch = rvscope::testing::lostUpdateBatch(true);
    batch[3].verb = "patch";
    data.append(batch);
    QCOMPARE(opById(data, 4).rvLost, 42);
    // A server-side apply is none either: it changes only the fields its manager owns, and
    // another's only with force, after a 409 told it whose they were.
    TimelineData applied;
    batch[3].apply = true;
    applied.append(batch);
    QCOMPARE(applied.lostUpdateCount(), 0);
    QCOMPARE(opById(applied, 4).rvLost, 0);
    batch[3].apply = false;
    // A create is never a lost update (it cannot overwrite).
    TimelineData created;
    batch[3].verb = "create";
    created.append(batch);
    QCOMPARE(created.lostUpdateCount(), 0);
}

void TestTimelineData::testNoopCasRetriesAndErrors()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "update").produced(41).at(0, 1).noop();
    batch << OperationBuilder(2, "c1", "patch").produced(42).at(1, 2).casRetries(3);
    batch << OperationBuilder(3, "c1", "create").status(409, "AlreadyExists").at(2, 3);
    batch << OperationBuilder(4, "c1", "update").sent(42).status(422, "Invalid").at(3, 4);
    batch << OperationBuilder(5, "c1", "get", "configmaps/default/missing").status(404, "NotFound").at(4, 5);
    data.append(batch);
    QCOMPARE(opById(data, 1).outcome, TimelineOutcome::Noop);
    QCOMPARE(data.objectLanes()[0].revisions[0].operation, -1); // a no-op commits nothing
    QCOMPARE(opById(data, 2).casRetries, 3);
    QCOMPARE(opById(data, 2).outcome, TimelineOutcome::Success);
    QCOMPARE(opById(data, 3).outcome, TimelineOutcome::Error);
    QCOMPARE(opById(data, 3).rvPosition, 42); // no RV of its own: drawn at the key's current one
    QCOMPARE(opById(data, 4).outcome, TimelineOutcome::Error);
    QCOMPARE(opById(data, 4).rvPosition, 42);
    QCOMPARE(opById(data, 5).outcome, TimelineOutcome::Error);
    QCOMPARE(opById(data, 5).rvPosition, 42); // an unknown key: the latest revision anywhere
    QCOMPARE(data.conflictCount(), 0);
}

void TestTimelineData::testPendingOperation()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "get").produced(41).at(0, 10);
    batch << OperationBuilder(2, "c1", "update").sent(41).at(20, 0).pending();
    data.append(batch);
    QCOMPARE(opById(data, 2).outcome, TimelineOutcome::Pending);
    QCOMPARE(opById(data, 2).rvPosition, 41);
    QCOMPARE(data.maxNs(), 20);
    QCOMPARE(data.clientLanes()[0].byTime.back(), 1);
}

void TestTimelineData::testLookupAndClear()
{
    TimelineData data;
    data.append(rvscope::testing::lostUpdateBatch(false));
    QCOMPARE(data.operationCount(), 4);
    QCOMPARE(data.indexOf(3), 2);
    QCOMPARE(data.indexOf(99), -1);
    QCOMPARE(data.text(data.operation(0).keyText), QStringLiteral("configmaps/default/foo"));
    QCOMPARE(data.minNs(), 0);
    QCOMPARE(data.maxNs(), 8 * MS);
    data.clear();
    QVERIFY(data.empty());
    QCOMPARE(data.indexOf(3), -1);
    QVERIFY(data.objectLanes().empty());
    data.append(rvscope::testing::lostUpdateBatch(true));
    QCOMPARE(data.lostUpdateCount(), 1);
}

void TestTimelineData::testLateCommitReplacesSeenRevision()
{
    TimelineData data;
    OperationBatch batch;
    // A read of rv 44 completes before the write that committed it (completion order).
    batch << OperationBuilder(1, "c1", "get").produced(44).at(0, 5);
    batch << OperationBuilder(2, "c2", "update").sent(43).produced(44).at(1, 6);
    batch << OperationBuilder(3, "c2", "get").produced(43).at(2, 7);
    data.append(batch);
    const auto &revisions = data.objectLanes()[0].revisions;
    QCOMPARE(revisions.size(), std::size_t(2));
    QCOMPARE(revisions[0].rv, 43);
    QCOMPARE(revisions[1].rv, 44);
    QCOMPARE(revisions[1].operation, 1);
    // c2's lane stays sorted by the RV its marks reach.
    const auto &byRv = data.clientLanes()[1].byRv;
    QCOMPARE(byRv.size(), std::size_t(2));
    QVERIFY(data.operation(byRv[0]).rvHigh() <= data.operation(byRv[1]).rvHigh());
}

// A cluster-scoped object is named by its name, its resource under it, as namespaced ones.
void TestTimelineData::testClusterScopedLaneLabels()
{
    TimelineData data;
    OperationBatch batch;
    batch << OperationBuilder(1, "c1", "create", "storageclasses/fast").produced(7).at(0, 1);
    data.append(batch);
    QCOMPARE(data.objectLanes().size(), std::size_t(1));
    QCOMPARE(data.objectLanes()[0].label, QStringLiteral("fast"));
    QCOMPARE(data.objectLanes()[0].detail, QStringLiteral("storageclasses"));
}

QTEST_GUILESS_MAIN(TestTimelineData)
#include "TestTimelineData.moc"
