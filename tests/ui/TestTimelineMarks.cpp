// SPDX-License-Identifier: MIT
// Marks that tell one kind of 409 from another on the timeline: a field ownership conflict,
// and a 409 a fault rule injected (UI.md "Timeline visual grammar").
#include <QtTest/QtTest>

#include "TimelineFixtures.h"
#include "timeline/TimelineView.h"

using rvscope::engine::OperationBatch;
using rvscope::testing::OperationBuilder;
using rvscope::ui::MarkerKind;
using rvscope::ui::TimelineView;

class TestTimelineMarks final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testOwnershipConflictHasItsOwnMark();
    void testInjectedConflictIsMarkedApart();
};

namespace {
void showView(TimelineView &view)
{
    view.resize(900, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
}
} // namespace

// A server-side apply refused for another manager's field (journal reason
// FieldManagerConflict) is not the stale-version square: its own mark and legend entry.
void TestTimelineMarks::testOwnershipConflictHasItsOwnMark()
{
    TimelineView view;
    showView(view);
    OperationBatch batch;
    batch << OperationBuilder(1, QStringLiteral("alice"), QStringLiteral("patch")).produced(7).at(0, 1 * rvscope::testing::MS);
    batch << OperationBuilder(2, QStringLiteral("bob"), QStringLiteral("patch"))
                 .at(2 * rvscope::testing::MS, 3 * rvscope::testing::MS)
                 .status(409, QStringLiteral("FieldManagerConflict"));
    view.appendOperations(batch);
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::OwnershipConflict), 1);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 0);
}

// A 409 a fault rule answered keeps the conflict's square and gets the injected outline and
// bolt on top, with its legend entry; the real one beside it does not.
void TestTimelineMarks::testInjectedConflictIsMarkedApart()
{
    TimelineView view;
    showView(view);
    OperationBatch batch;
    batch << OperationBuilder(1, QStringLiteral("alice"), QStringLiteral("update")).sent(6).produced(7).at(0, 1 * rvscope::testing::MS);
    batch << OperationBuilder(2, QStringLiteral("bob"), QStringLiteral("update"))
                 .sent(7)
                 .at(2 * rvscope::testing::MS, 3 * rvscope::testing::MS)
                 .status(409, QStringLiteral("Conflict"))
                 .injected(QStringLiteral("conflict"));
    batch << OperationBuilder(3, QStringLiteral("carol"), QStringLiteral("update"))
                 .sent(6)
                 .at(4 * rvscope::testing::MS, 5 * rvscope::testing::MS)
                 .status(409, QStringLiteral("Conflict"));
    view.appendOperations(batch);
    view.renderToImage(view.viewport()->size());
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Conflict), 2);
    QCOMPARE(view.visibleMarkerCount(MarkerKind::Injected), 1);
}

QTEST_MAIN(TestTimelineMarks)
#include "TestTimelineMarks.moc"
