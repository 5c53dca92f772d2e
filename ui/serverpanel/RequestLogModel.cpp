// SPDX-License-Identifier: MIT
#include "serverpanel/RequestLogModel.h"

#include <algorithm>

#include "AlarmColour.h"

namespace rvscope::ui {
RequestLogModel::RequestLogModel(QObject *parent, int capacity)
    : QAbstractTableModel(parent)
    , m_capacity(std::max(1, capacity))
{
}

void RequestLogModel::append(const engine::OperationBatch &batch)
{
    if (batch.isEmpty())
        return;
    if (!m_hasOrigin) {
        m_hasOrigin = true;
        m_originNs = batch.first().startNs;
    }
    m_total += quint64(batch.size());
    // Only the newest `capacity` operations of a huge batch can stay.
    const int keepFromBatch = std::min(int(batch.size()), m_capacity);
    const int overflow = int(m_rows.size()) + keepFromBatch - m_capacity;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + keepFromBatch - 1);
    m_rows.insert(m_rows.end(), batch.end() - keepFromBatch, batch.end());
    endInsertRows();
}

void RequestLogModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_hasOrigin = false;
    m_originNs = 0;
    m_total = 0;
    endResetModel();
}

int RequestLogModel::rowOf(quint64 id) const
{
    // The engine batches operations in id order.
    const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), id,
                                     [](const engine::OperationSummary &op, quint64 wanted) { return op.id < wanted; });
    return it != m_rows.end() && it->id == id ? int(it - m_rows.begin()) : -1;
}

int RequestLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RequestLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RequestLogModel::display(const engine::OperationSummary &op, int column) const
{
    switch (column) {
    case TimeColumn:
        return QString::number(double(op.startNs - m_originNs) / 1e9, 'f', 6);
    case ClientColumn:
        return op.clientId;
    case VerbColumn:
        return op.verb;
    case KeyColumn:
        return op.key;
    case StatusColumn:
        return op.statusCode != 0 ? QVariant(op.statusCode) : QVariant(QString());
    case ReasonColumn:
        return op.reason;
    case LatencyColumn:
        return op.pending() ? tr("open") : QString::number(double(op.endNs - op.startNs) / 1e6, 'f', 3);
    default:
        return {};
    }
}

QVariant RequestLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const engine::OperationSummary &op = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(op, index.column());
    case Qt::ForegroundRole:
        return op.statusCode >= 400 ? QVariant(alarmColour()) : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == TimeColumn || index.column() == StatusColumn || index.column() == LatencyColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole: {
        QString text = tr("%1 %2 by %3").arg(op.verb, op.key, op.clientId);
        if (op.rvSent > 0)
            text += tr("\nresourceVersion sent: %1").arg(op.rvSent);
        if (op.rvProduced > 0)
            text += tr("\nresourceVersion produced: %1").arg(op.rvProduced);
        if (op.casRetries > 0)
            text += tr("\nserver-side retries: %1").arg(op.casRetries);
        if (op.noop)
            text += tr("\nno-op: nothing changed");
        return text;
    }
    case OperationIdRole:
        return QVariant::fromValue(op.id);
    case StatusCodeRole:
        return op.statusCode;
    default:
        return {};
    }
}

QVariant RequestLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time (s)");
    case ClientColumn:
        return tr("Client");
    case VerbColumn:
        return tr("Verb");
    case KeyColumn:
        return tr("Key");
    case StatusColumn:
        return tr("Status");
    case ReasonColumn:
        return tr("Reason");
    case LatencyColumn:
        return tr("Latency (ms)");
    default:
        return {};
    }
}

} // namespace rvscope::ui
