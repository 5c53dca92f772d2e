// SPDX-License-Identifier: MIT
// WatcherModel: the tree's shape (watchers at the top level, then "Bulk sessions" → session →
// channel) and the bulk sessions' rows. Watchers' rows are in WatcherModel.cpp.
#include "streams/WatcherModel.h"

#include <algorithm>

#include <QtCore/QSet>
#include <QtGui/QFont>

namespace rvscope::ui {
namespace {
// internalId of an index: which level it is on (a channel's also names its session).
constexpr quintptr TOP_LEVEL = 0;
constexpr quintptr SESSION_ROW = 1;
constexpr quintptr CHANNEL_BASE = 2; // + the session's id

// "1 channel", "3 channels" (English only, like the rest of the GUI).
QString counted(qsizetype n, const char *singular, const char *plural)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? singular : plural));
}

QString collectionOf(const engine::BulkChannelSummary &channel)
{
    QString text = channel.collection();
    if (!channel.labelSelector.isEmpty())
        text += QStringLiteral(" [%1]").arg(channel.labelSelector);
    return text;
}
} // namespace

WatcherModel::Kind WatcherModel::kindOf(const QModelIndex &index) const
{
    switch (index.internalId()) {
    case TOP_LEVEL:
        return index.row() < watcherCount() ? Kind::Watcher : Kind::BulkSessions;
    case SESSION_ROW:
        return Kind::BulkSession;
    default:
        return Kind::BulkChannel;
    }
}

QModelIndex WatcherModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < rowCount() ? createIndex(row, column, TOP_LEVEL) : QModelIndex();
    if (parent.column() != 0 || parent.model() != this)
        return {};
    switch (kindOf(parent)) {
    case Kind::BulkSessions:
        return row < m_sessions.size() ? createIndex(row, column, SESSION_ROW) : QModelIndex();
    case Kind::BulkSession: {
        const engine::BulkSessionSummary &session = m_sessions[parent.row()];
        return row < session.channels.size() ? createIndex(row, column, CHANNEL_BASE + quintptr(session.id))
                                              : QModelIndex();
    }
    default:
        return {};
    }
}

QModelIndex WatcherModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const quintptr id = child.internalId();
    if (id == TOP_LEVEL)
        return {};
    if (id == SESSION_ROW)
        return bulkSessionsIndex();
    const int row = sessionRowOf(quint64(id - CHANNEL_BASE));
    return row < 0 ? QModelIndex() : createIndex(row, 0, SESSION_ROW);
}

int WatcherModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return watcherCount() + (m_sessions.isEmpty() ? 0 : 1);
    if (parent.column() != 0)
        return 0;
    switch (kindOf(parent)) {
    case Kind::BulkSessions:
        return int(m_sessions.size());
    case Kind::BulkSession:
        return int(m_sessions[parent.row()].channels.size());
    default:
        return 0;
    }
}

QModelIndex WatcherModel::bulkSessionsIndex(int column) const
{
    return m_sessions.isEmpty() ? QModelIndex() : createIndex(watcherCount(), column, TOP_LEVEL);
}

QModelIndex WatcherModel::bulkSessionIndex(quint64 sessionId, int column) const
{
    const int row = sessionRowOf(sessionId);
    return row < 0 ? QModelIndex() : createIndex(row, column, SESSION_ROW);
}

QModelIndex WatcherModel::bulkChannelIndex(quint64 sessionId, qint64 channel, int column) const
{
    const int row = sessionRowOf(sessionId);
    if (row < 0)
        return {};
    const auto &channels = m_sessions[row].channels;
    for (qsizetype i = 0; i < channels.size(); ++i) {
        if (channels[i].channel == channel)
            return createIndex(int(i), column, CHANNEL_BASE + quintptr(sessionId));
    }
    return {};
}

void WatcherModel::rebuildSessionRows()
{
    m_sessionRow.clear();
    for (qsizetype row = 0; row < m_sessions.size(); ++row)
        m_sessionRow.insert(m_sessions[row].id, int(row));
}

void WatcherModel::setBulkSessions(const engine::BulkSessionList &sessions)
{
    if (sessions.isEmpty() || m_sessions.isEmpty()) {
        if (sessions.isEmpty() == m_sessions.isEmpty())
            return; // both empty
        // The "Bulk sessions" row comes or goes with everything under it.
        const int row = watcherCount();
        if (sessions.isEmpty())
            beginRemoveRows({}, row, row);
        else
            beginInsertRows({}, row, row);
        m_sessions = sessions;
        rebuildSessionRows();
        if (sessions.isEmpty())
            endRemoveRows();
        else
            endInsertRows();
        return;
    }
    const QModelIndex group = bulkSessionsIndex();
    QSet<quint64> open;
    for (const engine::BulkSessionSummary &session : sessions)
        open.insert(session.id);
    for (int row = int(m_sessions.size()) - 1; row >= 0; --row) {
        if (open.contains(m_sessions[row].id))
            continue;
        beginRemoveRows(group, row, row);
        m_sessions.removeAt(row);
        rebuildSessionRows();
        endRemoveRows();
    }
    for (const engine::BulkSessionSummary &session : sessions) {
        if (const int row = sessionRowOf(session.id); row >= 0) {
            updateSessionChannels(row, session);
            continue;
        }
        int at = 0;
        while (at < m_sessions.size() && m_sessions[at].id < session.id)
            ++at;
        beginInsertRows(group, at, at);
        m_sessions.insert(at, session);
        rebuildSessionRows();
        endInsertRows();
    }
    Q_EMIT dataChanged(group, bulkSessionsIndex(ColumnCount - 1));
}

