// SPDX-License-Identifier: MIT
#include "engine/WorkloadController.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QPointer>
#include <QtCore/QProcess>
#include <nlohmann/json.hpp>

#include "engine/AccessController.h"
#include "engine/EngineOptions.h"
#include "engine/JournalFeed.h"
#include "engine/ServerController.h"
#include "model/JsonAccess.h"
#include "model/JsonParse.h"
#include "sim/Clock.h"
#include "sim/Transport.h"
#include "sim/Workload.h"

namespace rvscope::engine {
namespace {

constexpr int MAX_PROCESSES = 16;

model::Result<sim::ClientSpec> specFrom(const ClientLaunch &launch)
{
    nlohmann::json json = {{"clients", launch.clients},
                           {"strategy", launch.strategy.toStdString()},
                           {"objects", launch.objects},
                           {"operations", launch.operations},
                           {"thinkTime", launch.thinkTime.toStdString()},
                           {"seed", launch.seed}};
    return sim::ClientSpec::fromJson(json);
}

WorkloadReport reportOf(const sim::WorkloadSummary &summary)
{
    WorkloadReport report;
    report.strategy = QString::fromStdString(summary.strategy);
    report.clients = summary.clients;
    report.succeeded = summary.succeeded;
    report.failed = summary.failed;
    report.attempts = summary.attempts;
    report.conflicts = summary.conflicts;
    report.retries = summary.retries;
    report.errors = summary.errors;
    report.throughput = summary.throughputPerSecond();
    report.p50Ns = summary.p50LatencyNs;
    report.p99Ns = summary.p99LatencyNs;
    return report;
}

} // namespace

struct WorkloadController::ProcessGroup {
    std::vector<QProcess *> processes;
    int running = 0;
    WorkloadReport report;
    QStringList errors;
};

WorkloadController::WorkloadController(const EngineOptions &options, const AccessController &access,
                                       ServerController &server, JournalFeed &feed, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_access(access)
    , m_server(server)
    , m_feed(feed)
{
}

WorkloadController::~WorkloadController()
{
    for (const auto &workload : m_workloads)
        workload->stop();
}

void WorkloadController::launch(const ClientLaunch &launch)
{
    auto spec = specFrom(launch);
    if (!spec) {
        WorkloadReport failed;
        failed.error = QString::fromStdString(spec.error().message);
        Q_EMIT workloadFinished(failed);
        return;
    }
    if (!launch.processes) {
        // A new name prefix per launch keeps client ids distinct in the journal.
        spec->namePrefix = "c" + std::to_string(m_workloads.size() + 1) + '-';
        auto workload = std::make_shared<sim::Workload>(m_access.guiTransport(),
                                                        std::make_shared<sim::RealClock>(), *spec);
        m_workloads.push_back(workload);
        driveWorkload(workload);
        return;
    }
    launchProcesses(launch);
}

void WorkloadController::launchProcesses(const ClientLaunch &launch)
{
    if (!m_server.running())
        m_server.start(QHostAddress::LocalHost, 0);
    if (!m_server.running()) {
        WorkloadReport failed;
        failed.error = QStringLiteral("the embedded server is not running and could not be started");
        Q_EMIT workloadFinished(failed);
        return;
    }
    const QString program = m_options.clientProgram.isEmpty() ? QCoreApplication::applicationFilePath()
                                                              : m_options.clientProgram;
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(m_server.port());
    auto group = std::make_unique<ProcessGroup>();
    group->report.strategy = launch.strategy;
    group->report.processes = true;
    const int processCount = std::min(launch.clients, MAX_PROCESSES);
    const int groupIndex = static_cast<int>(m_processGroups.size()) + 1;
    for (int i = 0; i < processCount; ++i) {
        const int clients = launch.clients / processCount + (i < launch.clients % processCount ? 1 : 0);
        auto *process = new QProcess(this);
        process->setProcessChannelMode(QProcess::SeparateChannels);
        const QStringList arguments = {QStringLiteral("client"),
                                       QStringLiteral("--server"), url,
                                       QStringLiteral("--clients"), QString::number(clients),
                                       QStringLiteral("--strategy"), launch.strategy,
                                       QStringLiteral("--objects"), QString::number(launch.objects),
                                       QStringLiteral("--operations"), QString::number(launch.operations),
                                       QStringLiteral("--think"), launch.thinkTime,
                                       QStringLiteral("--seed"), QString::number(launch.seed * 1000 + quint64(i)),
                                       QStringLiteral("--name"), QStringLiteral("p%1.%2-").arg(groupIndex).arg(i + 1),
                                       QStringLiteral("--json")};
        connect(process, &QProcess::finished, this, [this, process] { handleProcessFinished(process); });
        connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart)
                handleProcessFinished(process);
        });
        group->processes.push_back(process);
        ++group->running;
        process->start(program, arguments);
    }
    m_processGroups.push_back(std::move(group));
}

void WorkloadController::handleProcessFinished(QProcess *process)
{
    for (auto it = m_processGroups.begin(); it != m_processGroups.end(); ++it) {
        ProcessGroup &group = **it;
        auto found = std::find(group.processes.begin(), group.processes.end(), process);
        if (found == group.processes.end())
            continue;
        group.processes.erase(found);
        --group.running;
        // The last stdout line is the process's summary as JSON.
        const QList<QByteArray> lines = process->readAllStandardOutput().trimmed().split('\n');
        const nlohmann::json summary =
            model::parseJson(lines.isEmpty() ? std::string_view() : std::string_view(lines.last().constData(), std::size_t(lines.last().size())))
                .value_or(nlohmann::json());
        if (process->exitStatus() != QProcess::NormalExit || process->exitCode() != 0 || !summary.is_object()) {
            group.errors.append(QStringLiteral("client process failed: %1 %2")
                                    .arg(process->errorString(), QString::fromLocal8Bit(process->readAllStandardError()).trimmed()));
        } else {
            auto count = [&summary](const char *field) {
                const auto &value = model::member(summary, field);
                return value.is_number() ? value.get<double>() : 0.0;
            };
            WorkloadReport &report = group.report;
            report.clients += int(count("clients"));
            report.succeeded += int(count("succeeded"));
            report.failed += int(count("failed"));
            report.attempts += int(count("attempts"));
            report.conflicts += int(count("conflicts"));
            report.retries += int(count("retries"));
            report.errors += int(count("errors"));
            report.throughput += count("throughput");
            report.p50Ns = std::max(report.p50Ns, qint64(count("p50Ns")));
            report.p99Ns = std::max(report.p99Ns, qint64(count("p99Ns")));
        }
        process->deleteLater();
        if (group.running == 0) {
            group.report.error = group.errors.join(u'\n');
            Q_EMIT workloadFinished(group.report);
            m_processGroups.erase(it);
        }
        return;
    }
}

QCoro::Task<> WorkloadController::driveWorkload(std::shared_ptr<sim::Workload> workload)
{
    QPointer<WorkloadController> self(this);
    co_await workload->run();
    if (self)
        finishWorkload(workload);
}

void WorkloadController::finishWorkload(const std::shared_ptr<sim::Workload> &workload)
{
    // The workload's requests are in the journal: send them before its report.
    m_feed.flush();
    Q_EMIT workloadFinished(reportOf(workload->summary()));
    m_workloads.erase(std::remove(m_workloads.begin(), m_workloads.end(), workload), m_workloads.end());
}

void WorkloadController::stop()
{
    for (const auto &workload : m_workloads)
        workload->stop();
    for (const auto &group : m_processGroups) {
        for (QProcess *process : group->processes)
            process->terminate();
    }
}

} // namespace rvscope::engine
