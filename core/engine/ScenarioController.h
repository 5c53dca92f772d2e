// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QtCore/QObject>

#include "engine/ScenarioValues.h"

namespace rvscope::sim {
class ScenarioPlayer;
struct CheckResult;
struct Scenario;
struct StepResult;
}

namespace rvscope::engine {

struct Core;
class AccessController;
class JournalFeed;

// Plays the loaded scenario on the current core with a sim::ScenarioPlayer. Every load,
// restart and step back replays from a fresh core, which gives the same history again
// because a scenario run is a function of its seed. Core thread only.
class ScenarioController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScenarioController)

public:
    // Given by the owner of the core: replaces it with a fresh one (revisions from 1, an
    // empty journal), then runs `then` on it before any other request of the Engine.
    using FreshCore = std::function<void(std::function<void()> then)>;

    ScenarioController(const Core &core, AccessController &access, JournalFeed &feed, FreshCore freshCore,
                       QObject *parent);
    ~ScenarioController() override;

    // The built-in scenarios' names, titles and descriptions.
    static ScenarioList builtIns();

    // A built-in scenario by name, or a scenario file: scenarioLoaded, then a fresh core and
    // a player waiting at step 0. errorOccurred when it does not load.
    void load(const QString &nameOrPath, quint64 seed);
    void play();
    void pause();
    void step();
    void stepBack();
    void restart();
    void setSpeed(double speed);

Q_SIGNALS:
    void scenarioLoaded(const rvscope::engine::ScenarioInfo &info);
    void scenarioStateChanged(const rvscope::engine::ScenarioState &state);
    void scenarioStepCompleted(const rvscope::engine::StepReport &step);
    void verdictsReady(const rvscope::engine::VerdictList &verdicts);
    void errorOccurred(const QString &message);

private:
    // A fresh core and a player run to step `runTo`, then set to `speed`.
    void replay(std::size_t runTo, std::optional<double> speed);
    void startPlayer(sim::Scenario scenario, std::size_t runTo);
    void emitState();
    void handleStepCompleted(const sim::StepResult &result);
    void handleFinished(const std::vector<sim::CheckResult> &checks);

    const Core &m_core;
    AccessController &m_access;
    JournalFeed &m_feed;
    FreshCore m_freshCore;
    QString m_source;
    quint64 m_seed = 1;
    std::unique_ptr<sim::ScenarioPlayer> m_player;
};

} // namespace rvscope::engine
