// SPDX-License-Identifier: MIT
#include "ScenarioCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>
#include <QtCore/QEventLoop>

#include "VerdictPrinter.h"
#include "engine/Engine.h"
#include "sim/ScenarioLibrary.h"

namespace rvscope::app {
namespace {

// Histories longer than this are summarised; --export has them all.
constexpr int MAX_PRINTED_OPERATIONS = 200;

QString operationLine(const engine::OperationSummary &op)
{
    QString line = QStringLiteral("  #%1 %2 %3 %4").arg(op.id, 4).arg(op.clientId, -14).arg(op.verb, -7).arg(op.key);
    if (op.rvSent > 0)
        line += QStringLiteral(" rv=%1").arg(op.rvSent);
    line += QStringLiteral(" → %1").arg(op.statusCode);
    if (!op.reason.isEmpty())
        line += u' ' + op.reason;
    if (op.rvProduced > 0)
        line += QStringLiteral(" rv %1").arg(op.rvProduced);
    if (op.casRetries > 0)
        line += QStringLiteral(" (%1 CAS retries)").arg(op.casRetries);
    if (op.noop)
        line += QStringLiteral(" (no-op)");
    return line;
}

int listScenarios()
{
    for (const sim::Scenario &scenario : sim::ScenarioLibrary::builtIns())
        printLine(QStringLiteral("%1  %2").arg(QString::fromStdString(scenario.name), -26).arg(QString::fromStdString(scenario.title)));
    return 0;
}

} // namespace

int runScenarioCommand(const ScenarioOptions &options)
{
    if (options.list)
        return listScenarios();

    engine::Engine engine;
    QEventLoop loop;
    int exitCode = 0;
    QList<engine::OperationSummary> operations;
    QObject::connect(&engine, &engine::Engine::errorOccurred, &loop, [&](const QString &message) {
        std::fprintf(stderr, "rvscope: %s\n", qPrintable(message));
        exitCode = 1;
        loop.quit();
    });
    QObject::connect(&engine, &engine::Engine::historyReset, &loop, [&] { operations.clear(); });
    QObject::connect(&engine, &engine::Engine::operationsRecorded, &loop,
                     [&](const engine::OperationBatch &batch) { operations.append(batch); });
    QObject::connect(&engine, &engine::Engine::scenarioLoaded, &loop, [&](const engine::ScenarioInfo &info) {
        printLine(QStringLiteral("scenario %1: %2").arg(info.name, info.title));
        printLine(info.description);
        printLine(QString());
        engine.setScenarioSpeed(0);
        engine.playScenario();
    });
    QObject::connect(&engine, &engine::Engine::scenarioStepCompleted, &loop, [&](const engine::StepReport &step) {
        printLine(QStringLiteral("step %1. %2").arg(step.index + 1).arg(step.explain));
        printLine(QStringLiteral("   %1%2").arg(step.outcome, step.expectationMet ? QString() : QStringLiteral("   [UNEXPECTED]")));
        for (const QString &detail : step.details)
            printLine(QStringLiteral("     %1").arg(detail));
        if (!step.expectationMet)
            exitCode = 1;
    });
    QObject::connect(&engine, &engine::Engine::verdictsReady, &loop, [&](const engine::VerdictList &verdicts) {
        printLine(QString());
        printLine(QStringLiteral("history: %1 operations").arg(operations.size()));
        if (operations.size() <= MAX_PRINTED_OPERATIONS) {
            for (const auto &op : operations)
                printLine(operationLine(op));
        } else {
            printLine(QStringLiteral("  (more than %1: --export FILE writes them all)").arg(MAX_PRINTED_OPERATIONS));
        }
        if (options.check) {
            printLine(QString());
            if (!printVerdicts(verdicts))
                exitCode = 1;
        }
        if (options.exportPath.isEmpty()) {
            loop.quit();
            return;
        }
        engine.exportHistory(options.exportPath, options.exportSecrets);
    });
    QObject::connect(&engine, &engine::Engine::historyExported, &loop, [&](const QString &path, const QString &error) {
        if (!error.isEmpty()) {
            std::fprintf(stderr, "rvscope: %s\n", qPrintable(error));
            exitCode = 1;
        } else {
            printLine(QStringLiteral("history written to %1").arg(path));
        }
        loop.quit();
    });
    engine.loadScenario(options.nameOrPath, options.seed);
    loop.exec();
    std::fflush(stdout);
    return exitCode;
}

} // namespace rvscope::app
