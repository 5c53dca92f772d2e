// SPDX-License-Identifier: MIT
#include "CheckCommand.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "VerdictPrinter.h"
#include "engine/HistoryChecks.h"
#include "history/History.h"
#include "history/HistoryWindow.h"

namespace rvscope::app {
namespace {

nlohmann::json jsonOf(const engine::VerdictReport &verdict)
{
    nlohmann::json findings = nlohmann::json::array();
    for (const QString &finding : verdict.findings)
        findings.push_back(finding.toStdString());
    nlohmann::json line = {{"checker", verdict.checker.toStdString()},
                           {"outcome", verdict.outcome.toStdString()},
                           {"passed", verdict.asExpected},
                           {"summary", verdict.summary.toStdString()},
                           {"findings", std::move(findings)}};
    if (!verdict.key.isEmpty())
        line["key"] = verdict.key.toStdString();
    return line;
}

} // namespace

int runCheckCommand(const CheckOptions &options)
{
    const QByteArray path = options.path.toLocal8Bit();
    std::ifstream in(path.constData(), std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "rvscope check: cannot read %s: %s\n", path.constData(), std::strerror(errno));
        return 2;
    }
    // Whatever the journal kept, all of it: an import must drop nothing more.
    auto imported = history::History::importJsonLines(in, std::numeric_limits<std::size_t>::max());
    if (!imported) {
        std::fprintf(stderr, "rvscope check: %s is not a history: %s\n", path.constData(),
                     imported.error().message.c_str());
        return 2;
    }
    const history::History &history = *imported;
    if (history.operations().empty() && history.watchDeliveries().empty()) {
        std::fprintf(stderr, "rvscope check: %s holds no operation and no watch delivery: nothing to check\n",
                     path.constData());
        return 1;
    }
    const engine::VerdictList verdicts = engine::checkHistory(history);
    const history::HistoryWindow window = history::HistoryWindow::of(history);
    bool passed = true;
    for (const engine::VerdictReport &verdict : verdicts)
        passed = passed && verdict.asExpected;

    if (options.json) {
        nlohmann::json all = nlohmann::json::array();
        for (const engine::VerdictReport &verdict : verdicts)
            all.push_back(jsonOf(verdict));
        const nlohmann::json report = {{"file", path.toStdString()},
                                       {"operations", history.operations().size()},
                                       {"watchDeliveries", history.watchDeliveries().size()},
                                       {"droppedOperations", window.droppedOperations},
                                       {"droppedWatchDeliveries", window.droppedWatchDeliveries},
                                       {"passed", passed},
                                       {"verdicts", std::move(all)}};
        std::printf("%s\n", report.dump().c_str());
    } else {
        std::printf("history: %zu operations, %zu watch deliveries (%s)\n", history.operations().size(),
                    history.watchDeliveries().size(), path.constData());
        if (window.truncated())
            std::printf("%s: the checks cover what it kept\n", window.note().c_str());
        std::printf("\n");
        printVerdicts(verdicts);
    }
    std::fflush(stdout);
    return passed ? 0 : 1;
}

} // namespace rvscope::app
