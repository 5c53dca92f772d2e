// SPDX-License-Identifier: MIT
#include "engine/ScenarioController.h"

#include <QtCore/QPointer>

#include "api/ApiHandler.h"
#include "engine/AccessController.h"
#include "engine/Core.h"
#include "engine/JournalFeed.h"
#include "history/Journal.h"
#include "sim/Clock.h"
#include "sim/ScenarioAccess.h"
#include "sim/ScenarioLibrary.h"
#include "sim/ScenarioPlayer.h"
#include "sim/Transport.h"
#include "storage/Storage.h"

namespace rvscope::engine {
namespace {

QString toQ(const std::string &text)
{
    return QString::fromStdString(text);
}

ScenarioInfo infoOf(const sim::Scenario &scenario)
{
    ScenarioInfo info;
    info.name = toQ(scenario.name);
    info.title = toQ(scenario.title);
    info.description = toQ(scenario.description);
    for (const sim::ScenarioStep &step : scenario.steps) {
        QString label = toQ(step.client) + u' ' + toQ(sim::ScenarioStep::actionName(step.action));
        if (!step.object.empty())
            label += u' ' + toQ(step.object);
        info.stepLabels.append(label);
        info.stepExplanations.append(toQ(step.explain));
    }
    return info;
}

} // namespace

ScenarioController::ScenarioController(const Core &core, AccessController &access, JournalFeed &feed,
                                       FreshCore freshCore, QObject *parent)
    : QObject(parent)
    , m_core(core)
    , m_access(access)
    , m_feed(feed)
    , m_freshCore(std::move(freshCore))
{
}

ScenarioController::~ScenarioController() = default;

ScenarioList ScenarioController::builtIns()
{
    ScenarioList builtIns;
    for (const sim::Scenario &scenario : sim::ScenarioLibrary::builtIns()) {
        ScenarioInfo info;
        info.name = toQ(scenario.name);
        info.title = toQ(scenario.title);
        info.description = toQ(scenario.description);
        builtIns.append(info);
    }
    return builtIns;
}

void ScenarioController::load(const QString &nameOrPath, quint64 seed)
{
    auto scenario = sim::ScenarioLibrary::load(nameOrPath.toStdString());
    if (!scenario) {
        Q_EMIT errorOccurred(toQ(scenario.error().message));
        return;
    }
    m_source = nameOrPath;
    m_seed = seed;
    Q_EMIT scenarioLoaded(infoOf(*scenario));
    replay(0, std::nullopt);
}

void ScenarioController::replay(std::size_t runTo, std::optional<double> speed)
{
    auto scenario = sim::ScenarioLibrary::load(m_source.toStdString());
    if (!scenario)
        return;
    m_player.reset();
    // A copyable hold on the scenario: std::function wants a copyable callable.
    auto loaded = std::make_shared<sim::Scenario>(std::move(scenario).value());
    m_freshCore([this, loaded, runTo, speed] {
        startPlayer(std::move(*loaded), runTo);
        if (speed)
            m_player->setSpeed(*speed);
    });
}

void ScenarioController::startPlayer(sim::Scenario scenario, std::size_t runTo)
{
    auto clock = std::make_shared<sim::VirtualClock>();
    sim::ScenarioContext context;
    context.transport = std::make_shared<sim::InProcessTransport>(m_core.handler);
    context.clock = clock;
    context.journal = m_core.journal;
    context.seed = m_seed;
    // Every series at its own current revision; the step reports the main series'.
    std::vector<std::shared_ptr<storage::Storage>> storages = m_core.allStorages();
    context.compact = [storages]() -> QCoro::Task<model::Result<std::int64_t>> {
        std::int64_t mainRevision = 0;
        for (const auto &storage : storages) {
            auto current = co_await storage->currentRevision();
            if (!current)
                co_return std::move(current).error();
            if (mainRevision == 0)
                mainRevision = *current;
            auto compacted = co_await storage->compact(*current);
            if (!compacted)
                co_return std::move(compacted).error();
        }
        co_return mainRevision;
    };
    context.fault = sim::faultRulesOf(m_core.handler);
    // A scenario with an "access" section runs its clients as its identities; the GUI's own
    // requests (watches, launched clients) then act as its setup identity.
    QPointer<AccessController> access(&m_access);
    if (auto installed = sim::installScenarioAccess(scenario, *m_core.handler, *m_core.registry, context, [access] {
            if (access)
                access->recheckWatches();
        });
        !installed)
        Q_EMIT errorOccurred(toQ(installed.error().message));
    std::string guiToken;
    if (scenario.access)
        if (const sim::ScenarioIdentity *setup = scenario.access->identity("setup"))
            guiToken = setup->token;
    m_access.setGuiToken(std::move(guiToken));
    m_player = std::make_unique<sim::ScenarioPlayer>(std::move(scenario), std::move(context), clock);
    connect(m_player.get(), &sim::ScenarioPlayer::stepCompleted, this, &ScenarioController::handleStepCompleted);
    connect(m_player.get(), &sim::ScenarioPlayer::finishedPlaying, this, &ScenarioController::handleFinished);
    connect(m_player.get(), &sim::ScenarioPlayer::stateChanged, this, &ScenarioController::emitState);
    if (runTo > 0)
        m_player->runTo(runTo);
    emitState();
}

void ScenarioController::play()
{
    if (m_player)
        m_player->play();
}

void ScenarioController::pause()
{
    if (m_player)
        m_player->pause();
}

void ScenarioController::step()
{
    if (m_player)
        m_player->step();
}

void ScenarioController::stepBack()
{
    if (!m_player)
        return;
    const std::size_t done = m_player->nextStep();
    replay(done > 0 ? done - 1 : 0, m_player->speed());
}

void ScenarioController::restart()
{
    if (!m_player)
        return;
    replay(0, m_player->speed());
}

void ScenarioController::setSpeed(double speed)
{
    if (m_player)
        m_player->setSpeed(speed);
}

void ScenarioController::emitState()
{
    ScenarioState state;
    if (m_player) {
        state.name = toQ(m_player->scenario().name);
        state.nextStep = static_cast<int>(m_player->nextStep());
        state.stepCount = static_cast<int>(m_player->scenario().steps.size());
        state.playing = m_player->playing();
        state.finished = m_player->finished();
        state.speed = m_player->speed();
    }
    Q_EMIT scenarioStateChanged(state);
}

void ScenarioController::handleStepCompleted(const sim::StepResult &result)
{
    // The step's requests are in the journal: send them before the step's report.
    m_feed.flush();
    StepReport report;
    report.index = static_cast<int>(result.index);
    report.client = toQ(result.client);
    report.action = toQ(result.action);
    report.object = toQ(result.object);
    report.status = result.status;
    report.reason = toQ(result.reason);
    report.message = toQ(result.message);
    report.rvSent = toQ(result.resourceVersionSent);
    report.rvProduced = toQ(result.resourceVersionProduced);
    report.expectationMet = result.expectationMet;
    report.outcome = toQ(result.outcome);
    for (const std::string &line : result.details)
        report.details.append(toQ(line));
    report.explain = toQ(result.explain);
    Q_EMIT scenarioStepCompleted(report);
    emitState();
}

void ScenarioController::handleFinished(const std::vector<sim::CheckResult> &checks)
{
    m_feed.flush();
    VerdictList verdicts;
    for (const sim::CheckResult &check : checks) {
        VerdictReport verdict;
        verdict.checker = toQ(check.check.checker);
        verdict.key = toQ(check.check.key);
        verdict.outcome = QString::fromLatin1(history::Verdict::outcomeName(check.verdict.outcome));
        verdict.summary = toQ(check.verdict.summary);
        for (const std::string &finding : check.verdict.findings)
            verdict.findings.append(toQ(finding));
        verdict.expected = check.check.expectPass;
        verdict.asExpected = check.asExpected();
        verdicts.append(verdict);
    }
    emitState();
    Q_EMIT verdictsReady(verdicts);
}

} // namespace rvscope::engine
