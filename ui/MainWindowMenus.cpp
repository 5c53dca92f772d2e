// SPDX-License-Identifier: MIT
// MainWindow: menus, import/export and the palette.
#include "MainWindow.h"

#include <algorithm>

#include <QtCore/QSettings>
#include <QtGui/QAction>
#include <QtGui/QActionGroup>
#include <QtGui/QPainter>
#include <QtGui/QPalette>
#include <QtSvg/QSvgGenerator>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QStyle>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QStyleFactory>

#include "engine/Engine.h"
#include "conflicts/ConflictsPanel.h"
#include "scenario/ScenarioControls.h"
#include "streams/StreamsPanel.h"
#include "streams/WatcherModel.h"
#include "timeline/TimelineView.h"

namespace rvscope::ui {

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *import = file->addAction(tr("&Import history…"), this, &MainWindow::importHistory);
    import->setShortcut(QKeySequence::Open);
    // (Lambdas: triggered(bool checked) would otherwise land in exportHistory's parameter.)
    QAction *exportHistoryAction = file->addAction(tr("&Export history (JSON Lines)…"), this,
                                                   [this] { exportHistory(false); });
    exportHistoryAction->setShortcut(QKeySequence::Save);
    exportHistoryAction->setToolTip(tr("Secrets' values are written as REDACTED"));
    file->addAction(tr("Export history with Secret &values…"), this, [this] { exportHistory(true); });
    file->addAction(tr("Export timeline as &PNG…"), this, &MainWindow::exportTimelinePng);
    file->addAction(tr("Export timeline as &SVG…"), this, &MainWindow::exportTimelineSvg);
    file->addAction(tr("Export conflicts as &CSV…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export conflicts"), QStringLiteral("conflicts.csv"),
                                                          tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            statusBar()->showMessage(m_conflicts->exportCsv(path) ? tr("conflicts written to %1").arg(path)
                                                                  : tr("cannot write %1").arg(path),
                                     8000);
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *scenario = menuBar()->addMenu(tr("&Scenario"));
    m_scenario->addTo(scenario);

    QMenu *clients = menuBar()->addMenu(tr("&Clients"));
    clients->addAction(tr("Race 8 clients"), this, &MainWindow::raceClients);
    clients->addAction(tr("Stop all clients"), &m_engine, &engine::Engine::stopClients);
    clients->addSeparator();
    clients->addAction(tr("Check history"), &m_engine, &engine::Engine::checkHistory);
    clients->addAction(tr("Compact storage"), &m_engine, &engine::Engine::compact);
    clients->addAction(tr("Clear history"), &m_engine, &engine::Engine::clearHistory);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *timeAxis = view->addAction(tr("Time axis"));
    timeAxis->setCheckable(true);
    timeAxis->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    timeAxis->setToolTip(tr("Draw the timeline against time instead of resourceVersion"));
    connect(timeAxis, &QAction::toggled, this, [this](bool time) {
        m_timeline->setAxis(time ? TimelineView::Axis::Time : TimelineView::Axis::ResourceVersion);
    });
    QAction *presentation = view->addAction(tr("Presentation mode"));
    presentation->setCheckable(true);
    presentation->setShortcut(QKeySequence(Qt::Key_F5));
    presentation->setToolTip(tr("Larger marks and fonts for a projector"));
    connect(presentation, &QAction::toggled, this, [this](bool on) { m_timeline->setPresentationScale(on ? 1.7 : 1.0); });
    QAction *dark = view->addAction(tr("Dark palette"));
    dark->setCheckable(true);
    dark->setChecked(QSettings().value(QStringLiteral("mainWindow/dark"), false).toBool());
    connect(dark, &QAction::toggled, this, [this](bool on) {
        setDarkPalette(on);
        QSettings().setValue(QStringLiteral("mainWindow/dark"), on);
    });
    view->addSeparator();
    QAction *fit = view->addAction(tr("Fit timeline"), m_timeline, &TimelineView::fitAll);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_overlayMenu = view->addMenu(tr("&Watch overlay"));
    m_overlayMenu->setObjectName(QStringLiteral("watchOverlayMenu"));
    m_overlayMenu->setToolTip(tr("Draw one watcher's deliveries on the timeline (also: select it in the Streams panel)"));
    m_overlayMenu->setToolTipsVisible(true);
    connect(m_overlayMenu, &QMenu::aboutToShow, this, &MainWindow::fillOverlayMenu);
    view->addSeparator();
    QMenu *panels = view->addMenu(tr("Panels"));
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        panels->addAction(dock->toggleViewAction());

    QMenu *server = menuBar()->addMenu(tr("Se&rver"));
    server->addAction(m_serverAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About rvscope"), this, [this] {
        QMessageBox::about(this, tr("About rvscope"),
                           tr("<b>rvscope</b> shows Kubernetes-style optimistic concurrency at work: "
                              "resourceVersions, 409 conflicts, lost updates and watch streams, on a "
                              "faithful local apiserver that kubectl can talk to."));
    });
}

