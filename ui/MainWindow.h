// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtWidgets/QMainWindow>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;

namespace rvscope::engine {
class Engine;
struct CoreStats;
struct ServerState;
}

namespace rvscope::ui {

class ConflictsPanel;
class ExplanationPanel;
class InspectorPanel;
class ScenarioControls;
class StreamsPanel;
class TimelineView;

// The main window only assembles panels: each dock is its own class with its own model, fed
// by the Engine's value batches; the window wires selections between them, owns menus and
// the status bar, and persists the arrangement with QSettings.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    // `engine` must outlive the window. `firstScenario` is loaded paused at step 0 (UI.md's
    // first run); empty loads nothing.
    explicit MainWindow(engine::Engine &engine, QWidget *parent = nullptr,
                        const QString &firstScenario = QStringLiteral("lost-update"));
    ~MainWindow() override;

    TimelineView *timeline() const { return m_timeline; }
    // The timeline as it is shown now, as SVG (File → Export timeline as SVG).
    bool writeTimelineSvg(const QString &path) const;
    ScenarioControls *scenarioControls() const { return m_scenario; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QDockWidget *addPanel(const QString &objectName, const QString &title, Qt::DockWidgetArea area, QWidget *panel);
    void createMenus();
    void restoreLayout();
    void saveLayout() const;
    void handleServerState(const engine::ServerState &state);
    void handleStats(const engine::CoreStats &stats);
    void selectOperation(quint64 id);
    void toggleServer();
    void raceClients();
    void exportHistory(bool includeSecrets);
    void importHistory();
    void exportTimelinePng();
    void exportTimelineSvg();
    void setDarkPalette(bool dark);
    // The watchers the timeline can overlay (View → Watch overlay, and the timeline's context menu).
    void fillOverlayMenu();
    void showTimelineMenu(const QPoint &viewportPoint);
    void updateRates();

    engine::Engine &m_engine;
    TimelineView *m_timeline = nullptr;
    InspectorPanel *m_inspector = nullptr;
    ConflictsPanel *m_conflicts = nullptr;
    ExplanationPanel *m_explanation = nullptr;
    ScenarioControls *m_scenario = nullptr;
    StreamsPanel *m_streams = nullptr;
    QMenu *m_overlayMenu = nullptr;
    QAction *m_serverAction = nullptr;
    QLabel *m_revisionLabel = nullptr;
    QLabel *m_rateLabel = nullptr;
    QLabel *m_serverLabel = nullptr;
    QLabel *m_storageLabel = nullptr; // which storage serves (memory, etcd endpoints and prefix)
    // Operations and 409s in the current one-second window, for the status bar's rates.
    QElapsedTimer m_rateWindow;
    int m_windowOps = 0;
    int m_windowConflicts = 0;
};

} // namespace rvscope::ui
