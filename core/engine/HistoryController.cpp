// SPDX-License-Identifier: MIT
#include "engine/HistoryController.h"

#include <algorithm>
#include <fstream>
#include <limits>

#include "engine/Core.h"
#include "engine/EngineOptions.h"
#include "engine/HistoryChecks.h"
#include "engine/JournalFeed.h"
#include "history/Journal.h"
#include "registry/Registry.h"

namespace rvscope::engine {
namespace {

QByteArray bytesOf(const history::OperationRecord &record)
{
    return record.object ? QByteArray::fromStdString(record.object->bytes()) : QByteArray();
}

} // namespace

HistoryController::HistoryController(const EngineOptions &options, const Core &core, JournalFeed &feed, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_core(core)
    , m_feed(feed)
{
}

void HistoryController::fetchOperation(quint64 id)
{
    const auto &operations = m_core.journal->history().operations();
    auto it = std::lower_bound(operations.begin(), operations.end(), id,
                               [](const history::OperationRecord &record, std::uint64_t wanted) { return record.id < wanted; });
    OperationDetail detail;
    if (it == operations.end() || it->id != id) {
        Q_EMIT operationDetailReady(detail); // summary.id 0: no longer in the journal
        return;
    }
    const history::OperationRecord &op = *it;
    detail.summary = JournalFeed::summarize(op);
    detail.object = bytesOf(op);
    detail.request = QByteArray::fromStdString(op.requestBody);
    if (!m_core.separateStorage.empty()) {
        // Journal keys name the resource without its group: every series serving that name.
        const std::string resource = op.key.substr(0, op.key.find('/'));
        QStringList series;
        for (const auto &type : m_core.registry->types()) {
            const QString name = QString::fromStdString(type->revisionSeries);
            if (type->gvr.resource == resource && !series.contains(name))
                series << name;
        }
        detail.revisionSeries = series.join(QStringLiteral(" or "));
    }
    const std::int64_t end = op.endNs.value_or(std::numeric_limits<std::int64_t>::max());
    for (const history::OperationRecord &other : operations) {
        if (other.key != op.key || !other.succeeded() || !other.object)
            continue;
        const std::int64_t produced = std::atoll(other.resourceVersionProduced.c_str());
        if (other.isWrite() && produced > 0) {
            if (detail.keyRevisions.isEmpty() || detail.keyRevisions.last() != produced)
                detail.keyRevisions.append(produced);
            if (other.endNs && *other.endNs <= end && produced >= detail.liveResourceVersion && other.id != op.id) {
                detail.liveResourceVersion = produced;
                detail.liveObject = bytesOf(other);
            }
        }
        if (detail.summary.rvSent > 0 && produced == detail.summary.rvSent && detail.readObject.isEmpty())
            detail.readObject = bytesOf(other);
    }
    std::sort(detail.keyRevisions.begin(), detail.keyRevisions.end());
    Q_EMIT operationDetailReady(detail);
}

void HistoryController::fetchObjectVersion(const QString &key, qint64 resourceVersion)
{
    const std::string wanted = key.toStdString();
    const std::string rv = std::to_string(resourceVersion);
    for (const history::OperationRecord &op : m_core.journal->history().operations()) {
        if (op.key == wanted && op.succeeded() && op.resourceVersionProduced == rv && op.object) {
            Q_EMIT objectVersionReady(key, resourceVersion, bytesOf(op));
            return;
        }
    }
    Q_EMIT objectVersionReady(key, resourceVersion, QByteArray());
}

void HistoryController::exportHistory(const QString &path, bool includeSecrets)
{
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    if (!out) {
        Q_EMIT historyExported(path, QStringLiteral("cannot write %1").arg(path));
        return;
    }
    m_core.journal->history().exportJsonLines(out, includeSecrets ? history::History::SecretValues::Included
                                                                  : history::History::SecretValues::Redacted);
    out.close();
    Q_EMIT historyExported(path, out ? QString() : QStringLiteral("error while writing %1").arg(path));
}

void HistoryController::importHistory(const QString &path)
{
    if (m_options.journalCapacity() == 0) {
        Q_EMIT historyImported(path, 0, QStringLiteral("the history journal is off (--journal-size 0), so there is "
                                                       "nothing to import into"));
        return;
    }
    std::ifstream in(path.toStdString(), std::ios::binary);
    if (!in) {
        Q_EMIT historyImported(path, 0, QStringLiteral("cannot read %1").arg(path));
        return;
    }
    auto imported = history::History::importJsonLines(in, m_options.journalCapacity());
    if (!imported) {
        Q_EMIT historyImported(path, 0, QString::fromStdString(imported.error().message));
        return;
    }
    const int count = static_cast<int>(imported->operations().size());
    m_core.journal->replace(std::move(imported).value());
    m_feed.resendOperations();
    Q_EMIT historyReset();
    m_feed.flushOperations();
    Q_EMIT historyImported(path, count, QString());
}

void HistoryController::clearHistory()
{
    m_core.journal->clear();
    Q_EMIT historyReset();
}

void HistoryController::checkHistory()
{
    Q_EMIT verdictsReady(engine::checkHistory(m_core.journal->history()));
}

} // namespace rvscope::engine
