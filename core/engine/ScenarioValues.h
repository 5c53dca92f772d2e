// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QStringList>

// Scenario and checker values that cross from the core thread to the GUI (copied).
namespace rvscope::engine {

struct ScenarioInfo final {
    QString name; // "lost-update"
    QString title;
    QString description;
    QStringList stepLabels;       // "Client #1 get configmaps/default/foo"
    QStringList stepExplanations; // the teacher's text per step
};

struct ScenarioState final {
    QString name;    // empty: no scenario loaded
    int nextStep = 0; // steps done
    int stepCount = 0;
    bool playing = false;
    bool finished = false;
    double speed = 1.0; // 0: as fast as possible
};

// One step's outcome (see sim::StepResult).
struct StepReport final {
    int index = 0;
    QString client;
    QString action;
    QString object;
    int status = 0;
    QString reason;
    QString message;
    QString rvSent;
    QString rvProduced;
    bool expectationMet = true;
    QString outcome;
    QStringList details;
    QString explain;
};

// One checker's verdict on the current history.
struct VerdictReport final {
    QString checker; // lost-update, linearizability, watch
    QString key;     // lost-update: the counter object
    QString outcome; // pass, fail, unknown, no-history (history::Verdict::outcomeName)
    QString summary;
    QStringList findings;
    bool expected = true;    // a scenario's check: whether it expected a pass
    bool asExpected = true;  // outcome matches the expectation (always true outside scenarios if passed)
};

using VerdictList = QList<VerdictReport>;
using ScenarioList = QList<ScenarioInfo>;

} // namespace rvscope::engine

Q_DECLARE_METATYPE(rvscope::engine::ScenarioInfo)
Q_DECLARE_METATYPE(rvscope::engine::ScenarioState)
Q_DECLARE_METATYPE(rvscope::engine::StepReport)
Q_DECLARE_METATYPE(rvscope::engine::VerdictReport)
Q_DECLARE_METATYPE(rvscope::engine::VerdictList)
Q_DECLARE_METATYPE(rvscope::engine::ScenarioList)
