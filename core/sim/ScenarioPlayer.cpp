// SPDX-License-Identifier: MIT
#include "sim/ScenarioPlayer.h"


#include <coroutine>
#include <utility>

#include "sim/Clock.h"

namespace rvscope::sim {
namespace {
constexpr int TICK_MS = 8;
// Work done per tick at full speed, so that the core thread keeps serving its sockets.
constexpr qint64 FAST_BUDGET_NS = 12'000'000;
// After a long stall (a debugger, a suspended laptop) virtual time does not leap ahead.
constexpr qint64 MAX_TICK_NS = 100'000'000;
} // namespace

struct ScenarioPlayer::CommandAwaiter {
    ScenarioPlayer *player;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> handle) noexcept { player->m_waiting = handle.address(); }
    void await_resume() const noexcept {}
};

ScenarioPlayer::ScenarioPlayer(Scenario scenario, ScenarioContext context, std::shared_ptr<VirtualClock> clock,
                               QObject *parent)
    : QObject(parent)
    , m_runner(std::make_shared<ScenarioRunner>(std::move(scenario), std::move(context)))
    , m_clock(std::move(clock))
{
    m_ticker.setInterval(TICK_MS);
    connect(&m_ticker, &QTimer::timeout, this, &ScenarioPlayer::handleTick);
}

ScenarioPlayer::~ScenarioPlayer()
{
    stop();
}

const Scenario &ScenarioPlayer::scenario() const
{
    return m_runner->scenario();
}

std::size_t ScenarioPlayer::nextStep() const
{
    return m_runner->nextStep();
}

void ScenarioPlayer::play()
{
    setMode(Mode::Playing);
}

void ScenarioPlayer::pause()
{
    setMode(Mode::Paused);
}

void ScenarioPlayer::step()
{
    // Steps requested while one is still running add up (a teacher pressing → twice).
    const std::size_t from = m_mode == Mode::Fast ? std::max(m_fastUntil, m_runner->nextStep()) : m_runner->nextStep();
    runTo(from + 1);
}

void ScenarioPlayer::runTo(std::size_t stepIndex)
{
    m_fastUntil = std::min(stepIndex, m_runner->scenario().steps.size());
    if (m_fastUntil <= m_runner->nextStep() && m_loopRunning)
        return;
    setMode(Mode::Fast);
}

void ScenarioPlayer::setSpeed(double speed)
{
    m_speed = std::max(0.0, speed);
    Q_EMIT stateChanged();
}

void ScenarioPlayer::setMode(Mode mode)
{
    if (m_stopped || m_finished)
        return;
    m_mode = mode;
    if (mode == Mode::Paused) {
        m_ticker.stop();
    } else {
        m_wall.restart();
        m_ticker.start();
        if (!m_loopRunning) {
            m_loopRunning = true;
            loop();
        } else if (m_waiting) {
            // Resumed from the event loop, not from inside this call: the loop may change
            // the mode again, and the caller should see its own call complete first.
            QMetaObject::invokeMethod(this, &ScenarioPlayer::resumeLoop, Qt::QueuedConnection);
        }
    }
    Q_EMIT stateChanged();
}

void ScenarioPlayer::resumeLoop()
{
    if (m_mode == Mode::Paused || !m_waiting)
        return;
    std::coroutine_handle<>::from_address(std::exchange(m_waiting, nullptr)).resume();
}

void ScenarioPlayer::handleTick()
{
    // The clock moves only here: at full speed as much as fits in the budget, otherwise by
    // the wall time since the last tick times the speed.
    if (m_mode == Mode::Fast || m_speed == 0.0) {
        QElapsedTimer budget;
        budget.start();
        while (!m_clock->idle() && budget.nsecsElapsed() < FAST_BUDGET_NS && !m_stopped)
            m_clock->runNext();
        m_wall.restart();
        return;
    }
    const qint64 elapsed = std::min(m_wall.nsecsElapsed(), MAX_TICK_NS);
    m_wall.restart();
    m_clock->advanceBy(std::chrono::nanoseconds(static_cast<std::int64_t>(static_cast<double>(elapsed) * m_speed)));
}

QCoro::Task<> ScenarioPlayer::loop()
{
    std::shared_ptr<bool> alive = m_alive;
    std::shared_ptr<ScenarioRunner> runner = m_runner;
    std::shared_ptr<VirtualClock> clock = m_clock;
    if (runner->nextStep() == 0)
        co_await runner->setup();
    while (*alive && !runner->finished() && !m_stopped) {
        StepResult result = co_await runner->runNext();
        if (!*alive || m_stopped)
            co_return;
        Q_EMIT stepCompleted(result);
        if (m_mode == Mode::Fast && runner->nextStep() >= m_fastUntil) {
            setMode(Mode::Paused);
        }
        if (runner->finished())
            break;
        // Wait until the player is told to go on; in play mode, pace the steps.
        if (m_mode == Mode::Paused)
            co_await CommandAwaiter{this};
        if (!*alive || m_stopped)
            co_return;
        if (m_mode == Mode::Playing) {
            const std::chrono::nanoseconds interval = m_stepInterval;
            co_await clock->sleep(interval);
            if (!*alive || m_stopped)
                co_return;
        }
    }
    m_finished = true;
    m_ticker.stop();
    m_loopRunning = false;
    std::vector<CheckResult> checks = runner->runChecks();
    Q_EMIT stateChanged();
    Q_EMIT finishedPlaying(checks);
}

void ScenarioPlayer::stop()
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_ticker.stop();
    // The loop checks `alive` before touching the player, so it may resume below even from
    // the destructor.
    *m_alive = false;
    m_runner->stop();
    // Release every parked coroutine; each sees its stop flag and returns.
    m_clock->cancel();
    // A loop waiting for the next command must see the stop too.
    if (m_waiting)
        std::coroutine_handle<>::from_address(std::exchange(m_waiting, nullptr)).resume();
    Q_EMIT stateChanged();
}

} // namespace rvscope::sim
