// SPDX-License-Identifier: MIT
#include "engine/BulkSessionTracker.h"

#include <algorithm>

#include "api/BulkWatchSession.h"

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

std::optional<BulkSessionList> BulkSessionTracker::update(std::vector<std::shared_ptr<api::BulkWatchSession>> sessions)
{
    std::erase_if(sessions, [](const auto &session) { return !session || session->closed(); });

    std::vector<std::pair<const api::BulkWatchSession *, std::size_t>> fingerprint;
    fingerprint.reserve(sessions.size());
    for (const auto &session : sessions)
        fingerprint.emplace_back(session.get(), session->channelCount());
    std::sort(fingerprint.begin(), fingerprint.end());
    const bool due = ++m_ticks % FULL_READ_TICKS == 0;
    if (fingerprint == m_fingerprint && !due)
        return std::nullopt;
    m_fingerprint = std::move(fingerprint);

    // Ids by session: a known address whose session died is a new session.
    std::map<const api::BulkWatchSession *, KnownSession> known;
    for (const auto &session : sessions) {
        auto it = m_ids.find(session.get());
        const bool same = it != m_ids.end() && it->second.session.lock() == session;
        known[session.get()] = same ? it->second : KnownSession{session, m_nextId++};
    }
    m_ids = std::move(known);

    BulkSessionList list;
    list.reserve(qsizetype(sessions.size()));
    int reported = 0;
    for (const auto &session : sessions) {
        BulkSessionSummary summary;
        summary.id = m_ids[session.get()].id;
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
    if (list == m_last)
        return std::nullopt;
    m_last = list;
    return list;
}

} // namespace rvscope::engine
