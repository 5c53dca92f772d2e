// SPDX-License-Identifier: MIT
// The Faults panel against a real Engine: a rule added from its entry line is applied by the
// served API's rules (listed with its counts), a bad rule is refused with its reason, and
// rules are removed one at a time or all at once.
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableWidget>

#include "engine/Engine.h"
#include "faults/FaultsPanel.h"

using rvscope::engine::Engine;
using rvscope::engine::EngineOptions;
using rvscope::ui::FaultsPanel;

class TestFaultsPanel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testAddRefuseRemoveAndClear();
    void testAPersonsRulesOutliveAScenariosFreshCore();
};

void TestFaultsPanel::testAddRefuseRemoveAndClear()
{
    EngineOptions options;
    options.faults = {QStringLiteral("watch configmaps expire-after=5")}; // as --fault gives them
    Engine engine(options);
    FaultsPanel panel(engine);
    panel.resize(900, 300);
    panel.show();
    auto *table = panel.findChild<QTableWidget *>(QStringLiteral("faultRuleTable"));
    auto *entry = panel.findChild<QLineEdit *>(QStringLiteral("faultRuleEntry"));
    auto *message = panel.findChild<QLabel *>(QStringLiteral("faultMessage"));
    QVERIFY(table && entry && message);
    QTRY_COMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("watch configmaps expire-after=5"));

    entry->setText(QStringLiteral("update   configmaps/default/* every=3 conflict"));
    panel.addEnteredRule();
    QTRY_COMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("2"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("update configmaps/default/* every=3 conflict"));
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("active"));
    QVERIFY(entry->text().isEmpty()); // taken

    entry->setText(QStringLiteral("updte configmaps conflict"));
    panel.addEnteredRule();
    QTRY_VERIFY(message->text().contains(QStringLiteral("unknown verb \"updte\"")));
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(entry->text(), QStringLiteral("updte configmaps conflict")); // kept, to be mended

    table->selectRow(0);
    panel.findChild<QPushButton *>(QStringLiteral("removeFaultRule"))->click();
    QTRY_COMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("2"));
    panel.findChild<QPushButton *>(QStringLiteral("clearFaultRules"))->click();
    QTRY_COMPARE(table->rowCount(), 0);
    QVERIFY(message->text().contains(QStringLiteral("No fault rules")));
}

void TestFaultsPanel::testAPersonsRulesOutliveAScenariosFreshCore()
{
    EngineOptions options;
    options.faults = {QStringLiteral("watch configmaps expire-after=5")};
    Engine engine(options);
    FaultsPanel panel(engine);
    panel.show();
    auto *table = panel.findChild<QTableWidget *>(QStringLiteral("faultRuleTable"));
    auto *entry = panel.findChild<QLineEdit *>(QStringLiteral("faultRuleEntry"));
    QTRY_COMPARE(table->rowCount(), 1);
    entry->setText(QStringLiteral("get secrets error once"));
    panel.addEnteredRule();
    QTRY_COMPARE(table->rowCount(), 2);
    table->selectRow(0);
    panel.findChild<QPushButton *>(QStringLiteral("removeFaultRule"))->click(); // the command line's, removed
    QTRY_COMPARE(table->rowCount(), 1);

    // A scenario runs on a fresh core: the rules in force stay (their ids too, counts from 0
    // again), the one the person removed stays removed, and the panel is told.
    QSignalSpy reported(&engine, &Engine::faultRulesReported);
    engine.loadScenario(QStringLiteral("controller-under-fire"));
    QTRY_VERIFY(!reported.isEmpty());
    const auto rules = reported.takeLast().at(0).value<rvscope::engine::FaultRuleList>();
    QCOMPARE(rules.size(), 1);
    QCOMPARE(rules.front().rule, QStringLiteral("get secrets error once"));
    QCOMPARE(rules.front().id, quint64(2)); // an id a test holds still names its rule
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("get secrets error once"));
}

QTEST_MAIN(TestFaultsPanel)
#include "TestFaultsPanel.moc"