void MainWindow::fillOverlayMenu()
{
    // Newest watchers first, a screenful of them; the Streams panel lists them all.
    constexpr int MAX_CHOICES = 25;
    m_overlayMenu->clear();
    auto *choices = new QActionGroup(m_overlayMenu);
    const QString current = m_timeline->overlaidWatcher();
    QAction *none = m_overlayMenu->addAction(tr("None"), this, [this] { m_streams->selectWatcher(QString()); });
    none->setCheckable(true);
    none->setChecked(current.isEmpty());
    choices->addAction(none);
    const WatcherModel *watchers = m_streams->watcherModel();
    if (watchers->watcherCount() == 0) {
        m_overlayMenu->addAction(tr("No watchers yet: open a watch in the Streams panel"))->setEnabled(false);
        return;
    }
    m_overlayMenu->addSeparator();
    const int oldest = std::max(0, watchers->watcherCount() - MAX_CHOICES);
    for (int row = watchers->watcherCount() - 1; row >= oldest; --row) {
        const QString id = watchers->watcherId(row);
        const QString collection = watchers->index(row, WatcherModel::CollectionColumn).data().toString();
        QString text = collection.isEmpty() ? id : tr("%1  (%2)").arg(id, collection);
        QAction *choice = m_overlayMenu->addAction(text.replace(QLatin1Char('&'), QStringLiteral("&&")), this,
                                                   [this, id] { m_streams->selectWatcher(id); });
        choice->setCheckable(true);
        choice->setChecked(id == current);
        choices->addAction(choice);
    }
}

void MainWindow::showTimelineMenu(const QPoint &viewportPoint)
{
    QMenu menu(this);
    menu.addAction(tr("Fit all"), m_timeline, &TimelineView::fitAll);
    menu.addSeparator();
    menu.addMenu(m_overlayMenu);
    menu.exec(m_timeline->viewport()->mapToGlobal(viewportPoint));
}

void MainWindow::exportHistory(bool includeSecrets)
{
    const QString path = QFileDialog::getSaveFileName(
        this, includeSecrets ? tr("Export history with Secret values") : tr("Export history"),
        QStringLiteral("history.jsonl"), tr("JSON Lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    m_engine.exportHistory(path, includeSecrets);
    connect(&m_engine, &engine::Engine::historyExported, this, [this](const QString &written, const QString &error) {
        statusBar()->showMessage(error.isEmpty() ? tr("history written to %1").arg(written) : error, 8000);
    }, Qt::SingleShotConnection);
}

void MainWindow::importHistory()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import history"), QString(), tr("JSON Lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    m_engine.importHistory(path);
    connect(&m_engine, &engine::Engine::historyImported, this,
            [this](const QString &read, int operations, const QString &error) {
                statusBar()->showMessage(error.isEmpty() ? tr("%1 operations imported from %2").arg(operations).arg(read)
                                                         : error,
                                         8000);
            },
            Qt::SingleShotConnection);
}

void MainWindow::exportTimelinePng()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), QStringLiteral("timeline.png"),
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const bool saved = m_timeline->renderToImage(m_timeline->viewport()->size() * 2).save(path);
    statusBar()->showMessage(saved ? tr("timeline written to %1").arg(path) : tr("cannot write %1").arg(path), 8000);
}

void MainWindow::exportTimelineSvg()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), QStringLiteral("timeline.svg"),
                                                      tr("SVG images (*.svg)"));
    if (path.isEmpty())
        return;
    statusBar()->showMessage(writeTimelineSvg(path) ? tr("timeline written to %1").arg(path)
                                                    : tr("cannot write %1").arg(path),
                             8000);
}

bool MainWindow::writeTimelineSvg(const QString &path) const
{
    const QSize size = m_timeline->viewport()->size();
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QStringLiteral("rvscope timeline"));
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    m_timeline->renderTo(painter, size);
    return painter.end();
}

void MainWindow::setDarkPalette(bool dark)
{
    if (!dark) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette palette;
    palette.setColor(QPalette::Window, QColor(40, 42, 46));
    palette.setColor(QPalette::WindowText, QColor(225, 225, 225));
    palette.setColor(QPalette::Base, QColor(28, 30, 33));
    palette.setColor(QPalette::AlternateBase, QColor(45, 47, 52));
    palette.setColor(QPalette::Text, QColor(225, 225, 225));
    palette.setColor(QPalette::Button, QColor(50, 52, 57));
    palette.setColor(QPalette::ButtonText, QColor(225, 225, 225));
    palette.setColor(QPalette::Highlight, QColor(60, 120, 200));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::ToolTipBase, QColor(50, 52, 57));
    palette.setColor(QPalette::ToolTipText, QColor(225, 225, 225));
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
    QApplication::setPalette(palette);
}

} // namespace rvscope::ui
