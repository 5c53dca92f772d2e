// SPDX-License-Identifier: MIT
#include "faults/FaultsPanel.h"

#include <QtCore/QTimer>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

#include "engine/Engine.h"

namespace rvscope::ui {
namespace {
enum Column { Id, Rule, Matched, Fired, State, ColumnCount };
constexpr int REFRESH_MS = 1000;
} // namespace

FaultsPanel::FaultsPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
{
    setObjectName(QStringLiteral("faultsPanel"));
    m_entry = new QLineEdit;
    m_entry->setObjectName(QStringLiteral("faultRuleEntry"));
    m_entry->setPlaceholderText(tr("update configmaps/default/* every=3 conflict"));
    m_entry->setToolTip(tr("VERBS RESOURCE[/NAMESPACE[/NAME]] [every=N | probability=P] [once | times=N] ACTION\n"
                           "actions: conflict, throttle, error, timeout, drop, delay=D, delay-after-commit=D,\n"
                           "drop-after-commit, compact, stall, end-after=N, expire-after=N (README: Fault injection)"));
    m_add = new QPushButton(tr("&Add rule"));
    m_add->setObjectName(QStringLiteral("addFaultRule"));
    m_remove = new QPushButton(tr("&Remove"));
    m_remove->setObjectName(QStringLiteral("removeFaultRule"));
    m_clear = new QPushButton(tr("Remove a&ll"));
    m_clear->setObjectName(QStringLiteral("clearFaultRules"));
    m_message = new QLabel(tr("No fault rules: every request is served faithfully."));
    m_message->setObjectName(QStringLiteral("faultMessage"));
    m_message->setWordWrap(true);

    m_table = new QTableWidget(0, ColumnCount);
    m_table->setObjectName(QStringLiteral("faultRuleTable"));
    m_table->setHorizontalHeaderLabels({tr("ID"), tr("Rule"), tr("Matched"), tr("Fired"), tr("State")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(Rule, QHeaderView::Stretch);
    for (int column : {Id, Matched, Fired, State})
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);

    auto *entryRow = new QHBoxLayout;
    entryRow->addWidget(m_entry, 1);
    entryRow->addWidget(m_add);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_message, 1);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_clear);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(entryRow);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    m_refresh = new QTimer(this);
    m_refresh->setInterval(REFRESH_MS);
    connect(m_refresh, &QTimer::timeout, &m_engine, &engine::Engine::fetchFaultRules);
    connect(m_add, &QPushButton::clicked, this, &FaultsPanel::addEnteredRule);
    connect(m_entry, &QLineEdit::returnPressed, this, &FaultsPanel::addEnteredRule);
    connect(m_remove, &QPushButton::clicked, this, &FaultsPanel::removeSelected);
    connect(m_clear, &QPushButton::clicked, &m_engine, &engine::Engine::clearFaultRules);
    connect(&m_engine, &engine::Engine::faultRulesReported, this, &FaultsPanel::showRules);
    // A fresh core (a scenario run, a history reset) starts with the --fault rules only.
    connect(&m_engine, &engine::Engine::historyReset, &m_engine, &engine::Engine::fetchFaultRules);
    m_engine.fetchFaultRules();
}

FaultsPanel::~FaultsPanel() = default;

void FaultsPanel::addEnteredRule()
{
    const QString rule = m_entry->text().simplified();
    if (rule.isEmpty())
        return;
    m_engine.addFaultRule(rule);
}

void FaultsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_engine.fetchFaultRules();
    m_refresh->start();
}

void FaultsPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_refresh->stop();
}

void FaultsPanel::showRules(const engine::FaultRuleList &rules, const QString &error)
{
    const quint64 selected = m_table->currentRow() >= 0 && m_table->item(m_table->currentRow(), Id)
        ? m_table->item(m_table->currentRow(), Id)->text().toULongLong()
        : 0;
    m_table->setRowCount(int(rules.size()));
    for (int row = 0; row < int(rules.size()); ++row) {
        const engine::FaultRuleSummary &rule = rules[row];
        const QString cells[] = {QString::number(rule.id), rule.rule, QString::number(rule.matched),
                                 QString::number(rule.fired), rule.spent ? tr("spent") : tr("active")};
        for (int column = 0; column < ColumnCount; ++column) {
            QTableWidgetItem *item = m_table->item(row, column);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(row, column, item);
            }
            item->setText(cells[column]);
            if (column != Rule)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
        if (rule.id == selected)
            m_table->selectRow(row);
    }
    m_remove->setEnabled(!rules.isEmpty());
    m_clear->setEnabled(!rules.isEmpty());
    if (!error.isEmpty()) {
        m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
        m_message->setText(error);
        return;
    }
    m_message->setStyleSheet(QString());
    if (rules.isEmpty()) {
        m_message->setText(tr("No fault rules: every request is served faithfully."));
        return;
    }
    if (m_entry->text().simplified() == rules.back().rule)
        m_entry->clear(); // added
    m_message->setText(rules.size() == 1 ? tr("1 rule; injected outcomes are marked on the timeline.")
                                         : tr("%1 rules; injected outcomes are marked on the timeline.").arg(rules.size()));
}

void FaultsPanel::removeSelected()
{
    const int row = m_table->currentRow();
    if (row < 0 || !m_table->item(row, Id))
        return;
    m_engine.removeFaultRule(m_table->item(row, Id)->text().toULongLong());
}

} // namespace rvscope::ui
