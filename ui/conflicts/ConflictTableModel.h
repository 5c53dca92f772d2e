// SPDX-License-Identifier: MIT
#pragma once

#include <deque>

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>

#include "engine/EngineTypes.h"

class QIODevice;

namespace rvscope::ui {

struct FieldOverlap;

// One row per 409 answer in the operation journal, oldest first: when it was answered,
// who sent it with which strategy, the object, the resourceVersion the client sent and the
// one it lost to, and the reason (Conflict, AlreadyExists, FieldManagerConflict). Once a row's
// operation has been inspected, setOverlap() fills in whether the fields actually overlapped;
// an ownership conflict's row names its managers and fields from the start.
//
// appendOperations() expects operations in completion order (the engine's batches): a row's
// "RV current" is the newest revision produced by a successful write of its key among the
// operations appended before it, i.e. completed before the 409 was answered. Times are shown
// relative to the first operation appended since the last clear(). One rowsInserted per
// batch; beyond `capacity` rows the oldest are removed. GUI thread only.
class ConflictTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConflictTableModel)

public:
    enum class Column { Time, Client, Strategy, Object, RvSent, RvCurrent, Reason, Overlap, Count };
    enum Role {
        SortRole = Qt::UserRole + 1, // the raw value behind a cell
        OperationIdRole,             // quint64, on every cell
        InjectedRole,                // bool, on every cell: a fault rule answered the 409
    };

    struct Conflict final {
        quint64 id = 0;
        qint64 endNs = 0;
        QString clientId;
        QString strategy;
        QString verb;
        QString key;
        qint64 rvSent = 0;
        qint64 rvCurrent = 0; // 0: no successful write of the key seen
        QString reason;
        QString message; // the Status message
        QString overlap; // FieldOverlap::cellText(), empty until inspected
        bool falseConflict = false;
        bool injected = false; // a fault rule answered it, not the server's own check
    };

    explicit ConflictTableModel(QObject *parent = nullptr, int capacity = 100'000);
    ~ConflictTableModel() override;

    void appendOperations(const engine::OperationBatch &batch);
    void clear();

    const Conflict &conflict(int row) const { return m_rows[std::size_t(row)]; }
    // -1 when the operation is not a listed conflict.
    int rowOfOperation(quint64 id) const;
    // How many of the rows a fault rule answered.
    int injectedCount() const { return m_injected; }
    void setOverlap(quint64 id, const FieldOverlap &overlap);
    // The time column's text for a monotonic time.
    QString formatTime(qint64 ns) const;

    // Every row (all columns, plus the operation id and verb) as RFC 4180 CSV with a header line.
    bool writeCsv(QIODevice &device) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const Conflict &conflict, Column column) const;

    int m_capacity;
    std::deque<Conflict> m_rows;
    qint64 m_removed = 0;                  // rows dropped from the front since the last clear
    QHash<quint64, qint64> m_sequenceOfId; // row = sequence - m_removed
    QHash<QString, qint64> m_latestRvOfKey;
    qint64 m_originNs = 0;
    bool m_hasOrigin = false;
    int m_injected = 0;
};

} // namespace rvscope::ui
