// SPDX-License-Identifier: MIT
#include "clients/ClientTableModel.h"

#include <algorithm>
#include <climits>

#include <QtCore/QSet>
#include <QtGui/QColor>

namespace rvscope::ui {
namespace {
using Column = ClientTableModel::Column;

constexpr int COLUMN_COUNT = int(Column::Count);
const QColor CONFLICT_COLOUR(0xD5, 0x5E, 0x00); // Okabe–Ito vermillion, as on the timeline

bool isRead(const QString &verb)
{
    return verb == QLatin1String("get") || verb == QLatin1String("list") || verb == QLatin1String("watch");
}

bool numeric(Column column)
{
    return column != Column::Client && column != Column::Strategy;
}
} // namespace

ClientTableModel::ClientTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

ClientTableModel::~ClientTableModel() = default;

void ClientTableModel::appendOperations(const engine::OperationBatch &batch)
{
    // New clients first, in one insertion, so the counting pass below only touches existing rows.
    const int oldCount = int(m_rows.size());
    QStringList newClients;
    QSet<QString> added;
    // A write another instance made is not a client here (UI.md: it arrived by watch).
    for (const engine::OperationSummary &op : batch) {
        if (!op.pending() && !op.remote && !m_rowByClient.contains(op.clientId) && !added.contains(op.clientId)) {
            added.insert(op.clientId);
            newClients.append(op.clientId);
        }
    }
    if (!newClients.isEmpty()) {
        beginInsertRows({}, oldCount, oldCount + int(newClients.size()) - 1);
        for (const QString &clientId : std::as_const(newClients)) {
            m_rowByClient.insert(clientId, int(m_rows.size()));
            m_rows.emplace_back().clientId = clientId;
        }
        endInsertRows();
    }

    std::vector<bool> touched(m_rows.size(), false);
    int first = INT_MAX;
    int last = -1;
    int row = -1;
    const QString *rowClient = nullptr;
    for (const engine::OperationSummary &op : batch) {
        if (op.pending() || op.remote)
            continue;
        // Batches come in runs of one client's operations: skip the hash lookup within a run.
        if (!rowClient || *rowClient != op.clientId)
            row = m_rowByClient.value(op.clientId);
        rowClient = &op.clientId;
        ClientStats &stats = m_rows[std::size_t(row)];
        if (stats.strategy.isEmpty())
            stats.strategy = op.strategy;
        if (op.isWrite()) {
            ++stats.writes;
            if (op.statusCode >= 200 && op.statusCode < 300)
                ++stats.succeeded;
            else if (op.conflict())
                ++stats.conflicts;
            else
                ++stats.errors;
            stats.latency.add(op.endNs - op.startNs);
        } else if (isRead(op.verb)) {
            ++stats.reads;
        }
        touched[std::size_t(row)] = true;
        first = std::min(first, row);
        last = std::max(last, row);
    }
    for (std::size_t i = 0; i < touched.size(); ++i) {
        if (touched[i]) {
            m_rows[i].p50Ns = m_rows[i].latency.quantile(0.50);
            m_rows[i].p99Ns = m_rows[i].latency.quantile(0.99);
        }
    }
    // Rows inserted just now were announced empty: their counts change too.
    if (last >= 0)
        Q_EMIT dataChanged(index(first, 0), index(last, COLUMN_COUNT - 1));
}

void ClientTableModel::clear()
{
    if (m_rows.empty())
        return;
    beginResetModel();
    m_rows.clear();
    m_rowByClient.clear();
    endResetModel();
}

int ClientTableModel::rowOf(const QString &clientId) const
{
    return m_rowByClient.value(clientId, -1);
}

int ClientTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ClientTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT;
}

QVariant ClientTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ClientStats &stats = m_rows[std::size_t(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayData(stats, column);
    case SortRole:
        return sortData(stats, column);
    case Qt::TextAlignmentRole:
        return numeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == Column::Conflicts && stats.conflicts > 0)
            return CONFLICT_COLOUR;
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %2 writes (%3 succeeded, %4 conflicts, %5 other errors), %6 reads")
            .arg(stats.clientId)
            .arg(stats.writes)
            .arg(stats.succeeded)
            .arg(stats.conflicts)
            .arg(stats.errors)
            .arg(stats.reads);
    default:
        return {};
    }
}

QVariant ClientTableModel::displayData(const ClientStats &stats, Column column) const
{
    switch (column) {
    case Column::Client:
        return stats.clientId;
    case Column::Strategy:
        return stats.strategy.isEmpty() ? QStringLiteral("—") : stats.strategy;
    case Column::Writes:
        return stats.writes;
    case Column::Succeeded:
        return stats.succeeded;
    case Column::Conflicts:
        return stats.conflicts;
    case Column::Errors:
        return stats.errors;
    case Column::P50:
        return formatLatency(stats.p50Ns);
    case Column::P99:
        return formatLatency(stats.p99Ns);
    case Column::Count:
        break;
    }
    return {};
}

QVariant ClientTableModel::sortData(const ClientStats &stats, Column column) const
{
    switch (column) {
    case Column::P50:
        return stats.p50Ns;
    case Column::P99:
        return stats.p99Ns;
    default:
        return displayData(stats, column);
    }
}

QVariant ClientTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= COLUMN_COUNT)
        return {};
    const auto column = static_cast<Column>(section);
    if (role == Qt::TextAlignmentRole)
        return numeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool tip = role == Qt::ToolTipRole;
    switch (column) {
    case Column::Client:
        return tip ? tr("The client id: a simulated client's name, or an HTTP client's User-Agent product")
                   : tr("Client");
    case Column::Strategy:
        return tip ? tr("How the client writes (— for HTTP clients, which do not say)") : tr("Strategy");
    case Column::Writes:
        return tip ? tr("Write requests answered (create, update, patch, delete)") : tr("Writes");
    case Column::Succeeded:
        return tip ? tr("Writes answered 2xx") : tr("2xx");
    case Column::Conflicts:
        return tip ? tr("Writes answered 409 Conflict") : tr("409");
    case Column::Errors:
        return tip ? tr("Writes answered with any other error") : tr("Errors");
    case Column::P50:
        return tip ? tr("Median write latency (request to response)") : tr("p50");
    case Column::P99:
        return tip ? tr("99th percentile write latency") : tr("p99");
    case Column::Count:
        break;
    }
    return {};
}

QString ClientTableModel::formatLatency(qint64 ns)
{
    if (ns <= 0)
        return {};
    if (ns < 1'000'000)
        return QStringLiteral("%1 µs").arg(double(ns) / 1e3, 0, 'f', ns < 10'000 ? 1 : 0);
    if (ns < 1'000'000'000)
        return QStringLiteral("%1 ms").arg(double(ns) / 1e6, 0, 'f', ns < 10'000'000 ? 2 : 1);
    return QStringLiteral("%1 s").arg(double(ns) / 1e9, 0, 'f', 2);
}

} // namespace rvscope::ui
