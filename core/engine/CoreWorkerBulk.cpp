// SPDX-License-Identifier: MIT
// CoreWorker: the embedded server's bulk watch sessions as the GUI sees them. Checked on the
// stats timer: a cheap fingerprint (which sessions, how many channels each) every tick, the
// channels themselves only when it changed or every FULL_READ_TICKS (a channel closed and
// another opened within one tick leaves the fingerprint alike), and a report only when the
// values differ from the last one.
#include "engine/CoreWorker.h"

#include <algorithm>

#include "api/BulkWatchSession.h"
#include "server/ApiServer.h"

namespace rvscope::engine {
namespace {
constexpr unsigned FULL_READ_TICKS = 15; // ~500 ms at the stats interval

BulkChannelSummary summarize(const api::BulkWatchSession::ChannelInfo &info)
{
    BulkChannelSummary channel;
    channel.channel = info.channel;
    channel.group = QString::fromStdString(info.resource.group);
    channel.version = QString::fromStdString(info.resource.version);
    channel.resource = QString::fromStdString(info.resource.resource);
    channel.namespaceName = QString::fromStdString(info.namespaceName);
    channel.name = QString::fromStdString(info.name);
    channel.labelSelector = QString::fromStdString(info.labelSelector);
    channel.fieldSelector = QString::fromStdString(info.fieldSelector);
    if (info.journalId != 0)
        channel.watcherId = QStringLiteral("watch-%1").arg(info.journalId);
    return channel;
}
} // namespace

void CoreWorker::reportBulkSessions()
{
    std::vector<std::shared_ptr<api::BulkWatchSession>> sessions;
    if (m_server)
        sessions = m_server->bulkWatchSessions();
    std::erase_if(sessions, [](const auto &session) { return !session || session->closed(); });

    std::vector<std::pair<const api::BulkWatchSession *, std::size_t>> fingerprint;
    fingerprint.reserve(sessions.size());
    for (const auto &session : sessions)
        fingerprint.emplace_back(session.get(), session->channelCount());
    std::sort(fingerprint.begin(), fingerprint.end());
    const bool due = ++m_bulkTicks % FULL_READ_TICKS == 0;
    if (fingerprint == m_bulkFingerprint && !due)
        return;
    m_bulkFingerprint = std::move(fingerprint);

    // Ids by session: a known address whose session died is a new session.
    std::map<const api::BulkWatchSession *, KnownBulkSession> known;
    for (const auto &session : sessions) {
        auto it = m_bulkIds.find(session.get());
        const bool same = it != m_bulkIds.end() && it->second.session.lock() == session;
        known[session.get()] = same ? it->second : KnownBulkSession{session, m_nextBulkId++};
    }
    m_bulkIds = std::move(known);

    BulkSessionList list;
    list.reserve(qsizetype(sessions.size()));
    int reported = 0;
    for (const auto &session : sessions) {
        BulkSessionSummary summary;
        summary.id = m_bulkIds[session.get()].id;
        summary.user = QString::fromStdString(session->user());
        summary.peer = QString::fromStdString(session->peer());
        summary.openChannels = int(session->channelCount());
        if (reported < BulkSessionSummary::MAX_REPORTED) {
            for (const api::BulkWatchSession::ChannelInfo &info : session->channels()) {
                if (reported++ >= BulkSessionSummary::MAX_REPORTED)
                    break;
                summary.channels.append(summarize(info));
            }
        }
        list.append(std::move(summary));
    }
    std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) { return a.id < b.id; });
    if (list == m_lastBulkSessions)
        return;
    m_lastBulkSessions = list;
    Q_EMIT bulkSessionsChanged(list);
}

} // namespace rvscope::engine
