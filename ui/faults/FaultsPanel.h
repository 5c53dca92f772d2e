// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

#include "engine/EngineTypes.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

// The Faults panel (README "Fault injection"): the served API's fault rules with their
// counts, a line to add one in the syntax of --fault and /rvscope/v1/faults, and buttons to
// remove the selected rule or all of them. The counts refresh every second while shown.
class FaultsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FaultsPanel)

public:
    explicit FaultsPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~FaultsPanel() override;

    // Adds the rule in the entry line, as the Add button does.
    void addEnteredRule();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void showRules(const engine::FaultRuleList &rules, const QString &error);
    void removeSelected();

    engine::Engine &m_engine;
    QLineEdit *m_entry = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_clear = nullptr;
    QLabel *m_message = nullptr;
    QTableWidget *m_table = nullptr;
    QTimer *m_refresh = nullptr;
};

} // namespace rvscope::ui
