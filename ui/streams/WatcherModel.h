// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

class WatchEventModel;

// The watchers the Streams panel has seen, one row each (first seen first), and the router
// that demultiplexes WatchEventBatch by watcherId into one WatchEventModel per watcher.
//
// A watcher appears with its first event, or when the GUI opened it (addOpenedWatch) before
// any event. Its client and collection come from the journaled watch request (the operation
// whose id is the event's operationId) when noteOperations saw it, and from the WatchChannel
// for watches opened here. A batch inserts all its new watchers with one beginInsertRows and
// updates the counters with one dataChanged. GUI thread only.
class WatcherModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatcherModel)

public:
    enum Column { WatcherColumn, CollectionColumn, ClientColumn, EventsColumn, StateColumn, ColumnCount };
    enum Role {
        WatcherIdRole = Qt::UserRole + 1, // QString
        ChannelIdRole,                    // quint64: the WatchChannel id, 0 if not opened here
        OpenRole,                         // bool: opened here and neither closed nor ended
    };

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

    int rowOf(const QString &watcherId) const { return m_rowById.value(watcherId, -1); }
    QString watcherId(int row) const;
    quint64 channelId(int row) const;
    bool isOpen(int row) const;
    // The watcher's events; owned by this model, valid until clear().
    WatchEventModel *events(int row) const;

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

    std::vector<Watcher> m_watchers;
    QHash<QString, int> m_rowById;
    QHash<quint64, WatchRequest> m_requests; // watch operations by id
    int m_eventCapacity;
    qint64 m_originNs = 0;
    bool m_hasOrigin = false;
};

} // namespace rvscope::ui
