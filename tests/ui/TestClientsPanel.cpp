// SPDX-License-Identifier: MIT
// The Clients panel against a real Engine: the launch form, the per-client table and the
// workload status line; its model under QAbstractItemModelTester.
#include <QtCore/QDir>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableView>

#include "TimelineFixtures.h"
#include "clients/ClientTableModel.h"
#include "clients/ClientsPanel.h"
#include "engine/Engine.h"

using rvscope::engine::Engine;
using rvscope::engine::OperationBatch;
using rvscope::engine::WorkloadReport;
using rvscope::testing::ContentionRun;
using rvscope::testing::MS;
using rvscope::testing::OperationBuilder;
using rvscope::ui::ClientsPanel;
using rvscope::ui::ClientTableModel;
using Column = rvscope::ui::ClientTableModel::Column;

class TestClientsPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testFormOffersEveryStrategyWithATooltip();
    void testLaunchFromTheFormFillsOneRowPerClient();
    void testBadLaunchShowsTheError();
    void testHistoryResetClearsTheTable();
    void testCountsAndPercentiles();
    void testHttpClientsGetRowsToo();
    void testOneDataChangedPerBatch();
};

namespace {
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

QString cell(const QAbstractItemModel &model, int row, Column column)
{
    return model.index(row, int(column)).data().toString();
}

int count(const ClientTableModel &model, int row, Column column)
{
    return model.index(row, int(column)).data(ClientTableModel::SortRole).toInt();
}
} // namespace

void TestClientsPanel::testFormOffersEveryStrategyWithATooltip()
{
    Engine engine;
    ClientsPanel panel(engine);
    auto *combo = child<QComboBox>(panel, "strategyCombo");
    QVERIFY(combo);
    const QStringList expected = {"raw-put",     "retry-default",   "retry-backoff",  "blind-put",
                                  "merge-patch", "json-patch-test", "merge-patch-rv", "lease",
                                  "apply",       "apply-force",     "apply-rv"};
    QCOMPARE(combo->count(), expected.size());
    for (int i = 0; i < combo->count(); ++i) {
        QCOMPARE(combo->itemText(i), expected[i]);
        QVERIFY(combo->itemData(i, Qt::ToolTipRole).toString().size() > 20);
    }
    combo->setCurrentIndex(expected.indexOf("blind-put"));
    QVERIFY(combo->toolTip().contains("without resourceVersion"));
    QCOMPARE(panel.launchSpec().strategy, QStringLiteral("blind-put"));
}

