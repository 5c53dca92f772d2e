// SPDX-License-Identifier: MIT
// The Objects panel against a real Engine: the lost-update scenario's ConfigMap, its
// revisions, its JSON at a revision and the diff between two; the tree model and the
// revision model under QAbstractItemModelTester; the line diff.
#include <QtCore/QDir>
#include <QtGui/QTextBlock>
#include <QtGui/QTextDocument>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLayout>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTextEdit>
#include <QtWidgets/QTreeView>

#include "engine/Engine.h"
#include "objects/LineDiff.h"
#include "objects/ObjectRevisionModel.h"
#include "objects/ObjectTreeModel.h"
#include "objects/ObjectsPanel.h"

using rvscope::engine::Engine;
using rvscope::engine::OperationBatch;
using rvscope::engine::OperationSummary;
using rvscope::ui::ObjectRevisionModel;
using rvscope::ui::ObjectsPanel;
using rvscope::ui::ObjectTreeModel;
namespace LineDiff = rvscope::ui::LineDiff;

class TestObjectsPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testLineDiff();
    void testTreeByResourceNamespaceName();
    void testRevisionModelAppendsOrResets();
    void testLostUpdateRevisionsJsonAndDiff();
    void testHistoryResetForgetsObjects();
    void testNamesGetTheRoomOfANarrowDock();
    void testRevisionsAreBoundedCheaply();
};

namespace {
constexpr auto FAIL_IN_QTEST = QAbstractItemModelTester::FailureReportingMode::QtTest;
const QString FOO = QStringLiteral("configmaps/default/foo");

template<typename T>
T *child(QWidget &parent, const char *name)
{
    auto *widget = parent.findChild<T *>(QLatin1String(name));
    if (!widget)
        qWarning("no child %s", name);
    return widget;
}

QString artifactPath(const QString &name)
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

quint64 nextId = 1;

OperationSummary op(const QString &verb, const QString &key, qint64 rvProduced, int status = 200)
{
    OperationSummary summary;
    summary.id = nextId++;
    summary.clientId = "c1";
    summary.verb = verb;
    summary.key = key;
    summary.rvProduced = rvProduced;
    summary.startNs = 1;
    summary.endNs = 2;
    summary.statusCode = status;
    return summary;
}

// Whether the text has a line starting with `prefix` that contains `text`.
bool hasLine(const QString &document, const QString &prefix, const QString &text)
{
    const QStringList lines = document.split('\n');
    return std::any_of(lines.begin(), lines.end(),
                       [&](const QString &line) { return line.startsWith(prefix) && line.contains(text); });
}

void clickRow(QAbstractItemView *view, const QModelIndex &index, Qt::KeyboardModifiers modifiers = {})
{
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, modifiers, view->visualRect(index).center());
}
} // namespace

void TestObjectsPanel::testLineDiff()
{
    using LineDiff::Change;
    const QList<LineDiff::Line> lines = LineDiff::diff({"{", "  a: 1", "  b: 2", "  c: 3", "}"},
                                                       {"{", "  a: 1", "  b: 5", "  c: 3", "  d: 4", "}"});
    const QList<LineDiff::Line> expected = {{Change::Same, "{"},     {Change::Same, "  a: 1"},   {Change::Removed, "  b: 2"},
                                            {Change::Added, "  b: 5"}, {Change::Same, "  c: 3"}, {Change::Added, "  d: 4"},
                                            {Change::Same, "}"}};
    QCOMPARE(lines, expected);
    QCOMPARE(LineDiff::diff({"x"}, {"x"}), (QList<LineDiff::Line>{{Change::Same, "x"}}));
    QCOMPARE(LineDiff::diff({}, {"y"}), (QList<LineDiff::Line>{{Change::Added, "y"}}));
    QCOMPARE(LineDiff::diff({"y"}, {}), (QList<LineDiff::Line>{{Change::Removed, "y"}}));
    // Moved lines: the common subsequence is kept, the rest removed then added.
    const auto moved = LineDiff::diff({"a", "b", "c"}, {"c", "a", "b"});
    QCOMPARE(moved.size(), 4);
    QCOMPARE(std::count_if(moved.begin(), moved.end(), [](const auto &l) { return l.change == Change::Same; }), 2);
}

