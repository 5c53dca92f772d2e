// SPDX-License-Identifier: MIT
#include "verdicts/VerdictsPanel.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QVBoxLayout>

#include "engine/Engine.h"
#include "verdicts/VerdictTreeModel.h"

namespace rvscope::ui {

VerdictsPanel::VerdictsPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_model(new VerdictTreeModel(this))
{
    setObjectName(QStringLiteral("verdictsPanel"));
    m_check = new QPushButton(tr("&Check history"));
    m_check->setObjectName(QStringLiteral("checkHistoryButton"));
    m_check->setToolTip(tr("Run the lost-update, linearizability and watch-guarantee checkers on the history"));
    m_tally = new QLabel;
    m_tally->setObjectName(QStringLiteral("verdictTally"));
    m_tally->setTextFormat(Qt::PlainText);

    m_tree = new QTreeView;
    m_tree->setObjectName(QStringLiteral("verdictTree"));
    m_tree->setModel(m_model);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setWordWrap(false);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setIconSize(QSize(16, 16));
    QHeaderView *header = m_tree->header();
    header->setStretchLastSection(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics metrics = m_tree->fontMetrics();
    const int em = metrics.horizontalAdvance(QLatin1Char('M'));
    m_tree->setColumnWidth(int(VerdictTreeModel::Column::Checker), 11 * em);
    m_tree->setColumnWidth(int(VerdictTreeModel::Column::Key), 17 * em);
    m_tree->setColumnWidth(int(VerdictTreeModel::Column::Outcome), 7 * em);
    QFont bold = m_tree->font();
    bold.setBold(true);
    m_tree->setColumnWidth(int(VerdictTreeModel::Column::Expected),
                           QFontMetrics(bold).horizontalAdvance(VerdictTreeModel::tr("fail — not met")) + 2 * em);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_check);
    bar->addWidget(m_tally, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_tree, 1);

    connect(m_check, &QPushButton::clicked, this, &VerdictsPanel::checkHistory);
    connect(&m_engine, &engine::Engine::verdictsReady, this, &VerdictsPanel::handleVerdicts);
    connect(&m_engine, &engine::Engine::historyReset, this, &VerdictsPanel::handleHistoryReset);
    connect(m_model, &QAbstractItemModel::modelReset, this, &VerdictsPanel::layOutRows);
    handleHistoryReset();
}

VerdictsPanel::~VerdictsPanel() = default;

void VerdictsPanel::checkHistory()
{
    m_tally->setText(tr("Checking…"));
    m_engine.checkHistory();
}

QString VerdictsPanel::tallyText() const
{
    return m_tally->text();
}

void VerdictsPanel::handleVerdicts(const engine::VerdictList &verdicts)
{
    m_model->setVerdicts(verdicts);
    int passed = 0;
    int failed = 0;
    int empty = 0;
    int unexpected = 0;
    for (const engine::VerdictReport &verdict : verdicts) {
        const VerdictTreeModel::Outcome outcome = VerdictTreeModel::outcomeOf(verdict.outcome);
        passed += outcome == VerdictTreeModel::Outcome::Pass;
        failed += outcome == VerdictTreeModel::Outcome::Fail;
        empty += outcome == VerdictTreeModel::Outcome::NoHistory;
        unexpected += !verdict.asExpected;
    }
    const int unknown = int(verdicts.size()) - passed - failed - empty;
    QString tally = tr("%1 checks: %2 pass, %3 fail, %4 unknown").arg(verdicts.size()).arg(passed).arg(failed).arg(unknown);
    if (empty > 0)
        tally += tr(", %1 with no history").arg(empty);
    tally += unexpected == 0 ? tr(" · all as expected") : tr(" · %1 not as expected").arg(unexpected);
    m_tally->setText(verdicts.isEmpty() ? tr("No checker had anything to say.") : tally);
}

void VerdictsPanel::handleHistoryReset()
{
    m_model->clear();
    m_tally->setText(tr("No verdict yet: finish a scenario or check the history."));
}

void VerdictsPanel::layOutRows()
{
    // A finding is a sentence: let it use the whole width. Open what did not go as expected.
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex verdict = m_model->index(row, 0);
        for (int finding = 0; finding < m_model->rowCount(verdict); ++finding)
            m_tree->setFirstColumnSpanned(finding, verdict, true);
        if (!verdict.data(VerdictTreeModel::AsExpectedRole).toBool())
            m_tree->expand(verdict);
    }
}

} // namespace rvscope::ui
