// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QObject>

#include "engine/EngineTypes.h"
#include "engine/ScenarioValues.h"

namespace rvscope::engine {

struct Core;
struct EngineOptions;
class JournalFeed;

// The GUI's requests on the current core's journal as a whole: export and import as JSON
// Lines, clear, run the checkers, and the details of one operation or object version. Core
// thread only.
class HistoryController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryController)

public:
    HistoryController(const EngineOptions &options, const Core &core, JournalFeed &feed, QObject *parent);

    // Secrets' values are redacted unless `includeSecrets` (history/SecretRedaction.h).
    void exportHistory(const QString &path, bool includeSecrets);
    // Replaces the journal (historyReset), then sends the imported operations from the
    // first.
    void importHistory(const QString &path);
    void clearHistory();
    void checkHistory();
    void fetchOperation(quint64 id);
    void fetchObjectVersion(const QString &key, qint64 resourceVersion);

Q_SIGNALS:
    void historyReset();
    void historyExported(const QString &path, const QString &error);
    void historyImported(const QString &path, int operations, const QString &error);
    void verdictsReady(const rvscope::engine::VerdictList &verdicts);
    void operationDetailReady(const rvscope::engine::OperationDetail &detail);
    void objectVersionReady(const QString &key, qint64 resourceVersion, const QByteArray &object);

private:
    const EngineOptions &m_options;
    const Core &m_core;
    JournalFeed &m_feed;
};

} // namespace rvscope::engine
