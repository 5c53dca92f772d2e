// SPDX-License-Identifier: MIT
// The Conflicts panel against a real Engine: the lost-update scenario's 409, its three-way
// view and CSV export; the model under QAbstractItemModelTester.
#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QTableView>

#include "TimelineFixtures.h"
#include "conflicts/ConflictDiffView.h"
#include "conflicts/ConflictTableModel.h"
#include "conflicts/ConflictsPanel.h"
#include "engine/Engine.h"
#include "inspector/InspectorPanel.h"

using rvscope::engine::Engine;
using rvscope::engine::OperationBatch;
using rvscope::testing::MS;
using rvscope::testing::OperationBuilder;
using rvscope::ui::ConflictsPanel;
using rvscope::ui::ConflictTableModel;
using Column = rvscope::ui::ConflictTableModel::Column;

class TestConflictsPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testLostUpdateConflictShowsTheThreeWayView();
    void testSelectOperationFromElsewhere();
    void testExportCsv();
    void testRvCurrentIsTheNewestRevisionBeforeTheConflict();
    void testCapacityDropsTheOldestRows();
    void testDiffViewShowsAFalseConflict();
    void testOwnershipConflictsNameFieldsAndManagers();
    void testInjectedConflictsAreNamedAndCanBeHidden();
};

namespace {
QString artifactPath(const QString &name)
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

QString cell(const QAbstractItemModel &model, int row, Column column)
{
    return model.index(row, int(column)).data().toString();
}

QString paneText(QWidget &panel, const char *name)
{
    auto *pane = panel.findChild<QPlainTextEdit *>(QLatin1String(name));
    return pane ? pane->toPlainText() : QString();
}

void playLostUpdate(Engine &engine)
{
    engine.loadScenario("lost-update");
    engine.setScenarioSpeed(0);
    engine.playScenario();
}
} // namespace

void TestConflictsPanel::testLostUpdateConflictShowsTheThreeWayView()
{
    Engine engine;
    ConflictsPanel panel(engine);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.resize(1000, 560);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    QSignalSpy verdicts(&engine, &Engine::verdictsReady); // the scenario's end
    playLostUpdate(engine);
    QVERIFY(verdicts.wait(10000));
    ConflictTableModel &model = *panel.model();
    QTRY_COMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Client), QStringLiteral("Client #2"));
    QCOMPARE(cell(model, 0, Column::Object), QStringLiteral("configmaps/default/foo"));
    QCOMPARE(cell(model, 0, Column::Reason), QStringLiteral("Conflict"));
    const qint64 sent = model.conflict(0).rvSent;
    QVERIFY(sent > 0);
    QCOMPARE(model.conflict(0).rvCurrent, sent + 1); // Client #1's write, one revision later
    QVERIFY(cell(model, 0, Column::Overlap).isEmpty()); // not inspected yet

    auto *table = panel.findChild<QTableView *>("conflictTable");
    QVERIFY(table);
    QSignalSpy selected(&panel, &ConflictsPanel::operationSelected);
    const QRect rowRect = table->visualRect(table->model()->index(0, int(Column::Object)));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rowRect.center());
    QCOMPARE(selected.count(), 1);
    const quint64 id = selected.first().at(0).toULongLong();
    QCOMPARE(id, model.conflict(0).id);
    QCOMPARE(panel.selectedOperation(), id);

    QTRY_VERIFY(paneText(panel, "triedPane").contains("size"));
    QTRY_VERIFY(paneText(panel, "livePane").contains("blue"));
    QVERIFY(!paneText(panel, "readPane").contains("blue"));
    QVERIFY(paneText(panel, "readPane").contains("\"counter\": \"0\""));
    // Both writes incremented data.counter: a real conflict, not a false one.
    const QString overlap = panel.diffView()->overlapText();
    QVERIFY2(overlap.startsWith("Real conflict: both changed data.counter"), qPrintable(overlap));
    QVERIFY(overlap.contains("data.size"));
    QVERIFY(overlap.contains("data.color"));
    QCOMPARE(cell(model, 0, Column::Overlap), QStringLiteral("data.counter"));

    const QImage image = panel.grab().toImage();
    QVERIFY(image.save(artifactPath("conflicts-panel.png")));

    // A new run starts from a fresh journal: the panel forgets everything.
    QSignalSpy reset(&engine, &Engine::historyReset);
    engine.restartScenario();
    QVERIFY(reset.wait(5000));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(paneText(panel, "triedPane").isEmpty());
}

