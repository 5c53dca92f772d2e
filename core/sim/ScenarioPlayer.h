// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include <QtCore/QElapsedTimer>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include "sim/ScenarioRunner.h"

namespace rvscope::sim {

class VirtualClock;

// Plays a scenario on a virtual clock paced against wall time, like a media player:
// play/pause/step/seek and a speed factor (1 = real time, 0 = as fast as possible). Between
// two steps it waits `stepInterval` of virtual time so that a class can follow; think times
// and backoffs of workload steps run on the same clock, so a paused scenario freezes
// mid-race and resumes exactly where it was. Seeking backwards is the owner's job (replay
// from a fresh core: a run is a function of its seed). Core thread only.
class ScenarioPlayer final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScenarioPlayer)

public:
    ScenarioPlayer(Scenario scenario, ScenarioContext context, std::shared_ptr<VirtualClock> clock,
                   QObject *parent = nullptr);
    ~ScenarioPlayer() override;

    const Scenario &scenario() const;
    std::size_t nextStep() const;
    bool playing() const { return m_mode == Mode::Playing && !m_finished; }
    bool finished() const { return m_finished; }
    double speed() const { return m_speed; }

    void play();
    void pause();
    // Runs the next step at full speed, then pauses.
    void step();
    // Runs at full speed until `stepIndex` steps are done, then pauses (forward only).
    void runTo(std::size_t stepIndex);
    void setSpeed(double speed);
    void setStepInterval(std::chrono::milliseconds interval) { m_stepInterval = interval; }
    // Stops for good: workloads and watches end, sleeping coroutines are released.
    void stop();

Q_SIGNALS:
    void stepCompleted(const rvscope::sim::StepResult &result);
    void stateChanged();
    void finishedPlaying(const std::vector<rvscope::sim::CheckResult> &checks);

private:
    enum class Mode { Paused, Playing, Fast };
    struct CommandAwaiter;
    QCoro::Task<> loop();
    void resumeLoop();
    void setMode(Mode mode);
    void handleTick();

    std::shared_ptr<ScenarioRunner> m_runner;
    std::shared_ptr<VirtualClock> m_clock;
    Mode m_mode = Mode::Paused;
    std::size_t m_fastUntil = 0;
    double m_speed = 1.0;
    std::chrono::milliseconds m_stepInterval{1500};
    QTimer m_ticker;
    QElapsedTimer m_wall;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
    bool m_loopRunning = false;
    void *m_waiting = nullptr; // the loop's coroutine address, parked until the next play/step
    bool m_finished = false;
    bool m_stopped = false;
};

} // namespace rvscope::sim
