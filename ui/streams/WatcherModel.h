// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QAbstractItemModel>
#include <QtCore/QHash>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

class WatchEventModel;

// The streams the Streams panel shows, as a tree: one top-level row per watcher (first seen
// first), then, while the server has any, a "Bulk sessions" row whose children are the open
// bulk watch sessions (by id) and theirs the sessions' open channels (by channel id).
//
// Watchers come from the engine's WatchEventBatch, demultiplexed by watcherId into one
// WatchEventModel per watcher. A watcher appears with its first event, or when the GUI opened
// it (addOpenedWatch) before any event. Its client and collection come from the journaled
// watch request (the operation whose id is the event's operationId) when noteOperations saw
// it, and from the WatchChannel for watches opened here. A batch inserts all its new watchers
// with one beginInsertRows and updates the counters with one dataChanged.
//
// Bulk sessions come from Engine::bulkSessionsChanged (setBulkSessions): rows are inserted
// and removed for what opened and closed, so selections and expansion survive updates. Their
// channels' events are not journaled by the server, so they have no events here.
// GUI thread only.
class WatcherModel final : public QAbstractItemModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatcherModel)

public:
    enum Column { WatcherColumn, CollectionColumn, ClientColumn, EventsColumn, StateColumn, ColumnCount };
    enum Role {
        WatcherIdRole = Qt::UserRole + 1, // QString (a bulk channel: the watcher its events are journaled as)
        ChannelIdRole,                    // quint64: the WatchChannel id, 0 if not opened here
        OpenRole,                         // bool: opened here and neither closed nor ended
        KindRole,                         // int(Kind)
        BulkSessionIdRole,                // quint64 on session and channel rows
        BulkChannelIdRole,                // qint64 on channel rows
    };
    enum class Kind { Watcher, BulkSessions, BulkSession, BulkChannel };

    explicit WatcherModel(QObject *parent = nullptr, int eventCapacity = 50000);
    ~WatcherModel() override;

    void appendEvents(const engine::WatchEventBatch &batch);
    // Remembers the client and collection of watch requests (other verbs are ignored).
    void noteOperations(const engine::OperationBatch &batch);
    // A watch opened through Engine::openWatch (status 200): its row, created if needed.
    int addOpenedWatch(const engine::WatchChannel &channel);
    // The user closed a watch opened here (Engine::closeWatch).
    void markClosed(int row);
    void clear();

    // The open bulk watch sessions (Engine::bulkSessionsChanged); an empty list removes the
    // "Bulk sessions" row.
    void setBulkSessions(const engine::BulkSessionList &sessions);
    const engine::BulkSessionList &bulkSessions() const { return m_sessions; }
    // The "Bulk sessions" row (invalid while there is none), a session's row, a channel's row.
    QModelIndex bulkSessionsIndex(int column = 0) const;
    QModelIndex bulkSessionIndex(quint64 sessionId, int column = 0) const;
    QModelIndex bulkChannelIndex(quint64 sessionId, qint64 channel, int column = 0) const;
    Kind kindOf(const QModelIndex &index) const;

    // Rows of watchers are top-level rows 0..watcherCount()-1.
    int watcherCount() const { return int(m_watchers.size()); }
    int rowOf(const QString &watcherId) const { return m_rowById.value(watcherId, -1); }
    QString watcherId(int row) const;
    quint64 channelId(int row) const;
    bool isOpen(int row) const;
    // The watcher's events; owned by this model, valid until clear().
    WatchEventModel *events(int row) const;
    // The watcher's events as the engine sent them (the newest `eventCapacity`), e.g. for the
    // timeline's watch overlay.
    engine::WatchEventBatch deliveries(int row) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct WatchRequest final {
        QString client;
        QString collection;
    };
    struct Watcher final {
        QString id;
        quint64 operationId = 0;
        quint64 channelId = 0; // opened here
        QString collection;
        QString client;
        bool closedHere = false;
        WatchEventModel *events = nullptr;
    };
    Watcher &watcherFor(const engine::WatchEventSummary &event, int &newRows);
    void describe(Watcher &watcher) const;
    QString stateOf(const Watcher &watcher) const;

    // WatcherModelBulk.cpp: the bulk sessions' rows.
    QVariant bulkData(const QModelIndex &index, int role) const;
    void updateSessionChannels(int row, const engine::BulkSessionSummary &next);
    void rebuildSessionRows();
    int sessionRowOf(quint64 sessionId) const { return m_sessionRow.value(sessionId, -1); }

    std::vector<Watcher> m_watchers;
    QHash<QString, int> m_rowById;
    QHash<quint64, WatchRequest> m_requests; // watch operations by id
    engine::BulkSessionList m_sessions;
    QHash<quint64, int> m_sessionRow; // session id → row under "Bulk sessions"
    int m_eventCapacity;
    qint64 m_originNs = 0;
    bool m_hasOrigin = false;
};

} // namespace rvscope::ui