void TestConflictsPanel::testOwnershipConflictsNameFieldsAndManagers()
{
    // The field-ownership scenario through a real Engine: three ownership 409s and one stale
    // resourceVersion, told apart in the table before any row is inspected.
    Engine engine;
    ConflictsPanel panel(engine);
    panel.resize(1100, 560);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    engine.loadScenario("field-ownership");
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QVERIFY(verdicts.wait(10000));
    ConflictTableModel &model = *panel.model();
    QTRY_COMPARE(model.rowCount(), 4);
    const QStringList reasons = {cell(model, 0, Column::Reason), cell(model, 1, Column::Reason),
                                 cell(model, 2, Column::Reason), cell(model, 3, Column::Reason)};
    QCOMPARE(reasons, (QStringList{"FieldManagerConflict", "FieldManagerConflict", "FieldManagerConflict", "Conflict"}));
    QCOMPARE(cell(model, 0, Column::Client), QStringLiteral("controller-b"));
    QCOMPARE(cell(model, 0, Column::Overlap), QStringLiteral("\"controller-a\": .data.owner"));
    QCOMPARE(cell(model, 1, Column::Overlap), QStringLiteral("\"controller-b\": .data.owner"));
    QCOMPARE(cell(model, 2, Column::Overlap), QStringLiteral("\"controller-a\": .data.theme"));
    QVERIFY(cell(model, 3, Column::Overlap).isEmpty()); // a stale version: known once inspected
    QVERIFY(model.index(0, int(Column::Reason)).data(Qt::ToolTipRole).toString().contains(
        "Apply failed with 1 conflict: conflict with \"controller-a\": .data.owner"));

    auto *table = panel.findChild<QTableView *>("conflictTable");
    QVERIFY(table);
    const QRect rowRect = table->visualRect(table->model()->index(0, int(Column::Object)));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rowRect.center());
    QTRY_VERIFY(panel.diffView()->overlapText().startsWith("Field ownership conflict"));
    const QString sentence = panel.diffView()->overlapText();
    QVERIFY2(sentence.contains(".data.owner, which \"controller-a\" manages"), qPrintable(sentence));
    QVERIFY(sentence.contains("force"));
    QCOMPARE(cell(model, 0, Column::Overlap), QStringLiteral("\"controller-a\": .data.owner"));

    // The inspector names the cause too, instead of calling the write stale.
    rvscope::ui::InspectorPanel inspector(engine);
    inspector.showOperation(model.conflict(0).id);
    QTRY_VERIFY(inspector.summaryText().contains("field ownership, not a stale resourceVersion"));
    QVERIFY(inspector.summaryText().contains("(server-side apply)"));
    QVERIFY(!inspector.summaryText().contains("stale: the live object"));
    inspector.showOperation(model.conflict(3).id);
    QTRY_VERIFY(inspector.summaryText().contains("stale: the live object was at resourceVersion"));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // the sentence's second line
    QVERIFY(panel.grab().toImage().save(artifactPath("conflicts-ownership.png")));
}

void TestConflictsPanel::testSelectOperationFromElsewhere()
{
    Engine engine;
    ConflictsPanel panel(engine);
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    playLostUpdate(engine);
    QVERIFY(verdicts.wait(10000));
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QSignalSpy selected(&panel, &ConflictsPanel::operationSelected);
    const quint64 id = panel.model()->conflict(0).id;
    QVERIFY(!panel.selectOperation(id - 1)); // not a 409
    QVERIFY(panel.selectOperation(id));
    QCOMPARE(panel.selectedOperation(), id);
    QTRY_VERIFY(paneText(panel, "livePane").contains("blue"));
    QCOMPARE(selected.count(), 0); // chosen elsewhere: no echo
    // Details fetched by someone else (an inspector) are not shown here.
    engine.fetchOperation(1);
    QSignalSpy details(&engine, &Engine::operationDetailReady);
    QVERIFY(details.wait(5000));
    QCOMPARE(panel.diffView()->operationId(), id);
}