void WatcherModel::updateSessionChannels(int row, const engine::BulkSessionSummary &next)
{
    engine::BulkSessionSummary &current = m_sessions[row];
    const QModelIndex session = createIndex(row, 0, SESSION_ROW);
    const auto inNext = [&next](qint64 channel) {
        return std::any_of(next.channels.begin(), next.channels.end(),
                           [channel](const engine::BulkChannelSummary &c) { return c.channel == channel; });
    };
    for (int i = int(current.channels.size()) - 1; i >= 0; --i) {
        if (inNext(current.channels[i].channel))
            continue;
        beginRemoveRows(session, i, i);
        current.channels.removeAt(i);
        endRemoveRows();
    }
    // Both lists are in channel order and what is left of `current` is in `next`: a merge.
    for (int i = 0; i < next.channels.size(); ++i) {
        const engine::BulkChannelSummary &channel = next.channels[i];
        if (i < current.channels.size() && current.channels[i].channel == channel.channel) {
            if (!(current.channels[i] == channel)) {
                current.channels[i] = channel;
                Q_EMIT dataChanged(index(i, 0, session), index(i, ColumnCount - 1, session));
            }
            continue;
        }
        beginInsertRows(session, i, i);
        current.channels.insert(i, channel);
        endInsertRows();
    }
    if (current.user != next.user || current.peer != next.peer || current.openChannels != next.openChannels) {
        current.user = next.user;
        current.peer = next.peer;
        current.openChannels = next.openChannels;
        Q_EMIT dataChanged(session, createIndex(row, ColumnCount - 1, SESSION_ROW));
    }
}

QVariant WatcherModel::bulkData(const QModelIndex &index, int role) const
{
    const Kind kind = kindOf(index);
    const int column = index.column();
    if (role == KindRole)
        return int(kind);
    if (role == Qt::TextAlignmentRole && column == EventsColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (kind == Kind::BulkSessions) {
        int channels = 0;
        for (const engine::BulkSessionSummary &session : m_sessions)
            channels += session.openChannels;
        switch (role) {
        case Qt::DisplayRole:
            if (column == WatcherColumn)
                return tr("Bulk sessions");
            if (column == CollectionColumn)
                return counted(m_sessions.size(), "session", "sessions");
            if (column == StateColumn)
                return counted(channels, "channel", "channels");
            return {};
        case Qt::FontRole: {
            QFont font;
            font.setBold(true);
            return font;
        }
        case Qt::ToolTipRole:
            return tr("Bulk watch sessions of the embedded server: one websocket each on\n"
                      "/apis/bulk.k8s.io/v1/bulkgetoperations, with the watch channels it opened");
        default:
            return {};
        }
    }
    if (kind == Kind::BulkSession) {
        const engine::BulkSessionSummary &session = m_sessions[index.row()];
        switch (role) {
        case Qt::DisplayRole:
            if (column == WatcherColumn) {
                // Two sessions of one user are told apart by where they come from.
                return session.peer.isEmpty() ? tr("session %1").arg(session.id)
                                              : tr("session %1 from %2").arg(session.id).arg(session.peer);
            }
            if (column == CollectionColumn)
                return counted(session.openChannels, "channel", "channels");
            if (column == ClientColumn)
                return session.user;
            if (column == StateColumn)
                return tr("open");
            return {};
        case Qt::ToolTipRole: {
            QStringList lines{tr("bulk watch session %1 of %2").arg(session.id).arg(session.user)};
            if (!session.peer.isEmpty())
                lines << tr("from %1").arg(session.peer);
            lines << counted(session.openChannels, "open channel", "open channels");
            if (session.openChannels > session.channels.size())
                lines << tr("the first %1 are listed").arg(session.channels.size());
            return lines.join(QLatin1Char('\n'));
        }
        case BulkSessionIdRole:
            return QVariant::fromValue(session.id);
        default:
            return {};
        }
    }
    const quint64 sessionId = quint64(index.internalId() - CHANNEL_BASE);
    const int sessionRow = sessionRowOf(sessionId);
    if (sessionRow < 0)
        return {};
    const engine::BulkSessionSummary &session = m_sessions[sessionRow];
    const engine::BulkChannelSummary &channel = session.channels[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        if (column == WatcherColumn)
            return tr("channel %1").arg(channel.channel);
        if (column == CollectionColumn)
            return collectionOf(channel);
        if (column == ClientColumn)
            return session.user;
        if (column == StateColumn)
            return tr("open");
        return {};
    case Qt::ToolTipRole: {
        QStringList lines{tr("channel %1 of bulk session %2 (%3)").arg(channel.channel).arg(session.id).arg(session.user)};
        const QString apiVersion =
            channel.group.isEmpty() ? channel.version : channel.group + QLatin1Char('/') + channel.version;
        lines << tr("watches %1 (%2)").arg(channel.collection(), apiVersion);
        if (!channel.labelSelector.isEmpty())
            lines << tr("labelSelector %1").arg(channel.labelSelector);
        if (!channel.fieldSelector.isEmpty())
            lines << tr("fieldSelector %1").arg(channel.fieldSelector);
        lines << (channel.watcherId.isEmpty() ? tr("its events are not journaled (the journal is off)")
                                              : tr("its events are journaled as watcher %1").arg(channel.watcherId));
        return lines.join(QLatin1Char('\n'));
    }
    case BulkSessionIdRole:
        return QVariant::fromValue(sessionId);
    case BulkChannelIdRole:
        return QVariant::fromValue(channel.channel);
    case WatcherIdRole:
        return channel.watcherId;
    default:
        return {};
    }
}

} // namespace rvscope::ui
