// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include <QtCore/QObject>
#include <qcoro/qcorotask.h>

#include "engine/ClientValues.h"

class QProcess;

namespace rvscope::sim {
class Workload;
}

namespace rvscope::engine {

struct EngineOptions;
class AccessController;
class JournalFeed;
class ServerController;

// Competing clients launched from the GUI: in-process (coroutines on the wall clock, as
// the GUI's identity) or as `rvscope client` processes talking HTTP to the embedded server,
// which they start when it is not running. One workloadFinished per launch. Core thread
// only.
class WorkloadController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WorkloadController)

public:
    WorkloadController(const EngineOptions &options, const AccessController &access, ServerController &server,
                       JournalFeed &feed, QObject *parent);
    // Stops the in-process workloads (client processes are killed with their QProcess).
    ~WorkloadController() override;

    void launch(const ClientLaunch &launch);
    void stop();

Q_SIGNALS:
    void workloadFinished(const rvscope::engine::WorkloadReport &report);

private:
    // A member coroutine, not a lambda: a lambda's captures die with the lambda object.
    QCoro::Task<> driveWorkload(std::shared_ptr<sim::Workload> workload);
    void finishWorkload(const std::shared_ptr<sim::Workload> &workload);
    void launchProcesses(const ClientLaunch &launch);
    void handleProcessFinished(QProcess *process);

    const EngineOptions &m_options;
    const AccessController &m_access;
    ServerController &m_server;
    JournalFeed &m_feed;
    std::vector<std::shared_ptr<sim::Workload>> m_workloads;
    // The `rvscope client` processes of one launch and the summaries they printed.
    struct ProcessGroup;
    std::vector<std::unique_ptr<ProcessGroup>> m_processGroups;
};

} // namespace rvscope::engine
