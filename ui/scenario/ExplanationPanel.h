// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QList>
#include <QtWidgets/QWidget>

#include "engine/ScenarioValues.h"

class QLabel;
class QListWidget;
class QTextBrowser;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

// The scenario's explanation: its steps (done ones marked with what the server answered) and
// the text a teacher reads aloud - what is about to happen next, and what just happened.
class ExplanationPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExplanationPanel)

public:
    explicit ExplanationPanel(engine::Engine &engine, QWidget *parent = nullptr);

    // The text now shown (for tests and export).
    QString currentText() const;

private:
    void handleLoaded(const engine::ScenarioInfo &info);
    void handleStep(const engine::StepReport &step);
    void handleState(const engine::ScenarioState &state);
    void handleVerdicts(const engine::VerdictList &verdicts);
    void render();

    engine::ScenarioInfo m_info;
    QList<engine::StepReport> m_done;
    engine::ScenarioState m_state;
    engine::VerdictList m_verdicts;
    QLabel *m_title = nullptr;
    QListWidget *m_steps = nullptr;
    QTextBrowser *m_text = nullptr;
};

} // namespace rvscope::ui
