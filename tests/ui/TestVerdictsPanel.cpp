// SPDX-License-Identifier: MIT
// The Verdicts panel against a real Engine: a scenario's checks, "Check history", findings as
// child rows; the tree model under QAbstractItemModelTester.
#include <QtCore/QDir>
#include <QtTest/QAbstractItemModelTester>
#include <QtTest/QtTest>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTreeView>

#include "engine/Engine.h"
#include "verdicts/VerdictTreeModel.h"
#include "verdicts/VerdictsPanel.h"

using rvscope::engine::Engine;
using rvscope::engine::VerdictList;
using rvscope::engine::VerdictReport;
using rvscope::ui::VerdictsPanel;
using rvscope::ui::VerdictTreeModel;
using Column = rvscope::ui::VerdictTreeModel::Column;
using Outcome = rvscope::ui::VerdictTreeModel::Outcome;

class TestVerdictsPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testCheckHistoryShowsTheLostUpdate();
    void testFindingsAreChildRows();
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
} // namespace

void TestVerdictsPanel::testCheckHistoryShowsTheLostUpdate()
{
    Engine engine;
    VerdictsPanel panel(engine);
    VerdictTreeModel &model = *panel.model();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.resize(900, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    QSignalSpy verdicts(&engine, &Engine::verdictsReady);
    engine.loadScenario("lost-update");
    engine.setScenarioSpeed(0);
    engine.playScenario();
    QVERIFY(verdicts.wait(10000));
    // The scenario's own checks: it expects the lost-update checker to fail, and it does.
    const int scenarioRow = model.rowOf("lost-update", "configmaps/default/foo");
    QVERIFY(scenarioRow >= 0);
    QCOMPARE(cell(model, scenarioRow, Column::Outcome), QStringLiteral("FAIL"));
    QCOMPARE(cell(model, scenarioRow, Column::Expected), QStringLiteral("fail"));
    QVERIFY(panel.tallyText().contains("all as expected"));

    QTest::mouseClick(panel.findChild<QPushButton *>("checkHistoryButton"), Qt::LeftButton);
    QCOMPARE(panel.tallyText(), QStringLiteral("Checking…"));
    QVERIFY(verdicts.wait(10000));
    const int row = model.rowOf("lost-update", "configmaps/default/foo");
    QVERIFY(row >= 0);
    QCOMPARE(cell(model, row, Column::Checker), QStringLiteral("lost-update"));
    QCOMPARE(cell(model, row, Column::Outcome), QStringLiteral("FAIL"));
    QCOMPARE(model.index(row, int(Column::Outcome)).data(VerdictTreeModel::OutcomeRole).toInt(), int(Outcome::Fail));
    QVERIFY(!model.index(row, int(Column::Outcome)).data(Qt::DecorationRole).value<QIcon>().isNull());
    // Outside a scenario every checker is expected to pass.
    QCOMPARE(cell(model, row, Column::Expected), QStringLiteral("pass — not met"));
    QVERIFY(!cell(model, row, Column::Summary).isEmpty());
    const int linearizable = model.rowOf("linearizability");
    QVERIFY(linearizable >= 0);
    QCOMPARE(cell(model, linearizable, Column::Outcome), QStringLiteral("PASS"));
    QCOMPARE(cell(model, linearizable, Column::Key), QStringLiteral("(whole history)"));
    QVERIFY(panel.tallyText().contains("1 not as expected"));
    // What did not go as expected is open.
    auto *tree = panel.findChild<QTreeView *>("verdictTree");
    QVERIFY(tree);
    if (model.rowCount(model.index(row, 0)) > 0)
        QVERIFY(tree->isExpanded(model.index(row, 0)));

    const QImage image = panel.grab().toImage();
    QVERIFY(image.save(artifactPath("verdicts-panel.png")));

    QSignalSpy reset(&engine, &Engine::historyReset);
    engine.restartScenario();
    QVERIFY(reset.wait(5000));
    QCOMPARE(model.rowCount(), 0);
}

void TestVerdictsPanel::testFindingsAreChildRows()
{
    VerdictTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    VerdictReport pass;
    pass.checker = "watch";
    pass.outcome = "pass";
    pass.summary = "every watch saw every event in order";
    VerdictReport fail;
    fail.checker = "lost-update";
    fail.key = "configmaps/default/foo";
    fail.outcome = "fail";
    fail.summary = "1 increment lost";
    fail.findings = {"rv 43 overwrote rv 42 unseen", "counter 2 expected 3"};
    fail.asExpected = false;
    VerdictReport unknown;
    unknown.checker = "linearizability";
    unknown.outcome = "unknown";
    model.setVerdicts({pass, fail, unknown});

    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);
    const QModelIndex failed = model.index(1, 0);
    QCOMPARE(model.rowCount(failed), 2);
    QCOMPARE(model.rowCount(model.index(1, 2)), 0); // only the first column has children
    const QModelIndex finding = model.index(1, 0, failed);
    QCOMPARE(finding.data().toString(), QStringLiteral("counter 2 expected 3"));
    QCOMPARE(finding.parent(), failed);
    QCOMPARE(cell(model, 2, Column::Outcome), QStringLiteral("UNKNOWN"));
    QCOMPARE(model.rowOf("lost-update", "configmaps/default/foo"), 1);
    QCOMPARE(model.rowOf("lost-update"), -1);
    // Three shapes, three colours.
    QVERIFY(VerdictTreeModel::colourOf(Outcome::Pass, Qt::white) != VerdictTreeModel::colourOf(Outcome::Fail, Qt::white));
    QVERIFY(VerdictTreeModel::colourOf(Outcome::Fail, Qt::white)
            != VerdictTreeModel::colourOf(Outcome::Unknown, Qt::white));
    const QImage passIcon = model.iconOf(Outcome::Pass).pixmap(32).toImage();
    const QImage failIcon = model.iconOf(Outcome::Fail).pixmap(32).toImage();
    // A square fills its corners, a circle does not.
    QCOMPARE(qAlpha(passIcon.pixel(5, 5)), 0);
    QVERIFY(qAlpha(failIcon.pixel(5, 5)) > 0);

    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

QTEST_MAIN(TestVerdictsPanel)
#include "TestVerdictsPanel.moc"
