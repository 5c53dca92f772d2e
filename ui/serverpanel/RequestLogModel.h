// SPDX-License-Identifier: MIT
#pragma once

#include <deque>

#include <QtCore/QAbstractTableModel>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

// The Server panel's request log: every journaled operation (HTTP clients, simulated clients
// and scenarios alike; the batches do not tell them apart), oldest first, as the engine
// batches them. A batch is added with one beginInsertRows; past `capacity` the oldest rows
// are removed with one beginRemoveRows. Times are shown in seconds since the first logged
// operation. GUI thread only.
class RequestLogModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestLogModel)

public:
    enum Column { TimeColumn, ClientColumn, VerbColumn, KeyColumn, StatusColumn, ReasonColumn, LatencyColumn, ColumnCount };
    enum Role {
        OperationIdRole = Qt::UserRole + 1, // quint64
        StatusCodeRole,                     // int
    };
    static constexpr int DEFAULT_CAPACITY = 50000;

    explicit RequestLogModel(QObject *parent = nullptr, int capacity = DEFAULT_CAPACITY);

    void append(const engine::OperationBatch &batch);
    void clear();

    int capacity() const { return m_capacity; }
    // Every operation appended, including those the cap dropped.
    quint64 totalOperations() const { return m_total; }
    const engine::OperationSummary &operation(int row) const { return m_rows[std::size_t(row)]; }
    // The row of an operation id, -1 if it is not (or no longer) in the log.
    int rowOf(quint64 id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const engine::OperationSummary &op, int column) const;

    std::deque<engine::OperationSummary> m_rows;
    int m_capacity;
    qint64 m_originNs = 0;
    bool m_hasOrigin = false;
    quint64 m_total = 0;
};

} // namespace rvscope::ui
