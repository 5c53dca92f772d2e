// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QMainWindow>

class QDockWidget;

namespace rvscope::ui {

// The main window only assembles panels: each dock is its own class (added as the panels
// are built) and the window persists their arrangement with QSettings.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    QDockWidget *addPanel(const QString &objectName, const QString &title, Qt::DockWidgetArea area,
                          const QString &placeholder);
    void restoreLayout();
    void saveLayout() const;
};

} // namespace rvscope::ui
