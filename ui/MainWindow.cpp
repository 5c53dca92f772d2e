// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include <QtCore/QSettings>
#include <QtGui/QAction>
#include <QtGui/QCloseEvent>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QToolBar>

#include "engine/Engine.h"

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

MainWindow::MainWindow(engine::Engine &engine, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(engine)
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
    QDockWidget *inspector = addPanel(QStringLiteral("inspectorDock"), tr("Inspector"), Qt::RightDockWidgetArea,
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
    // A first-run layout with room for every panel; restoreLayout() replaces it later.
    resizeDocks({clients, inspector}, {280, 320}, Qt::Horizontal);
    resizeDocks({first}, {220}, Qt::Vertical);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    m_serverAction = toolbar->addAction(tr("Server"));
    m_serverAction->setObjectName(QStringLiteral("serverAction"));
    m_serverAction->setCheckable(true);
    m_serverAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_serverAction->setToolTip(tr("Start or stop the embedded Kubernetes API server (Ctrl+E)"));
    connect(m_serverAction, &QAction::triggered, this, &MainWindow::toggleServer);

    m_revisionLabel = new QLabel(this);
    m_revisionLabel->setObjectName(QStringLiteral("revisionLabel"));
    m_serverLabel = new QLabel(tr("server off"), this);
    m_serverLabel->setObjectName(QStringLiteral("serverLabel"));
    m_serverLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(m_revisionLabel);
    statusBar()->addPermanentWidget(m_serverLabel);
    connect(&m_engine, &engine::Engine::serverStateChanged, this, &MainWindow::handleServerState);
    connect(&m_engine, &engine::Engine::statsUpdated, this, &MainWindow::handleStats);
    handleServerState(m_engine.serverState());
    handleStats(m_engine.stats());

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

void MainWindow::handleServerState(const engine::ServerState &state)
{
    m_serverAction->setChecked(state.running);
    if (state.running)
        m_serverLabel->setText(tr("server %1").arg(state.url()));
    else if (!state.error.isEmpty())
        m_serverLabel->setText(tr("server off: %1").arg(state.error));
    else
        m_serverLabel->setText(tr("server off"));
}

void MainWindow::handleStats(const engine::CoreStats &stats)
{
    m_revisionLabel->setText(tr("revision %1 · %2 objects · %3 watches")
                                 .arg(stats.revision)
                                 .arg(qulonglong(stats.objects))
                                 .arg(qulonglong(stats.openWatches)));
}

void MainWindow::toggleServer()
{
    if (m_engine.serverState().running) {
        m_engine.stopServer();
        return;
    }
    const engine::ServerState last = m_engine.serverState();
    m_engine.startServer(last.address.isNull() ? QHostAddress(QHostAddress::LocalHost) : last.address,
                         last.port != 0 ? last.port : 8001);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace rvscope::ui
