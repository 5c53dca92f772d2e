// SPDX-License-Identifier: MIT
#include "VerdictPrinter.h"

#include <cstdio>

namespace rvscope::app {
namespace {

// A long list of violations is summarised; the Verdicts panel and --json have them all.
constexpr qsizetype MAX_PRINTED_FINDINGS = 10;

} // namespace

void printLine(const QString &text)
{
    const QByteArray line = text.toUtf8();
    std::fwrite(line.constData(), 1, std::size_t(line.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

bool printVerdicts(const engine::VerdictList &verdicts)
{
    bool allAsExpected = true;
    printLine(QStringLiteral("verdicts:"));
    for (const engine::VerdictReport &verdict : verdicts) {
        printLine(QStringLiteral("  %1%2: %3 (expected %4)%5 - %6")
                  .arg(verdict.checker, verdict.key.isEmpty() ? QString() : u' ' + verdict.key, verdict.outcome.toUpper(),
                       verdict.expected ? QStringLiteral("pass") : QStringLiteral("fail"),
                       verdict.asExpected ? QString() : QStringLiteral(" [UNEXPECTED]"), verdict.summary));
        for (const QString &finding : verdict.findings.mid(0, MAX_PRINTED_FINDINGS))
            printLine(QStringLiteral("      %1").arg(finding));
        if (verdict.findings.size() > MAX_PRINTED_FINDINGS)
            printLine(QStringLiteral("      ... %1 more").arg(verdict.findings.size() - MAX_PRINTED_FINDINGS));
        allAsExpected = allAsExpected && verdict.asExpected;
    }
    return allAsExpected;
}

} // namespace rvscope::app
