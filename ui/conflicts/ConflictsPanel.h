// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

#include "engine/EngineTypes.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

class ConflictDiffView;
class ConflictTableModel;

// The Conflicts dock: one row per 409 (ConflictTableModel, fed by Engine::operationsRecorded)
// above the three-way view of the selected one (ConflictDiffView). Selecting a row asks
// Engine::fetchOperation and shows the matching Engine::operationDetailReady (details fetched
// by other panels are ignored); the verdict on field overlap is written back into the row.
// Clears on Engine::historyReset. Child object names: conflictTable, conflictCount,
// exportButton, conflictDiffView (and its panes). GUI thread only; `engine` must outlive it.
class ConflictsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConflictsPanel)

public:
    explicit ConflictsPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~ConflictsPanel() override;

    // Selects the row of an operation chosen elsewhere (the timeline) and shows its three-way
    // view, without emitting operationSelected. Returns false when it is not a listed 409
    // (the selection is then cleared).
    bool selectOperation(quint64 id);
    quint64 selectedOperation() const;

    // Writes every row as CSV (RFC 4180, UTF-8, header line); false when the file cannot be written.
    bool exportCsv(const QString &path);

    ConflictTableModel *model() const { return m_model; }
    ConflictDiffView *diffView() const { return m_diffView; }

Q_SIGNALS:
    // The user selected a conflict in the table.
    void operationSelected(quint64 id);

private:
    void handleOperations(const engine::OperationBatch &batch);
    void handleOperationDetail(const engine::OperationDetail &detail);
    void handleHistoryReset();
    void handleCurrentRowChanged(const QModelIndex &current);
    void chooseExportFile();
    void updateCount();

    engine::Engine &m_engine;
    ConflictTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    ConflictDiffView *m_diffView = nullptr;
    QLabel *m_count = nullptr;
    QPushButton *m_export = nullptr;
    QCheckBox *m_hideInjected = nullptr;
    quint64 m_requested = 0; // the operation whose detail we asked for and have not received
    bool m_selectingProgrammatically = false;
};

} // namespace rvscope::ui
