// SPDX-License-Identifier: MIT
#include "scenario/ScenarioControls.h"

#include <QtGui/QAction>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMenu>
#include <QtWidgets/QStyle>
#include <QtWidgets/QToolBar>

#include "engine/Engine.h"

namespace rvscope::ui {

ScenarioControls::ScenarioControls(engine::Engine &engine, QWidget *window)
    : QObject(window)
    , m_engine(engine)
{
    QStyle *style = window->style();
    m_chooser = new QComboBox(window);
    m_chooser->setObjectName(QStringLiteral("scenarioChooser"));
    m_chooser->setToolTip(tr("Scenario: a scripted race with an explanation per step"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_chooser, &QComboBox::activated, this, &ScenarioControls::handleChosen);

    m_speed = new QComboBox(window);
    m_speed->setObjectName(QStringLiteral("speedChooser"));
    m_speed->setToolTip(tr("Playback speed of the scenario's virtual clock"));
    const std::pair<QString, double> speeds[] = {{tr("0.25×"), 0.25}, {tr("0.5×"), 0.5}, {tr("1×"), 1.0},
                                                 {tr("2×"), 2.0},     {tr("5×"), 5.0},   {tr("max"), 0.0}};
    for (const auto &[label, factor] : speeds)
        m_speed->addItem(label, factor);
    m_speed->setCurrentIndex(2);
    connect(m_speed, &QComboBox::activated, this,
            [this](int index) { m_engine.setScenarioSpeed(m_speed->itemData(index).toDouble()); });

    m_play = new QAction(style->standardIcon(QStyle::SP_MediaPlay), tr("Play"), this);
    m_play->setObjectName(QStringLiteral("playAction"));
    m_play->setShortcut(QKeySequence(Qt::Key_Space));
    m_play->setToolTip(tr("Play or pause the scenario (Space)"));
    connect(m_play, &QAction::triggered, this, &ScenarioControls::togglePlay);

    m_step = new QAction(style->standardIcon(QStyle::SP_MediaSeekForward), tr("Step"), this);
    m_step->setObjectName(QStringLiteral("stepAction"));
    m_step->setShortcut(QKeySequence(Qt::Key_Right));
    m_step->setToolTip(tr("Run the next step, then pause (→)"));
    connect(m_step, &QAction::triggered, &m_engine, &engine::Engine::stepScenario);

    m_stepBack = new QAction(style->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step back"), this);
    m_stepBack->setObjectName(QStringLiteral("stepBackAction"));
    m_stepBack->setShortcut(QKeySequence(Qt::Key_Left));
    m_stepBack->setToolTip(tr("Replay from the start up to the previous step (←)"));
    connect(m_stepBack, &QAction::triggered, &m_engine, &engine::Engine::stepBackScenario);

    m_restart = new QAction(style->standardIcon(QStyle::SP_MediaSkipBackward), tr("Restart"), this);
    m_restart->setObjectName(QStringLiteral("restartAction"));
    m_restart->setShortcut(QKeySequence(Qt::Key_Home));
    m_restart->setToolTip(tr("Back to step 0 on a fresh core (Home)"));
    connect(m_restart, &QAction::triggered, &m_engine, &engine::Engine::restartScenario);

    m_open = new QAction(tr("Open scenario file…"), this);
    m_open->setObjectName(QStringLiteral("openScenarioAction"));
    connect(m_open, &QAction::triggered, this, [this, window] {
        const QString path = QFileDialog::getOpenFileName(window, tr("Open scenario"), QString(),
                                                          tr("Scenario files (*.json)"));
        if (!path.isEmpty())
            load(path);
    });

    connect(&m_engine, &engine::Engine::scenarioStateChanged, this, &ScenarioControls::handleState);
    auto fillChooser = [this] {
        m_chooser->clear();
        for (const engine::ScenarioInfo &info : m_engine.builtInScenarios())
            m_chooser->addItem(info.title, info.name);
    };
    connect(&m_engine, &engine::Engine::coreStarted, this, fillChooser);
    fillChooser();
    handleState(m_engine.scenarioState());
}

void ScenarioControls::addTo(QToolBar *toolbar)
{
    toolbar->addWidget(m_chooser);
    toolbar->addAction(m_restart);
    toolbar->addAction(m_stepBack);
    toolbar->addAction(m_play);
    toolbar->addAction(m_step);
    toolbar->addWidget(m_speed);
}

void ScenarioControls::addTo(QMenu *menu)
{
    menu->addAction(m_play);
    menu->addAction(m_step);
    menu->addAction(m_stepBack);
    menu->addAction(m_restart);
    menu->addSeparator();
    menu->addAction(m_open);
}

void ScenarioControls::load(const QString &nameOrPath)
{
    const int index = m_chooser->findData(nameOrPath);
    if (index >= 0)
        m_chooser->setCurrentIndex(index);
    m_engine.loadScenario(nameOrPath);
    m_engine.setScenarioSpeed(m_speed->currentData().toDouble());
}

void ScenarioControls::handleChosen(int index)
{
    load(m_chooser->itemData(index).toString());
}

void ScenarioControls::togglePlay()
{
    if (m_playing)
        m_engine.pauseScenario();
    else
        m_engine.playScenario();
}

void ScenarioControls::handleState(const engine::ScenarioState &state)
{
    m_playing = state.playing;
    QStyle *style = m_chooser->style();
    m_play->setIcon(style->standardIcon(state.playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setText(state.playing ? tr("Pause") : tr("Play"));
    const bool loaded = !state.name.isEmpty();
    m_play->setEnabled(loaded && !state.finished);
    m_step->setEnabled(loaded && !state.finished);
    m_stepBack->setEnabled(loaded && state.nextStep > 0);
    m_restart->setEnabled(loaded);
    const int index = m_chooser->findData(state.name);
    if (index >= 0 && index != m_chooser->currentIndex())
        m_chooser->setCurrentIndex(index);
}

} // namespace rvscope::ui