void TestConflictsPanel::testExportCsv()
{
    Engine engine;
    ConflictsPanel panel(engine);
    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    playLostUpdate(engine);
    QVERIFY(verdicts.wait(10000));
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QTemporaryDir dir;
    const QString path = dir.filePath("conflicts.csv");
    QVERIFY(panel.exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0], QByteArray("id,verb,Time,Client,Strategy,Object,RV sent,RV current,Reason,Overlap"));
    const QList<QByteArray> fields = lines[1].split(',');
    QCOMPARE(fields.size(), 10);
    QCOMPARE(fields[1], QByteArray("update"));
    QCOMPARE(fields[3], QByteArray("Client #2"));
    QCOMPARE(fields[5], QByteArray("configmaps/default/foo"));
    QCOMPARE(fields[6].toLongLong(), panel.model()->conflict(0).rvSent);
    QCOMPARE(fields[8], QByteArray("Conflict"));
    QVERIFY(!panel.exportCsv(dir.filePath("missing/dir/conflicts.csv")));
}

void TestConflictsPanel::testRvCurrentIsTheNewestRevisionBeforeTheConflict()
{
    ConflictTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    OperationBatch first;
    first << OperationBuilder(1, "a", "get").produced(10).at(0, 1 * MS);
    first << OperationBuilder(2, "b", "update").sent(10).produced(11).at(1 * MS, 2 * MS);
    first << OperationBuilder(3, "c", "update", "configmaps/default/bar").produced(12).at(1 * MS, 2 * MS);
    first << OperationBuilder(4, "a", "update").sent(10).status(409, "Conflict").at(1 * MS, 3 * MS).strategy("raw-put");
    model.appendOperations(first);
    OperationBatch second;
    second << OperationBuilder(5, "b", "update").sent(11).produced(13).at(3 * MS, 4 * MS);
    second << OperationBuilder(6, "b", "update").sent(13).status(500, "InternalError").at(4 * MS, 5 * MS);
    second << OperationBuilder(7, "a", "update").sent(11).status(409, "Conflict").at(3 * MS, 6 * MS);
    second << OperationBuilder(8, "c", "create", "configmaps/default/bar").status(409, "AlreadyExists").at(6 * MS, 7 * MS);
    model.appendOperations(second);

    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.conflict(0).rvCurrent, qint64(11)); // bar's rv 12 is another key
    QCOMPARE(model.conflict(1).rvCurrent, qint64(13));
    QCOMPARE(model.conflict(2).rvCurrent, qint64(12));
    QCOMPARE(cell(model, 2, Column::RvSent), QStringLiteral("—"));
    QCOMPARE(cell(model, 2, Column::Reason), QStringLiteral("AlreadyExists"));
    QCOMPARE(cell(model, 0, Column::Strategy), QStringLiteral("raw-put"));
    QCOMPARE(cell(model, 1, Column::Strategy), QStringLiteral("—"));
    QCOMPARE(cell(model, 0, Column::Time), QStringLiteral("3.000 ms"));
    QCOMPARE(model.rowOfOperation(7), 1);
    QCOMPARE(model.rowOfOperation(5), -1);
    QCOMPARE(model.index(1, 0).data(ConflictTableModel::OperationIdRole).toULongLong(), quint64(7));
}

