// SPDX-License-Identifier: MIT
#pragma once

#include <deque>

#include <QtCore/QAbstractTableModel>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

// The events one watcher received, oldest first, for the Streams panel's table. The buffer is
// capped: when it is full the oldest rows are removed (one beginRemoveRows), and a batch is
// added with one beginInsertRows, so the view keeps up with thousands of events per second.
//
// Each event is checked as it is appended against the previous non-BOOKMARK event's
// resourceVersion: a revision lower than or equal to it is a reorder or a duplicate
// (AnomalyRole = OutOfOrder). An ERROR event, with which the server closes the channel, is
// flagged too (Anomaly::Error). The checks survive the cap: they do not need dropped rows.
// GUI thread only.
class WatchEventModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatchEventModel)

public:
    enum Column { TypeColumn, ResourceVersionColumn, KeyColumn, ArrivalColumn, NoteColumn, ColumnCount };
    enum Role {
        AnomalyRole = Qt::UserRole + 1, // int(Anomaly)
        ResourceVersionRole,            // qint64
        TimeRole,                       // qint64, monotonic ns
    };
    enum class Anomaly { None, OutOfOrder, Error };
    static constexpr int DEFAULT_CAPACITY = 50000;

    explicit WatchEventModel(QObject *parent = nullptr, int capacity = DEFAULT_CAPACITY);

    // Appends events of this watcher, in delivery order.
    void append(const QList<engine::WatchEventSummary> &events);
    void clear();
    // Arrival times are shown in seconds since `originNs` (the panel's first event).
    void setOriginNs(qint64 originNs);

    int capacity() const { return m_capacity; }
    // Every event appended, including those the cap dropped.
    quint64 totalEvents() const { return m_total; }
    // Events flagged OutOfOrder (reorders and duplicates).
    int outOfOrderCount() const { return m_outOfOrder; }
    bool closedWithError() const { return m_closedWithError; }
    // The rows as engine values again, oldest first, naming `watcherId` and `operationId`.
    engine::WatchEventBatch summaries(const QString &watcherId, quint64 operationId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row final {
        QString type;
        QString key;
        qint64 resourceVersion = 0;
        qint64 previousRv = 0; // the previous non-BOOKMARK event's, for the note
        qint64 timeNs = 0;
        QString message; // ERROR: the closing Status
        Anomaly anomaly = Anomaly::None;
    };
    QString noteOf(const Row &row) const;

    std::deque<Row> m_rows;
    int m_capacity;
    qint64 m_originNs = 0;
    qint64 m_lastRv = 0;
    bool m_hasLastRv = false;
    // Until the first non-ADDED event a watch from "0" may be sending the current state,
    // in key order rather than resourceVersion order: not a reorder.
    bool m_initialState = true;
    quint64 m_total = 0;
    int m_outOfOrder = 0;
    bool m_closedWithError = false;
};

} // namespace rvscope::ui
