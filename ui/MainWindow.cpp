// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include <QtCore/QSettings>
#include <QtGui/QCloseEvent>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>

namespace rvscope::ui {
namespace {
QLabel *placeholderLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setEnabled(false);
    return label;
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(QStringLiteral("rvscope"));
    setDockNestingEnabled(true);
    setCentralWidget(placeholderLabel(tr("Timeline: resourceVersions read and produced by every write"), this));

    // The layout of UI.md: clients and objects left, inspector right, tabbed panels below.
    QDockWidget *clients = addPanel(QStringLiteral("clientsDock"), tr("Clients"), Qt::LeftDockWidgetArea,
                                    tr("Competing clients and their counters"));
    QDockWidget *objects = addPanel(QStringLiteral("objectsDock"), tr("Objects"), Qt::LeftDockWidgetArea,
                                    tr("Stored objects and their resourceVersions"));
    splitDockWidget(clients, objects, Qt::Vertical);
    addPanel(QStringLiteral("inspectorDock"), tr("Inspector"), Qt::RightDockWidgetArea,
             tr("The selected operation: request, Status, diff"));

    QDockWidget *first = nullptr;
    const std::pair<const char *, QString> bottom[] = {
        {"conflictsDock", tr("Conflicts")}, {"streamsDock", tr("Streams")}, {"serverLogDock", tr("Server log")},
        {"verdictsDock", tr("Verdicts")},   {"explanationDock", tr("Explanation")},
    };
    for (const auto &[name, title] : bottom) {
        QDockWidget *dock = addPanel(QString::fromLatin1(name), title, Qt::BottomDockWidgetArea, title);
        if (first)
            tabifyDockWidget(first, dock);
        else
            first = dock;
    }
    first->raise();

    statusBar()->showMessage(tr("server off"));
    resize(1280, 800);
    restoreLayout();
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addPanel(const QString &objectName, const QString &title, Qt::DockWidgetArea area,
                                  const QString &placeholder)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(placeholderLabel(placeholder, dock));
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace rvscope::ui
