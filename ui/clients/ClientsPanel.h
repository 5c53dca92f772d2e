// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

#include "engine/ClientValues.h"
#include "engine/EngineTypes.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

class ClientTableModel;

// The Clients dock: a form that launches a group of competing clients (Engine::launchClients)
// and stops them all (Engine::stopClients), a table with one row per client id seen in the
// journal (ClientTableModel, fed by Engine::operationsRecorded), and a status line with the
// last WorkloadReport, or why the group could not run. Clears on Engine::historyReset.
//
// Child widgets carry object names for tests and style sheets: clientCount, strategyCombo,
// objectCount, operationCount, thinkTime, seed, asProcesses, launchButton, stopButton,
// clientTable, workloadStatus. GUI thread only; `engine` must outlive the panel.
class ClientsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientsPanel)

public:
    explicit ClientsPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~ClientsPanel() override;

    // The form's values, and setting them (a toolbar's "Race N clients" can preset the form).
    engine::ClientLaunch launchSpec() const;
    void setLaunchSpec(const engine::ClientLaunch &launch);
    // Launches what the form says, as the Launch button does.
    void launch();

    ClientTableModel *model() const { return m_model; }
    QString statusText() const;

    // The strategies the core knows (sim::WriteStrategy names), in the form's order, and a
    // sentence on each (the combo's tooltips).
    static QStringList strategyNames();
    static QString strategyDescription(const QString &name);

private:
    QWidget *createForm();
    void handleOperations(const engine::OperationBatch &batch);
    void handleWorkloadFinished(const engine::WorkloadReport &report);
    void handleHistoryReset();
    void updateStrategyToolTip();
    void showStatus(const QString &text, bool error);

    engine::Engine &m_engine;
    ClientTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QSpinBox *m_clients = nullptr;
    QComboBox *m_strategy = nullptr;
    QSpinBox *m_objects = nullptr;
    QSpinBox *m_operations = nullptr;
    QLineEdit *m_thinkTime = nullptr;
    QSpinBox *m_seed = nullptr;
    QCheckBox *m_processes = nullptr;
    QPushButton *m_launch = nullptr;
    QPushButton *m_stop = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_status = nullptr;
    QStringList m_reports; // the latest reports, newest first (the status line's tooltip)
};

} // namespace rvscope::ui
