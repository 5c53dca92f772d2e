// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

#include "engine/ScenarioValues.h"

class QLabel;
class QPushButton;
class QTreeView;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

class VerdictTreeModel;

// The Verdicts dock: what the history checkers concluded (Engine::verdictsReady, sent when a
// scenario finishes and after Engine::checkHistory) as a tree of verdicts and their findings
// (VerdictTreeModel), a one-line tally, and a "Check history" button. Verdicts that did not
// come out as expected are expanded. Clears on Engine::historyReset. Child object names:
// checkHistoryButton, verdictTree, verdictTally. GUI thread only; `engine` must outlive it.
class VerdictsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerdictsPanel)

public:
    explicit VerdictsPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~VerdictsPanel() override;

    // Asks the engine to run the checkers on the current history, as the button does.
    void checkHistory();

    VerdictTreeModel *model() const { return m_model; }
    QString tallyText() const;

private:
    void handleVerdicts(const engine::VerdictList &verdicts);
    void handleHistoryReset();
    void layOutRows();

    engine::Engine &m_engine;
    VerdictTreeModel *m_model = nullptr;
    QTreeView *m_tree = nullptr;
    QPushButton *m_check = nullptr;
    QLabel *m_tally = nullptr;
};

} // namespace rvscope::ui