void TestConflictsPanel::testCapacityDropsTheOldestRows()
{
    ConflictTableModel model(nullptr, 3);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    quint64 id = 0;
    for (int batch = 0; batch < 3; ++batch) {
        OperationBatch ops;
        for (int i = 0; i < 2; ++i) {
            ++id;
            ops << OperationBuilder(id, "a", "update").sent(1).status(409, "Conflict").at(0, qint64(id) * MS);
        }
        model.appendOperations(ops);
    }
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.conflict(0).id, quint64(4));
    QCOMPARE(model.rowOfOperation(3), -1);
    QCOMPARE(model.rowOfOperation(6), 2);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestConflictsPanel::testDiffViewShowsAFalseConflict()
{
    rvscope::ui::ConflictDiffView view;
    rvscope::engine::OperationDetail detail;
    detail.summary = OperationBuilder(9, "c2", "update").sent(41).status(409, "Conflict").strategy("raw-put");
    detail.readObject = R"({"kind":"ConfigMap","metadata":{"name":"foo","resourceVersion":"41"},"data":{"a":"1","b":"1"}})";
    detail.liveObject = R"({"kind":"ConfigMap","metadata":{"name":"foo","resourceVersion":"42"},"data":{"a":"2","b":"1"}})";
    detail.request = R"({"kind":"ConfigMap","metadata":{"name":"foo","resourceVersion":"41"},"data":{"a":"1","b":"2"}})";
    detail.liveResourceVersion = 42;
    view.showDetail(detail);
    QCOMPARE(view.operationId(), quint64(9));
    QVERIFY(view.overlap().falseConflict());
    QVERIFY(view.overlapText().startsWith("False conflict: optimistic locking rejects on version, not on fields."));
    // The changed lines are tinted: one in the live pane, one in the tried pane, none in the read.
    QCOMPARE(view.findChild<QPlainTextEdit *>("livePane")->extraSelections().size(), 1);
    QCOMPARE(view.findChild<QPlainTextEdit *>("triedPane")->extraSelections().size(), 1);
    QCOMPARE(view.findChild<QPlainTextEdit *>("readPane")->extraSelections().size(), 0);
    view.resize(900, 360);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.grab().toImage().save(artifactPath("conflicts-false-conflict.png")));

    view.showMessage("gone");
    QCOMPARE(view.operationId(), quint64(0));
    QVERIFY(view.findChild<QPlainTextEdit *>("livePane")->toPlainText().isEmpty());
}

void TestConflictsPanel::testInjectedConflictsAreNamedAndCanBeHidden()
{
    Engine engine;
    ConflictsPanel panel(engine);
    panel.show();
    OperationBatch batch;
    batch << OperationBuilder(1, QStringLiteral("a"), QStringLiteral("update")).sent(6).produced(7).at(0, 1 * MS);
    batch << OperationBuilder(2, QStringLiteral("b"), QStringLiteral("update"))
                 .sent(7)
                 .at(2 * MS, 3 * MS)
                 .status(409, QStringLiteral("Conflict"))
                 .injected(QStringLiteral("conflict"));
    batch << OperationBuilder(3, QStringLiteral("c"), QStringLiteral("update")).sent(6).at(4 * MS, 5 * MS).status(409, QStringLiteral("Conflict"));
    panel.model()->appendOperations(batch);
    QCOMPARE(panel.model()->rowCount(), 2);
    QCOMPARE(cell(*panel.model(), 0, Column::Reason), QStringLiteral("Conflict (injected)"));
    QCOMPARE(cell(*panel.model(), 0, Column::Overlap), QStringLiteral("injected by a fault rule"));
    QCOMPARE(cell(*panel.model(), 1, Column::Reason), QStringLiteral("Conflict"));
    auto *table = panel.findChild<QTableView *>(QStringLiteral("conflictTable"));
    auto *hide = panel.findChild<QCheckBox *>(QStringLiteral("hideInjected"));
    QVERIFY(table && hide);
    QCOMPARE(table->model()->rowCount(), 2);
    hide->setChecked(true);
    QCOMPARE(table->model()->rowCount(), 1); // only the server's own 409 is left
    QCOMPARE(table->model()->index(0, 0).data(ConflictTableModel::OperationIdRole).toULongLong(), quint64(3));
    hide->setChecked(false);
    QCOMPARE(table->model()->rowCount(), 2);
}

QTEST_MAIN(TestConflictsPanel)
#include "TestConflictsPanel.moc"
