// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QMainWindow>

class QAction;
class QDockWidget;
class QLabel;

namespace rvscope::engine {
class Engine;
struct CoreStats;
struct ServerState;
}

namespace rvscope::ui {

// The main window only assembles panels: each dock is its own class (added as the panels
// are built) and the window persists their arrangement with QSettings.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    // `engine` must outlive the window.
    explicit MainWindow(engine::Engine &engine, QWidget *parent = nullptr);
    ~MainWindow() override;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QDockWidget *addPanel(const QString &objectName, const QString &title, Qt::DockWidgetArea area,
                          const QString &placeholder);
    void restoreLayout();
    void saveLayout() const;
    void handleServerState(const engine::ServerState &state);
    void handleStats(const engine::CoreStats &stats);
    void toggleServer();

    engine::Engine &m_engine;
    QAction *m_serverAction = nullptr;
    QLabel *m_revisionLabel = nullptr;
    QLabel *m_serverLabel = nullptr;
};

} // namespace rvscope::ui
