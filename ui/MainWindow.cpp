// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include <QtCore/QSettings>
#include <QtCore/QTimer>
#include <QtGui/QAction>
#include <QtGui/QCloseEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QToolBar>

#include "clients/ClientsPanel.h"
#include "conflicts/ConflictsPanel.h"
#include "engine/Engine.h"
#include "inspector/InspectorPanel.h"
#include "objects/ObjectsPanel.h"
#include "scenario/ExplanationPanel.h"
#include "scenario/ScenarioControls.h"
#include "serverpanel/ServerPanel.h"
#include "serverpanel/StorageDescription.h"
#include "streams/StreamsPanel.h"
#include "timeline/TimelineView.h"
#include "faults/FaultsPanel.h"
#include "verdicts/VerdictsPanel.h"

namespace rvscope::ui {

MainWindow::MainWindow(engine::Engine &engine, QWidget *parent, const QString &firstScenario)
    : QMainWindow(parent)
    , m_engine(engine)
{
    setObjectName(QStringLiteral("MainWindow"));
    setWindowTitle(QStringLiteral("rvscope"));
    setDockNestingEnabled(true);

    m_timeline = new TimelineView(this);
    m_timeline->setObjectName(QStringLiteral("timeline"));
    setCentralWidget(m_timeline);
    connect(&m_engine, &engine::Engine::operationsRecorded, m_timeline, &TimelineView::appendOperations);
    connect(&m_engine, &engine::Engine::historyReset, m_timeline, &TimelineView::clear);
    connect(m_timeline, &TimelineView::operationSelected, this, &MainWindow::selectOperation);

    // The layout of UI.md: clients and objects left, inspector right, tabbed panels below.
    auto *clientsPanel = new ClientsPanel(m_engine, this);
    QDockWidget *clients = addPanel(QStringLiteral("clientsDock"), tr("Clients"), Qt::LeftDockWidgetArea, clientsPanel);
    auto *objectsPanel = new ObjectsPanel(m_engine, this);
    QDockWidget *objects = addPanel(QStringLiteral("objectsDock"), tr("Objects"), Qt::LeftDockWidgetArea, objectsPanel);
    splitDockWidget(clients, objects, Qt::Vertical);
    m_inspector = new InspectorPanel(m_engine, this);
    QDockWidget *inspector = addPanel(QStringLiteral("inspectorDock"), tr("Inspector"), Qt::RightDockWidgetArea, m_inspector);

    m_explanation = new ExplanationPanel(m_engine, this);
    QDockWidget *explanation = addPanel(QStringLiteral("explanationDock"), tr("Explanation"), Qt::BottomDockWidgetArea,
                                        m_explanation);
    m_conflicts = new ConflictsPanel(m_engine, this);
    m_streams = new StreamsPanel(m_engine, this);
    auto *streams = m_streams;
    auto *server = new ServerPanel(m_engine, this);
    auto *verdicts = new VerdictsPanel(m_engine, this);
    const std::pair<const char *, std::pair<QString, QWidget *>> bottom[] = {
        {"conflictsDock", {tr("Conflicts"), m_conflicts}},
        {"streamsDock", {tr("Streams"), streams}},
        {"serverLogDock", {tr("Server"), server}},
        {"verdictsDock", {tr("Verdicts"), verdicts}},
        {"faultsDock", {tr("Faults"), new FaultsPanel(m_engine, this)}},
    };
    for (const auto &[name, panel] : bottom) {
        QDockWidget *dock = addPanel(QString::fromLatin1(name), panel.first, Qt::BottomDockWidgetArea, panel.second);
        tabifyDockWidget(explanation, dock);
    }
    // One selection across panels: the timeline, the conflicts table and the request log.
    connect(m_conflicts, &ConflictsPanel::operationSelected, this, &MainWindow::selectOperation);
    connect(server, &ServerPanel::operationSelected, this, &MainWindow::selectOperation);
    // The timeline overlays the watcher selected in the Streams panel (UI.md "Watch overlay").
    // Connected after the panel's own connection: its events model has a batch before the timeline.
    connect(&m_engine, &engine::Engine::watchEventsRecorded, m_timeline, &TimelineView::appendWatchEvents);
    connect(m_streams, &StreamsPanel::watcherSelected, this, [this](const QString &watcherId) {
        m_timeline->showWatchDeliveries(watcherId, m_streams->deliveries(watcherId));
    });
    m_timeline->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_timeline, &QWidget::customContextMenuRequested, this, &MainWindow::showTimelineMenu);
    explanation->raise();
    // A first-run layout with room for every panel; restoreLayout() replaces it later.
    resizeDocks({clients, inspector}, {300, 340}, Qt::Horizontal);
    resizeDocks({explanation}, {240}, Qt::Vertical);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    m_scenario = new ScenarioControls(m_engine, this);
    m_scenario->addTo(toolbar);
    toolbar->addSeparator();
    QAction *race = toolbar->addAction(tr("Race 8 clients"));
    race->setObjectName(QStringLiteral("raceAction"));
    race->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    race->setToolTip(tr("Launch 8 RetryOnConflict clients on one ConfigMap, 50 increments each (Ctrl+R)"));
    connect(race, &QAction::triggered, this, &MainWindow::raceClients);
    toolbar->addSeparator();
    m_serverAction = toolbar->addAction(tr("Server"));
    m_serverAction->setObjectName(QStringLiteral("serverAction"));
    m_serverAction->setCheckable(true);
    m_serverAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_serverAction->setToolTip(tr("Start or stop the embedded Kubernetes API server (Ctrl+E)"));
    connect(m_serverAction, &QAction::triggered, this, &MainWindow::toggleServer);
    createMenus();

