// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>

#include "clients/LatencyHistogram.h"
#include "engine/EngineTypes.h"

namespace rvscope::ui {

// One row per client id seen in the operation journal (simulated clients, `rvscope client`
// processes, and kubectl or Python clients of the embedded server, whose id is their
// User-Agent product), rows in first-seen order, with what its writes did: attempts, 2xx,
// 409s, other errors and write latency percentiles.
//
// appendOperations() aggregates a whole engine batch and signals it at most once as
// rowsInserted (new clients) and once as dataChanged (the range of rows touched), however
// many operations the batch holds. GUI thread only.
class ClientTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientTableModel)

public:
    enum class Column { Client, Strategy, Writes, Succeeded, Conflicts, Errors, P50, P99, Count };
    enum Role { SortRole = Qt::UserRole + 1 }; // the raw number (or text) behind a cell

    struct ClientStats final {
        QString clientId;
        QString strategy; // the first non-empty strategy its operations carried
        int writes = 0;   // write requests (create, update, patch, delete) answered
        int succeeded = 0; // 2xx writes
        int conflicts = 0; // 409 writes
        int errors = 0;    // other failed writes
        int reads = 0;     // get, list, watch
        qint64 p50Ns = 0;
        qint64 p99Ns = 0;
        LatencyHistogram latency;
    };

    explicit ClientTableModel(QObject *parent = nullptr);
    ~ClientTableModel() override;

    // Operations in any order; pending ones (no response yet) are not counted.
    void appendOperations(const engine::OperationBatch &batch);
    void clear();

    // -1 when the client has not been seen.
    int rowOf(const QString &clientId) const;
    const ClientStats &client(int row) const { return m_rows[std::size_t(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "850 µs", "1.23 ms", "2.4 s" (empty for 0).
    static QString formatLatency(qint64 ns);

private:
    QVariant displayData(const ClientStats &stats, Column column) const;
    QVariant sortData(const ClientStats &stats, Column column) const;

    std::vector<ClientStats> m_rows;
    QHash<QString, int> m_rowByClient;
};

} // namespace rvscope::ui
