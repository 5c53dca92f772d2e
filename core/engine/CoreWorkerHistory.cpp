// SPDX-License-Identifier: MIT
// CoreWorker: exporting, importing and checking the operation journal.
#include "engine/CoreWorker.h"

#include <fstream>
#include <set>

#include "history/Journal.h"
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
    report.outcome = verdict.passed() ? QStringLiteral("pass")
                     : verdict.failed() ? QStringLiteral("fail")
                                        : QStringLiteral("unknown");
    report.summary = QString::fromStdString(verdict.summary);
    for (const std::string &finding : verdict.findings)
        report.findings.append(QString::fromStdString(finding));
    report.expected = true;
    report.asExpected = verdict.passed();
    return report;
}

} // namespace

void CoreWorker::exportHistory(const QString &path)
{
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    if (!out) {
        Q_EMIT historyExported(path, QStringLiteral("cannot write %1").arg(path));
        return;
    }
    m_journal->history().exportJsonLines(out);
    out.close();
    Q_EMIT historyExported(path, out ? QString() : QStringLiteral("error while writing %1").arg(path));
}

void CoreWorker::importHistory(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    if (!in) {
        Q_EMIT historyImported(path, 0, QStringLiteral("cannot read %1").arg(path));
        return;
    }
    auto imported = history::History::importJsonLines(in, m_options.journalCapacity);
    if (!imported) {
        Q_EMIT historyImported(path, 0, QString::fromStdString(imported.error().message));
        return;
    }
    const int count = static_cast<int>(imported->operations().size());
    m_journal->replace(std::move(imported).value());
    m_nextBatchId = 0;
    Q_EMIT historyReset();
    flushOperations();
    Q_EMIT historyImported(path, count, QString());
}

void CoreWorker::clearHistory()
{
    m_journal->clear();
    Q_EMIT historyReset();
}

void CoreWorker::checkHistory()
{
    // Every counter object (a key whose successful writes carry data.counter) gets the
    // lost-update check; linearizability and watch guarantees cover the whole history.
    const history::History &history = m_journal->history();
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
    Q_EMIT verdictsReady(verdicts);
}

} // namespace rvscope::engine
