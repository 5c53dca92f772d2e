// SPDX-License-Identifier: MIT
#include "conflicts/ConflictsPanel.h"

#include <algorithm>

#include <QtCore/QFile>
#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

#include "conflicts/ConflictDiffView.h"
#include "conflicts/ConflictTableModel.h"
#include "engine/Engine.h"

namespace rvscope::ui {

ConflictsPanel::ConflictsPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_model(new ConflictTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("conflictsPanel"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ConflictTableModel::SortRole);
    m_proxy->setFilterRole(ConflictTableModel::InjectedRole); // "Hide injected" keeps "false"

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("conflictTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // answer order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Wide enough for the header and typical values; the Object column takes what is left.
    const QFontMetrics metrics = m_table->fontMetrics();
    const int em = metrics.horizontalAdvance(QLatin1Char('M'));
    const QList<int> widths = {8, 8, 8, 0, 0, 0, 8};
    for (int column = 0; column < int(widths.size()); ++column) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        m_table->setColumnWidth(column, std::max(widths[column] * em, metrics.horizontalAdvance(title) + 2 * em));
    }
    m_table->setColumnWidth(int(ConflictTableModel::Column::Object), 18 * em);

    m_count = new QLabel;
    m_count->setObjectName(QStringLiteral("conflictCount"));
    m_export = new QPushButton(tr("E&xport CSV…"));
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Save every conflict row as a CSV file"));

    m_hideInjected = new QCheckBox(tr("&Hide injected"));
    m_hideInjected->setObjectName(QStringLiteral("hideInjected"));
    m_hideInjected->setToolTip(tr("Hide the 409s a fault rule answered, leaving the server's own conflicts"));

    m_diffView = new ConflictDiffView;

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_count, 1);
    bar->addWidget(m_hideInjected);
    bar->addWidget(m_export);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_table);
    splitter->addWidget(m_diffView);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ConflictsPanel::handleCurrentRowChanged);
    connect(m_export, &QPushButton::clicked, this, &ConflictsPanel::chooseExportFile);
    connect(m_hideInjected, &QCheckBox::toggled, this,
            [this](bool hide) { m_proxy->setFilterFixedString(hide ? QStringLiteral("false") : QString()); });
    connect(&m_engine, &engine::Engine::operationsRecorded, this, &ConflictsPanel::handleOperations);
    connect(&m_engine, &engine::Engine::operationDetailReady, this, &ConflictsPanel::handleOperationDetail);
    connect(&m_engine, &engine::Engine::historyReset, this, &ConflictsPanel::handleHistoryReset);
    updateCount();
}

ConflictsPanel::~ConflictsPanel() = default;

bool ConflictsPanel::selectOperation(quint64 id)
{
    const int row = m_model->rowOfOperation(id);
    m_selectingProgrammatically = true;
    if (row < 0) {
        m_table->selectionModel()->clear();
    } else {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                              | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    }
    m_selectingProgrammatically = false;
    return row >= 0;
}

quint64 ConflictsPanel::selectedOperation() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(ConflictTableModel::OperationIdRole).toULongLong() : 0;
}

bool ConflictsPanel::exportCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return m_model->writeCsv(file) && file.flush();
}

void ConflictsPanel::handleOperations(const engine::OperationBatch &batch)
{
    // Follow the newest conflicts while the view shows the bottom of the list.
    QScrollBar *scroll = m_table->verticalScrollBar();
    const bool atBottom = scroll->value() == scroll->maximum();
    const int before = m_model->rowCount();
    m_model->appendOperations(batch);
    if (m_model->rowCount() != before) {
        updateCount();
        if (atBottom && !m_table->selectionModel()->hasSelection())
            m_table->scrollToBottom();
    }
}

void ConflictsPanel::handleOperationDetail(const engine::OperationDetail &detail)
{
    // Details are broadcast to every panel: take only the one asked for here. An id of 0 is
    // the answer for an operation that left the bounded journal.
    if (m_requested == 0 || (detail.summary.id != m_requested && detail.summary.id != 0))
        return;
    const quint64 requested = m_requested;
    m_requested = 0;
    if (detail.summary.id == 0) {
        m_diffView->showMessage(tr("Operation #%1 is no longer in the journal.").arg(requested));
        return;
    }
    m_diffView->showDetail(detail);
    m_model->setOverlap(detail.summary.id, m_diffView->overlap());
}

void ConflictsPanel::handleHistoryReset()
{
    m_requested = 0;
    m_model->clear();
    m_diffView->clear();
    updateCount();
}

void ConflictsPanel::handleCurrentRowChanged(const QModelIndex &current)
{
    if (!current.isValid()) {
        m_requested = 0;
        m_diffView->clear();
        return;
    }
    const quint64 id = current.data(ConflictTableModel::OperationIdRole).toULongLong();
    if (id == m_diffView->operationId() && m_requested == 0)
        return;
    m_requested = id;
    m_diffView->showMessage(tr("Loading operation #%1…").arg(id));
    m_engine.fetchOperation(id);
    if (!m_selectingProgrammatically)
        Q_EMIT operationSelected(id);
}

void ConflictsPanel::chooseExportFile()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export conflicts"), QStringLiteral("conflicts.csv"),
                                                      tr("CSV files (*.csv)"));
    if (!path.isEmpty() && !exportCsv(path))
        m_count->setText(tr("Could not write %1").arg(path));
}

void ConflictsPanel::updateCount()
{
    const int rows = m_model->rowCount();
    QString text;
    if (rows == 0)
        text = tr("No 409 yet.");
    else
        text = rows == 1 ? tr("1 conflict (409)") : tr("%1 conflicts (409)").arg(rows);
    if (const int injected = m_model->injectedCount(); injected > 0)
        text += tr(", %1 injected").arg(injected);
    m_count->setText(text);
}

} // namespace rvscope::ui