void TestObjectsPanel::testTreeByResourceNamespaceName()
{
    ObjectTreeModel model;
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    QSignalSpy updated(&model, &ObjectTreeModel::objectsUpdated);
    model.append({op("create", "configmaps/default/b", 10, 201), op("create", "configmaps/default/a", 11, 201),
                  op("create", "configmaps/kube-system/c", 12, 201), op("create", "namespaces/team", 13, 201),
                  op("list", "configmaps/default", 13), op("watch", "configmaps", 13),
                  op("update", "configmaps/default/a", 11, 409), op("get", "configmaps/default/missing", 0, 404)});
    QCOMPARE(model.rowCount(), 2); // configmaps, namespaces
    const QModelIndex configmaps = model.index(0, 0);
    QCOMPARE(configmaps.data().toString(), QStringLiteral("configmaps"));
    QCOMPARE(model.rowCount(configmaps), 2); // default, kube-system
    const QModelIndex defaults = model.index(0, 0, configmaps);
    QCOMPARE(defaults.data().toString(), QStringLiteral("default"));
    QCOMPARE(model.rowCount(defaults), 2);
    QCOMPARE(model.index(0, 0, defaults).data().toString(), QStringLiteral("a")); // sorted by name
    QCOMPARE(model.index(0, ObjectTreeModel::ResourceVersionColumn, defaults).data().toLongLong(), 11);
    const QModelIndex team = model.indexOf("namespaces/team");
    QVERIFY(team.isValid());
    QCOMPARE(team.parent(), model.index(1, 0));
    QCOMPARE(model.keyOf(team), QStringLiteral("namespaces/team"));
    QCOMPARE(model.objectCount(), 4);
    QCOMPARE(updated.size(), 1);
    QCOMPARE(updated.first().at(0).toStringList().size(), 4);

    model.append({op("update", "configmaps/default/a", 14), op("patch", "configmaps/default/a", 15),
                  op("get", "configmaps/default/a", 15), op("delete", "configmaps/default/b", 16)});
    const auto revisions = model.revisions("configmaps/default/a");
    QCOMPARE(revisions.size(), std::size_t(3));
    QCOMPARE(revisions.back().resourceVersion, 15);
    QCOMPARE(revisions.back().verb, QStringLiteral("patch"));
    const QModelIndex b = model.indexOf("configmaps/default/b");
    QVERIFY(b.data(ObjectTreeModel::DeletedRole).toBool());
    QVERIFY(b.data(Qt::ForegroundRole).value<QColor>().isValid());
    QCOMPARE(model.index(b.row(), ObjectTreeModel::ResourceVersionColumn, b.parent()).data().toLongLong(), 16);
    QVERIFY(!model.indexOf("configmaps/default/a").data(ObjectTreeModel::DeletedRole).toBool());
    // Re-created: no longer greyed.
    model.append({op("create", "configmaps/default/b", 17, 201)});
    QVERIFY(!model.indexOf("configmaps/default/b").data(ObjectTreeModel::DeletedRole).toBool());
    // A get reveals a revision no journaled write produced (an object older than the history).
    model.append({op("get", "namespaces/default", 3)});
    QCOMPARE(model.revisions("namespaces/default").size(), std::size_t(1));
    QCOMPARE(model.revisions("namespaces/default").front().verb, QStringLiteral("get"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.objectCount(), 0);
}

void TestObjectsPanel::testRevisionModelAppendsOrResets()
{
    ObjectRevisionModel model;
    QAbstractItemModelTester tester(&model, FAIL_IN_QTEST);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    using rvscope::ui::ObjectRevision;
    model.setObject("k", {ObjectRevision{1, "create", "c", 1}});
    QCOMPARE(reset.size(), 1);
    model.setObject("k", {ObjectRevision{1, "create", "c", 1}, ObjectRevision{4, "update", "c", 2}});
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.rowOf(4), 1);
    // A revision inserted before the newest one: reset.
    model.setObject("k", {ObjectRevision{1, "create", "c", 1}, ObjectRevision{3, "update", "c", 3},
                          ObjectRevision{4, "update", "c", 2}});
    QCOMPARE(reset.size(), 2);
    QCOMPARE(model.index(1, ObjectRevisionModel::ResourceVersionColumn).data().toLongLong(), 3);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestObjectsPanel::testLostUpdateRevisionsJsonAndDiff()
{
    Engine engine;
    ObjectsPanel panel(engine);
    panel.resize(1100, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QAbstractItemModelTester treeTester(panel.objectModel(), FAIL_IN_QTEST);
    QAbstractItemModelTester revisionTester(panel.revisionModel(), FAIL_IN_QTEST);

    engine.loadScenario("lost-update");
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(engine.scenarioState().finished);
    // The create, then Client #1's update, and the two unconditional updates; not the 409.
    QTRY_COMPARE(panel.objectModel()->revisions(FOO).size(), std::size_t(4));
    const auto revisions = panel.objectModel()->revisions(FOO);
    QCOMPARE(revisions.front().verb, QStringLiteral("create"));

    auto *tree = child<QTreeView>(panel, "objectTree");
    const QModelIndex foo = panel.objectModel()->indexOf(FOO);
    QVERIFY(foo.isValid());
    QVERIFY(tree->isExpanded(foo.parent())); // groups open on their first objects
    QCOMPARE(panel.objectModel()->index(foo.row(), ObjectTreeModel::ResourceVersionColumn, foo.parent()).data().toLongLong(),
             revisions.back().resourceVersion);
    clickRow(tree, foo);
    QCOMPARE(panel.selectedObject(), FOO);
    QCOMPARE(panel.revisionModel()->rowCount(), 4);

    // The newest revision is selected and shown as JSON.
    auto *text = child<QTextEdit>(panel, "objectTextView");
    auto *title = child<QLabel>(panel, "objectTextTitle");
    QTRY_VERIFY(text->toPlainText().contains("\"size\": \"large\""));
    QCOMPARE(title->text(), QStringLiteral("%1 at rv %2").arg(FOO).arg(revisions.back().resourceVersion));

    // Compare with the create: counter 0 became 2.
    auto *compare = child<QComboBox>(panel, "compareCombo");
    QCOMPARE(compare->currentIndex(), -1);
    compare->setCurrentIndex(0);
    QTRY_VERIFY(hasLine(text->toPlainText(), "+ ", "\"counter\": \"2\""));
    QVERIFY(hasLine(text->toPlainText(), "- ", "\"counter\": \"0\""));
    QVERIFY(hasLine(text->toPlainText(), "+ ", "\"size\": \"large\""));
    QVERIFY(hasLine(text->toPlainText(), "  ", "\"name\": \"foo\""));
    QVERIFY(title->text().contains(QStringLiteral("rv %1 → rv %2").arg(revisions.front().resourceVersion)
                                       .arg(revisions.back().resourceVersion)));
    QVERIFY(panel.grab().toImage().save(artifactPath("objects-panel-compare.png")));

    // Two selected rows: Client #1's guarded write (blue) against its blind one (green).
    compare->setCurrentIndex(-1);
    auto *revisionView = child<QTableView>(panel, "revisionView");
    clickRow(revisionView, panel.revisionModel()->index(1, 0));
    clickRow(revisionView, panel.revisionModel()->index(2, 0), Qt::ControlModifier);
    QCOMPARE(revisionView->selectionModel()->selectedRows().size(), 2);
    QTRY_VERIFY(hasLine(text->toPlainText(), "- ", "\"color\": \"blue\""));
    QVERIFY(hasLine(text->toPlainText(), "+ ", "\"color\": \"green\""));
    QVERIFY(hasLine(text->toPlainText(), "- ", "\"counter\": \"1\""));
    QVERIFY(hasLine(text->toPlainText(), "+ ", "\"counter\": \"2\""));
    // The added line is painted green, the removed one red.
    bool green = false;
    bool red = false;
    for (QTextBlock block = text->document()->begin(); block.isValid(); block = block.next()) {
        const QColor background = block.blockFormat().background().color();
        if (block.text().startsWith("+ "))
            green = green || (background.green() > background.red());
        if (block.text().startsWith("- "))
            red = red || (background.red() > background.green());
    }
    QVERIFY(green && red);
    QVERIFY(panel.grab().toImage().save(artifactPath("objects-panel-diff.png")));

    // Narrow (a left dock): the parts stack.
    QCOMPARE(panel.findChild<QSplitter *>()->orientation(), Qt::Horizontal);
    panel.resize(280, 700);
    QTRY_COMPARE(panel.findChild<QSplitter *>()->orientation(), Qt::Vertical);
    // Stacked, the panel fits a 280 px dock (side by side it could not shrink that far).
    QVERIFY2(panel.minimumSizeHint().width() <= 280, qPrintable(QString::number(panel.minimumSizeHint().width())));
    panel.layout()->activate(); // a top-level window takes its layout's minimum size on activation
    panel.resize(280, 700);
    QTRY_COMPARE(panel.width(), 280);
    QVERIFY(panel.grab().toImage().save(artifactPath("objects-panel-narrow.png")));
}

void TestObjectsPanel::testHistoryResetForgetsObjects()
{
    Engine engine;
    ObjectsPanel panel(engine);
    QAbstractItemModelTester treeTester(panel.objectModel(), FAIL_IN_QTEST);
    engine.loadScenario("lost-update");
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(panel.objectModel()->indexOf(FOO).isValid());
    panel.selectObject(FOO);
    QCOMPARE(panel.selectedObject(), FOO);
    QVERIFY(panel.revisionModel()->rowCount() > 0);
    engine.clearHistory();
    QTRY_COMPARE(panel.objectModel()->rowCount(), 0);
    QCOMPARE(panel.revisionModel()->rowCount(), 0);
    QCOMPARE(panel.selectedObject(), QString());
}

void TestObjectsPanel::testNamesGetTheRoomOfANarrowDock()
{
    Engine engine;
    ObjectsPanel panel(engine);
    QAbstractItemModelTester treeTester(panel.objectModel(), FAIL_IN_QTEST);
    const QString longKey = QStringLiteral("configmaps/default/leader-election-of-the-replication-controller");
    OperationBatch batch;
    quint64 id = 0;
    for (const QString &key : {FOO, longKey}) {
        OperationSummary create;
        create.id = ++id;
        create.clientId = "c1";
        create.verb = "create";
        create.key = key;
        create.statusCode = 201;
        create.rvProduced = 123450 + qint64(id);
        create.endNs = 1;
        batch << create;
    }
    panel.objectModel()->append(batch);
    panel.resize(280, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.layout()->activate();
    panel.resize(280, 700);
    QTRY_COMPARE(panel.width(), 280);

    auto *tree = child<QTreeView>(panel, "objectTree");
    QHeaderView *header = tree->header();
    const QFontMetrics metrics = tree->fontMetrics();
    const int viewport = tree->viewport()->width();
    // The numbers take what their digits need, the name the rest: most of the width.
    QTRY_VERIFY(header->sectionSize(ObjectTreeModel::ResourceVersionColumn) >= metrics.horizontalAdvance("123452"));
    QVERIFY(header->sectionSize(ObjectTreeModel::ResourceVersionColumn) < metrics.horizontalAdvance("123452") * 2);
    QVERIFY(header->sectionSize(ObjectTreeModel::RevisionsColumn) < metrics.horizontalAdvance("Revisions") + 16);
    const int name = header->sectionSize(ObjectTreeModel::NameColumn);
    QVERIFY2(name >= viewport * 6 / 10, qPrintable(QStringLiteral("%1 of %2").arg(name).arg(viewport)));
    QCOMPARE(name + header->sectionSize(ObjectTreeModel::ResourceVersionColumn)
                 + header->sectionSize(ObjectTreeModel::RevisionsColumn),
             viewport);
    QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
    // An elided name is whole in its tooltip, on every level.
    const QModelIndex longIndex = panel.objectModel()->indexOf(longKey);
    QVERIFY(metrics.horizontalAdvance(longIndex.data().toString()) > name);
    QVERIFY(longIndex.data(Qt::ToolTipRole).toString().startsWith(longKey));
    const QModelIndex configmaps = panel.objectModel()->index(0, 0);
    QCOMPARE(configmaps.data(Qt::ToolTipRole).toString(), QStringLiteral("configmaps\n2 objects"));
    QVERIFY(panel.objectModel()->headerData(ObjectTreeModel::RevisionsColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains("Revisions"));
    // Objects arrived: the text no longer says there are none.
    QCOMPARE(child<QTextEdit>(panel, "objectTextView")->toPlainText(), QStringLiteral("Select an object to see its revisions."));
    QVERIFY(panel.grab().toImage().save(artifactPath("objects-panel-narrow-names.png")));
}

void TestObjectsPanel::testRevisionsAreBoundedCheaply()
{
    // A hot key keeps at most MAX_REVISIONS: past it the oldest tenth goes at once (one
    // removal per write moved the whole list on every write, a 50+ ms GUI stall).
    ObjectTreeModel model;
    constexpr qint64 max = qint64(ObjectTreeModel::MAX_REVISIONS);
    OperationBatch batch;
    for (qint64 rv = 1; rv <= max + 1; ++rv)
        batch.append(op("update", "configmaps/default/hot", rv));
    model.append(batch);
    const auto revisions = model.revisions("configmaps/default/hot");
    QCOMPARE(qint64(revisions.size()), max + 1 - max / 10);
    QCOMPARE(revisions.front().resourceVersion, max / 10 + 1);
    QCOMPARE(revisions.back().resourceVersion, max + 1);
    QVERIFY(std::is_sorted(revisions.begin(), revisions.end(),
                           [](const auto &a, const auto &b) { return a.resourceVersion < b.resourceVersion; }));
}

QTEST_MAIN(TestObjectsPanel)
#include "TestObjectsPanel.moc"