void TestClientsPanel::testLaunchFromTheFormFillsOneRowPerClient()
{
    Engine engine;
    ClientsPanel panel(engine);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.resize(560, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    child<QSpinBox>(panel, "clientCount")->setValue(4);
    auto *combo = child<QComboBox>(panel, "strategyCombo");
    combo->setCurrentIndex(combo->findText("raw-put"));
    child<QSpinBox>(panel, "objectCount")->setValue(1);
    child<QSpinBox>(panel, "operationCount")->setValue(10);
    child<QLineEdit>(panel, "thinkTime")->setText("0-1ms");
    child<QSpinBox>(panel, "seed")->setValue(7);
    QVERIFY(!child<QCheckBox>(panel, "asProcesses")->isChecked());

    QSignalSpy finished(&engine, &Engine::workloadFinished);
    QTest::mouseClick(child<QPushButton>(panel, "launchButton"), Qt::LeftButton);
    QVERIFY(panel.statusText().contains("raw-put"));
    QVERIFY(finished.wait(20000));
    const auto report = finished.takeFirst().at(0).value<WorkloadReport>();
    QVERIFY2(report.error.isEmpty(), qPrintable(report.error));

    ClientTableModel &model = *panel.model();
    // The four clients, and the workload's "setup" client, which created the ConfigMap.
    QTRY_COMPARE(model.rowCount(), 5);
    QCOMPARE(model.client(0).clientId, QStringLiteral("setup"));
    for (int i = 1; i <= 4; ++i) {
        const QString id = QStringLiteral("c1-%1").arg(i);
        const int row = model.rowOf(id);
        QVERIFY2(row >= 0, qPrintable(id));
        QCOMPARE(cell(model, row, Column::Client), id);
        QCOMPARE(cell(model, row, Column::Strategy), QStringLiteral("raw-put"));
        // raw-put: one PUT per increment, never retried, so exactly 10 write attempts.
        QCOMPARE(count(model, row, Column::Writes), 10);
        QCOMPARE(count(model, row, Column::Succeeded) + count(model, row, Column::Conflicts)
                     + count(model, row, Column::Errors),
                 10);
        QVERIFY(!cell(model, row, Column::P50).isEmpty());
        QVERIFY(model.client(row).p50Ns <= model.client(row).p99Ns);
    }
    int conflicts = 0;
    for (int row = 1; row <= 4; ++row)
        conflicts += count(model, row, Column::Conflicts);
    QCOMPARE(conflicts, report.conflicts);
    QTRY_VERIFY(panel.statusText().contains(QStringLiteral("4 × raw-put (in-process)")));

    auto *table = child<QTableView>(panel, "clientTable");
    QCOMPARE(table->model()->rowCount(), 5);
    const QImage image = panel.grab().toImage();
    QVERIFY(image.save(artifactPath("clients-panel.png")));
}

void TestClientsPanel::testBadLaunchShowsTheError()
{
    Engine engine;
    ClientsPanel panel(engine);
    child<QLineEdit>(panel, "thinkTime")->setText("soon");
    QSignalSpy finished(&engine, &Engine::workloadFinished);
    panel.launch();
    QVERIFY(finished.wait(5000));
    QVERIFY(!finished.first().at(0).value<WorkloadReport>().error.isEmpty());
    QVERIFY2(panel.statusText().startsWith("Launch failed:"), qPrintable(panel.statusText()));
    QCOMPARE(panel.model()->rowCount(), 0);
}

void TestClientsPanel::testHistoryResetClearsTheTable()
{
    Engine engine;
    ClientsPanel panel(engine);
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    engine.loadScenario("lost-update");
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QTRY_VERIFY(panel.model()->rowOf("Client #2") >= 0);
    QVERIFY(panel.model()->rowOf("Client #1") >= 0);
    QSignalSpy reset(&engine, &Engine::historyReset);
    engine.restartScenario();
    QVERIFY(reset.wait(5000));
    QCOMPARE(panel.model()->rowCount(), 0);
}

void TestClientsPanel::testCountsAndPercentiles()
{
    ClientTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    OperationBatch batch;
    quint64 id = 0;
    // 100 writes of 1..100 ms: 97 succeed, two 409s, one 422; and reads, which are not writes.
    for (int i = 1; i <= 100; ++i) {
        OperationBuilder op(++id, "c1", "update");
        op.at(0, i * MS).strategy("retry-default");
        if (i == 10 || i == 20)
            op.status(409, "Conflict");
        else if (i == 30)
            op.status(422, "Invalid");
        batch << op;
        batch << OperationBuilder(++id, "c1", "get").at(0, 1000 * MS);
    }
    batch << OperationBuilder(++id, "c1", "update").pending(); // not answered yet: not counted
    model.appendOperations(batch);
    QCOMPARE(model.rowCount(), 1);
    const ClientTableModel::ClientStats &stats = model.client(0);
    QCOMPARE(stats.writes, 100);
    QCOMPARE(stats.succeeded, 97);
    QCOMPARE(stats.conflicts, 2);
    QCOMPARE(stats.errors, 1);
    QCOMPARE(stats.reads, 100);
    // Log buckets are ~2.2% wide.
    QVERIFY2(qAbs(stats.p50Ns - 50 * MS) <= 50 * MS / 40, qPrintable(QString::number(stats.p50Ns)));
    QVERIFY2(qAbs(stats.p99Ns - 99 * MS) <= 99 * MS / 40, qPrintable(QString::number(stats.p99Ns)));
    QCOMPARE(cell(model, 0, Column::Conflicts), QStringLiteral("2"));
    QVERIFY(cell(model, 0, Column::P99).endsWith(" ms"));
    QCOMPARE(ClientTableModel::formatLatency(850'000), QStringLiteral("850 µs"));
    QCOMPARE(ClientTableModel::formatLatency(1'234'000), QStringLiteral("1.23 ms"));
    QCOMPARE(ClientTableModel::formatLatency(2'500'000'000), QStringLiteral("2.50 s"));
}

void TestClientsPanel::testHttpClientsGetRowsToo()
{
    ClientTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    OperationBatch batch;
    batch << OperationBuilder(1, "kubectl", "get").produced(5).at(0, 1 * MS);
    batch << OperationBuilder(2, "kubectl", "update").sent(5).produced(6).at(2 * MS, 3 * MS);
    batch << OperationBuilder(3, "python-requests", "patch").produced(7).at(2 * MS, 4 * MS);
    model.appendOperations(batch);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 0, Column::Client), QStringLiteral("kubectl"));
    QCOMPARE(cell(model, 0, Column::Strategy), QStringLiteral("—"));
    QCOMPARE(count(model, 0, Column::Writes), 1);
    QCOMPARE(cell(model, 1, Column::Client), QStringLiteral("python-requests"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.rowOf("kubectl"), -1);
}

void TestClientsPanel::testOneDataChangedPerBatch()
{
    // 64 clients × ~2000 operations each, in engine-sized batches: one insertion for the new
    // clients and one dataChanged per batch, never one per operation.
    ClientTableModel model;
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    ContentionRun run(64, 4);
    constexpr int BATCHES = 64;
    for (int i = 0; i < BATCHES; ++i)
        model.appendOperations(run.next(2000));
    QCOMPARE(model.rowCount(), 64);
    QCOMPARE(changed.count(), BATCHES);
    QVERIFY(inserted.count() <= 2); // the first batch meets (almost) every client
    int operations = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        operations += model.client(row).writes + model.client(row).reads;
    QCOMPARE(operations, BATCHES * 2000);
    // Under the tester too, on a smaller run.
    ClientTableModel tested;
    QAbstractItemModelTester tester(&tested, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ContentionRun small(8, 2);
    for (int i = 0; i < 5; ++i)
        tested.appendOperations(small.next(50));
    QCOMPARE(tested.rowCount(), 8);
}

QTEST_MAIN(TestClientsPanel)
#include "TestClientsPanel.moc"
