// SPDX-License-Identifier: MIT
// CoreWorker: playing scenarios. Restarting or stepping back replays from a fresh core, which
// gives the same history again because a scenario run is a function of its seed.
#include "engine/CoreWorker.h"

#include "api/ApiHandler.h"
#include "history/Journal.h"
#include "server/ApiServer.h"
#include "sim/Clock.h"
#include "sim/ScenarioAccess.h"
#include "sim/ScenarioLibrary.h"
#include "sim/ScenarioPlayer.h"
#include "sim/Transport.h"
#include "storage/MemoryStorage.h"

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

void CoreWorker::loadScenario(const QString &nameOrPath, quint64 seed)
{
    auto scenario = sim::ScenarioLibrary::load(nameOrPath.toStdString());
    if (!scenario) {
        Q_EMIT errorOccurred(toQ(scenario.error().message));
        return;
    }
    m_scenarioSource = nameOrPath;
    m_scenarioSeed = seed;
    Q_EMIT scenarioLoaded(infoOf(*scenario));
    createPlayer(0);
}

QCoro::Task<> CoreWorker::createPlayer(std::size_t runTo)
{
    auto scenario = sim::ScenarioLibrary::load(m_scenarioSource.toStdString());
    if (!scenario)
        co_return;
    // A scenario starts from a fresh core: revisions from 1, an empty journal. The server,
    // if running, keeps its port and serves the new core.
    QPointer<CoreWorker> self(this);
    const RebuildGuard guard(this);
    m_player.reset();
    const bool serving = m_server != nullptr;
    const quint16 port = serving ? m_server->port() : 0;
    if (serving)
        stopServer();
    co_await buildCore(/*durable=*/false);
    if (!self)
        co_return;
    Q_EMIT historyReset();
    if (serving)
        startServer(m_serverAddress, port);

    auto clock = std::make_shared<sim::VirtualClock>();
    sim::ScenarioContext context;
    context.transport = std::make_shared<sim::InProcessTransport>(m_handler);
    context.clock = clock;
    context.journal = m_journal;
    context.seed = m_scenarioSeed;
    // Every series at its own current revision; the step reports the main series'.
    std::vector<std::shared_ptr<storage::MemoryStorage>> storages = allStorages();
    context.compact = [storages]() -> QCoro::Task<model::Result<std::int64_t>> {
        const std::int64_t revision = storages.front()->revision();
        for (const auto &storage : storages) {
            auto compacted = co_await storage->compact(storage->revision());
            if (!compacted)
                co_return std::move(compacted).error();
        }
        co_return revision;
    };
    // A scenario with an "access" section runs its clients as its identities; the GUI's own
    // requests (watches, launched clients) then act as its setup identity.
    if (auto access = sim::installScenarioAccess(*scenario, *m_handler, *m_registry, context, [self] {
            if (self)
                self->recheckWatches();
        });
        !access)
        Q_EMIT errorOccurred(toQ(access.error().message));
    m_guiToken.clear();
    if (scenario->access)
        if (const sim::ScenarioIdentity *setup = scenario->access->identity("setup"))
            m_guiToken = setup->token;
    m_player = std::make_unique<sim::ScenarioPlayer>(std::move(scenario).value(), std::move(context), clock);
    connect(m_player.get(), &sim::ScenarioPlayer::stepCompleted, this, &CoreWorker::handleStepCompleted);
    connect(m_player.get(), &sim::ScenarioPlayer::finishedPlaying, this, &CoreWorker::handleScenarioFinished);
    connect(m_player.get(), &sim::ScenarioPlayer::stateChanged, this, &CoreWorker::emitScenarioState);
    if (runTo > 0)
        m_player->runTo(runTo);
    emitScenarioState();
}

void CoreWorker::playScenario()
{
    if (m_player)
        m_player->play();
}

void CoreWorker::pauseScenario()
{
    if (m_player)
        m_player->pause();
}

void CoreWorker::stepScenario()
{
    if (m_player)
        m_player->step();
}

void CoreWorker::stepBackScenario()
{
    if (!m_player)
        return;
    const std::size_t done = m_player->nextStep();
    const double speed = m_player->speed();
    createPlayer(done > 0 ? done - 1 : 0);
    m_player->setSpeed(speed);
}

void CoreWorker::restartScenario()
{
    if (!m_player)
        return;
    const double speed = m_player->speed();
    createPlayer(0);
    m_player->setSpeed(speed);
}

void CoreWorker::setScenarioSpeed(double speed)
{
    if (m_player)
        m_player->setSpeed(speed);
}

void CoreWorker::emitScenarioState()
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

void CoreWorker::handleStepCompleted(const sim::StepResult &result)
{
    // The step's requests are in the journal: send them before the step's report.
    flushOperations();
    flushWatchEvents();
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
    emitScenarioState();
}

void CoreWorker::handleScenarioFinished(const std::vector<sim::CheckResult> &checks)
{
    flushOperations();
    flushWatchEvents();
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
    emitScenarioState();
    Q_EMIT verdictsReady(verdicts);
}

} // namespace rvscope::engine