    m_revisionLabel = new QLabel(this);
    m_revisionLabel->setObjectName(QStringLiteral("revisionLabel"));
    m_rateLabel = new QLabel(tr("0 ops/s · 0 409s/s"), this);
    m_rateLabel->setObjectName(QStringLiteral("rateLabel"));
    m_serverLabel = new QLabel(tr("server off"), this);
    m_serverLabel->setObjectName(QStringLiteral("serverLabel"));
    m_serverLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(m_revisionLabel);
    statusBar()->addWidget(m_rateLabel);
    if (!m_engine.journalEnabled()) {
        // Never calm while something happens (UI.md): without the journal nothing is drawn,
        // so the window says why instead of looking idle.
        auto *journalOff = new QLabel(tr("history journal off (--journal-size 0)"), this);
        journalOff->setObjectName(QStringLiteral("journalOffLabel"));
        journalOff->setStyleSheet(QStringLiteral("QLabel { color: #D55E00; font-weight: bold; }"));
        statusBar()->addPermanentWidget(journalOff);
        m_rateLabel->setText(tr("ops/s not counted"));
        m_timeline->setEmptyText(
            tr("The history journal is off (--journal-size 0): operations are served but not recorded, so the "
               "timeline, the Clients, Objects and Conflicts tables and the checkers have nothing to show. Start "
               "rvscope without --journal-size 0 to see them."));
    }
    m_storageLabel = new QLabel(storageText(m_engine.options()), this);
    m_storageLabel->setObjectName(QStringLiteral("storageLabel"));
    m_storageLabel->setToolTip(storageDetails(m_engine.options()));
    statusBar()->addPermanentWidget(m_storageLabel);
    // A scenario (or a reset) runs on a fresh in-memory store, whatever served before.
    connect(&m_engine, &engine::Engine::historyReset, this, [this] {
        m_storageLabel->setText(scenarioStorageText());
        m_storageLabel->setToolTip(tr("Scenarios run on a fresh in-memory store; restart rvscope to serve from %1 "
                                      "again.")
                                       .arg(storageText(m_engine.options())));
    });
    statusBar()->addPermanentWidget(m_serverLabel);
    connect(&m_engine, &engine::Engine::serverStateChanged, this, &MainWindow::handleServerState);
    connect(&m_engine, &engine::Engine::statsUpdated, this, &MainWindow::handleStats);
    connect(&m_engine, &engine::Engine::operationsRecorded, this, [this](const engine::OperationBatch &batch) {
        m_windowOps += static_cast<int>(batch.size());
        for (const auto &op : batch)
            m_windowConflicts += op.conflict();
    });
    connect(&m_engine, &engine::Engine::errorOccurred, this,
            [this](const QString &message) { statusBar()->showMessage(message, 8000); });
    auto *rates = new QTimer(this);
    connect(rates, &QTimer::timeout, this, &MainWindow::updateRates);
    rates->start(1000);
    m_rateWindow.start();
    handleServerState(m_engine.serverState());
    handleStats(m_engine.stats());

    resize(1400, 860);
    restoreLayout();
    if (!firstScenario.isEmpty())
        m_scenario->load(firstScenario);
}

MainWindow::~MainWindow() = default;


QDockWidget *MainWindow::addPanel(const QString &objectName, const QString &title, Qt::DockWidgetArea area, QWidget *panel)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::selectOperation(quint64 id)
{
    m_timeline->selectOperation(id);
    m_inspector->showOperation(id);
    m_conflicts->selectOperation(id);
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    if (settings.value(QStringLiteral("mainWindow/dark"), false).toBool())
        setDarkPalette(true);
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
    m_revisionLabel->setText(tr("%1 · %2 objects · %3 watches")
                                 .arg(stats.revisionText())
                                 .arg(qulonglong(stats.objects))
                                 .arg(qulonglong(stats.openWatches)));
}

void MainWindow::updateRates()
{
    const double seconds = std::max(0.001, double(m_rateWindow.restart()) / 1000.0);
    if (!m_engine.journalEnabled())
        return; // rates are counted from journaled operations
    m_rateLabel->setText(tr("%1 ops/s · %2 409s/s")
                             .arg(qRound(m_windowOps / seconds))
                             .arg(qRound(m_windowConflicts / seconds)));
    m_windowOps = 0;
    m_windowConflicts = 0;
}

void MainWindow::toggleServer()
{
    if (m_engine.serverState().running) {
        m_engine.stopServer();
        return;
    }
    // Where it last ran, else where the command line asked for.
    const engine::ServerState last = m_engine.serverState();
    const engine::EngineOptions &options = m_engine.options();
    m_engine.startServer(last.address.isNull() ? options.address : last.address,
                         last.port != 0 ? last.port : options.port);
}

void MainWindow::raceClients()
{
    engine::ClientLaunch launch;
    launch.clients = 8;
    launch.strategy = QStringLiteral("retry-default");
    launch.operations = 50;
    m_engine.launchClients(launch);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace rvscope::ui
