// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QObject>

class QAction;
class QComboBox;
class QToolBar;
class QMenu;

namespace rvscope::engine {
class Engine;
struct ScenarioState;
}

namespace rvscope::ui {

// The scenario player's controls, as a media player's: a scenario chooser and speed chooser
// for the toolbar, and actions with the keys of UI.md (Space play/pause, → step, ← step back,
// Home restart) for the toolbar and the Scenario menu. Follows the Engine's ScenarioState.
class ScenarioControls final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScenarioControls)

public:
    ScenarioControls(engine::Engine &engine, QWidget *window);

    void addTo(QToolBar *toolbar);
    void addTo(QMenu *menu);
    // Loads a built-in scenario by name (or a file) into the chooser and the engine.
    void load(const QString &nameOrPath);

    QAction *playAction() const { return m_play; }
    QAction *stepAction() const { return m_step; }
    QAction *stepBackAction() const { return m_stepBack; }
    QAction *restartAction() const { return m_restart; }
    QComboBox *scenarioChooser() const { return m_chooser; }

private:
    void handleState(const engine::ScenarioState &state);
    void handleChosen(int index);
    void togglePlay();

    engine::Engine &m_engine;
    QComboBox *m_chooser = nullptr;
    QComboBox *m_speed = nullptr;
    QAction *m_play = nullptr;
    QAction *m_step = nullptr;
    QAction *m_stepBack = nullptr;
    QAction *m_restart = nullptr;
    QAction *m_open = nullptr;
    bool m_playing = false;
};

} // namespace rvscope::ui
