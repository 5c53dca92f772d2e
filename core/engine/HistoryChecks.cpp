// SPDX-License-Identifier: MIT
#include "engine/HistoryChecks.h"

#include <set>
#include <string>

#include "history/History.h"
#include "history/LinearizabilityChecker.h"
#include "history/LostUpdateChecker.h"
#include "history/WatchGuaranteesChecker.h"
#include "model/JsonAccess.h"

namespace rvscope::engine {
namespace {

VerdictReport reportOf(const QString &checker, const QString &key, const history::Verdict &verdict)
{
    VerdictReport report;
    report.checker = checker;
    report.key = key;
    report.outcome = QString::fromLatin1(history::Verdict::outcomeName(verdict.outcome));
    report.summary = QString::fromStdString(verdict.summary);
    for (const std::string &finding : verdict.findings)
        report.findings.append(QString::fromStdString(finding));
    report.expected = true;
    report.asExpected = verdict.passed() || verdict.outcome == history::Verdict::Outcome::NoHistory;
    return report;
}

} // namespace

VerdictList checkHistory(const history::History &history)
{
    std::set<std::string> counterKeys;
    for (const history::OperationRecord &op : history.operations()) {
        if (op.succeeded() && op.isWrite() && op.verb != "delete" && op.key.rfind("configmaps/", 0) == 0
            && !model::memberAt(op.objectJson(), "data", "counter").is_null())
            counterKeys.insert(op.key);
    }
    VerdictList verdicts;
    for (const std::string &key : counterKeys)
        verdicts.append(reportOf(QStringLiteral("lost-update"), QString::fromStdString(key),
                                 history::LostUpdateChecker("data.counter").check(history, key)));
    verdicts.append(reportOf(QStringLiteral("linearizability"), QString(), history::LinearizabilityChecker().check(history)));
    verdicts.append(reportOf(QStringLiteral("watch"), QString(), history::WatchGuaranteesChecker().check(history)));
    return verdicts;
}

} // namespace rvscope::engine
