// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QMetaType>
#include <QtCore/QString>

// Launching competing clients from the GUI, and what a finished group reports.
namespace rvscope::engine {

struct ClientLaunch final {
    int clients = 8;
    QString strategy = QStringLiteral("retry-default"); // sim::strategyName()
    int objects = 1;       // 1: one hot key
    int operations = 50;   // increments per client
    QString thinkTime = QStringLiteral("1-5ms");
    quint64 seed = 1;
    // false: coroutines in the core thread (real time); true: `rvscope client` processes
    // over HTTP against the embedded server (started if needed), genuinely parallel.
    bool processes = false;
};

struct WorkloadReport final {
    QString strategy;
    int clients = 0;
    int succeeded = 0;
    int failed = 0;
    int attempts = 0;
    int conflicts = 0;
    int retries = 0;
    int errors = 0;
    double throughput = 0; // landed increments per second
    qint64 p50Ns = 0;
    qint64 p99Ns = 0;
    bool processes = false;
    QString error; // why the group could not run (bad spec, no server, process failure)
};

} // namespace rvscope::engine

Q_DECLARE_METATYPE(rvscope::engine::ClientLaunch)
Q_DECLARE_METATYPE(rvscope::engine::WorkloadReport)
