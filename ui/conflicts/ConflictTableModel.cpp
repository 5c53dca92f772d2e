// SPDX-License-Identifier: MIT
#include "conflicts/ConflictTableModel.h"

#include <algorithm>

#include <QtCore/QIODevice>
#include <QtGui/QColor>
#include <QtGui/QFont>

#include "conflicts/FieldOverlap.h"

namespace rvscope::ui {
namespace {
using Column = ConflictTableModel::Column;

constexpr int COLUMN_COUNT = int(Column::Count);
const QColor CONFLICT_COLOUR(0xD5, 0x5E, 0x00); // Okabe–Ito vermillion, the timeline's 409 colour

bool numeric(Column column)
{
    return column == Column::Time || column == Column::RvSent || column == Column::RvCurrent;
}

QString rvText(qint64 rv)
{
    return rv > 0 ? QString::number(rv) : QStringLiteral("—");
}

QByteArray csvField(const QString &text)
{
    QByteArray bytes = text.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r'))
        bytes = '"' + bytes.replace('"', "\"\"") + '"';
    return bytes;
}
} // namespace

ConflictTableModel::ConflictTableModel(QObject *parent, int capacity)
    : QAbstractTableModel(parent)
    , m_capacity(std::max(capacity, 1))
{
}

ConflictTableModel::~ConflictTableModel() = default;

void ConflictTableModel::appendOperations(const engine::OperationBatch &batch)
{
    std::vector<Conflict> added;
    for (const engine::OperationSummary &op : batch) {
        if (!m_hasOrigin && !op.remote) { // a remote write's start is unknown (0)
            m_originNs = op.startNs;
            m_hasOrigin = true;
        }
        if (op.isWrite() && op.statusCode >= 200 && op.statusCode < 300 && op.rvProduced > 0) {
            qint64 &latest = m_latestRvOfKey[op.key];
            latest = std::max(latest, op.rvProduced);
        } else if (op.conflict()) {
            Conflict conflict;
            conflict.id = op.id;
            conflict.endNs = op.pending() ? op.startNs : op.endNs;
            conflict.clientId = op.clientId;
            conflict.strategy = op.strategy;
            conflict.verb = op.verb;
            conflict.key = op.key;
            conflict.rvSent = op.rvSent;
            conflict.rvCurrent = m_latestRvOfKey.value(op.key);
            conflict.reason = op.reason;
            conflict.message = op.message;
            // An ownership 409 names its fields and managers itself: no need to inspect it.
            if (op.reason == QLatin1String("FieldManagerConflict"))
                conflict.overlap = FieldOverlap::ownershipOf(op).cellText();
            // An injected 409 overlapped nothing: no write came between.
            conflict.injected = !op.injected.isEmpty();
            if (conflict.injected)
                conflict.overlap = tr("injected by a fault rule");
            added.push_back(std::move(conflict));
        }
    }
    if (added.empty())
        return;

    // Make room first, then one insertion for the batch (at most `capacity` of its newest rows).
    if (added.size() > std::size_t(m_capacity))
        added.erase(added.begin(), added.end() - m_capacity);
    const qsizetype excess = qsizetype(m_rows.size() + added.size()) - m_capacity;
    if (excess > 0) {
        beginRemoveRows({}, 0, int(excess) - 1);
        for (qsizetype i = 0; i < excess; ++i) {
            m_sequenceOfId.remove(m_rows.front().id);
            m_injected -= m_rows.front().injected;
            m_rows.pop_front();
        }
        m_removed += excess;
        endRemoveRows();
    }
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(added.size()) - 1);
    for (const Conflict &conflict : added)
        m_injected += conflict.injected;
    for (Conflict &conflict : added) {
        m_sequenceOfId.insert(conflict.id, m_removed + qint64(m_rows.size()));
        m_rows.push_back(std::move(conflict));
    }
    endInsertRows();
}

void ConflictTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_removed = 0;
    m_sequenceOfId.clear();
    m_latestRvOfKey.clear();
    m_injected = 0;
    m_hasOrigin = false;
    m_originNs = 0;
    endResetModel();
}

int ConflictTableModel::rowOfOperation(quint64 id) const
{
    const auto it = m_sequenceOfId.constFind(id);
    return it == m_sequenceOfId.cend() ? -1 : int(*it - m_removed);
}

void ConflictTableModel::setOverlap(quint64 id, const FieldOverlap &overlap)
{
    const int row = rowOfOperation(id);
    const QString text = overlap.cellText();
    if (row < 0 || m_rows[std::size_t(row)].injected || m_rows[std::size_t(row)].overlap == text)
        return;
    m_rows[std::size_t(row)].overlap = text;
    m_rows[std::size_t(row)].falseConflict = overlap.falseConflict();
    const QModelIndex cell = index(row, int(Column::Overlap));
    Q_EMIT dataChanged(cell, cell);
}

QString ConflictTableModel::formatTime(qint64 ns) const
{
    const double ms = double(ns - m_originNs) / 1e6;
    if (ms < 10'000)
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', 3);
    return QStringLiteral("%1 s").arg(ms / 1e3, 0, 'f', 3);
}

bool ConflictTableModel::writeCsv(QIODevice &device) const
{
    QList<QByteArray> header = {"id", "verb"};
    for (int column = 0; column < COLUMN_COUNT; ++column)
        header.append(csvField(headerData(column, Qt::Horizontal, Qt::DisplayRole).toString()));
    if (device.write(header.join(',') + '\n') < 0)
        return false;
    for (const Conflict &conflict : m_rows) {
        QList<QByteArray> fields = {QByteArray::number(conflict.id), csvField(conflict.verb)};
        for (int column = 0; column < COLUMN_COUNT; ++column) {
            const auto which = static_cast<Column>(column);
            // Numbers stay numbers in a spreadsheet: raw values, no dashes or units.
            if (which == Column::Time)
                fields.append(QByteArray::number(double(conflict.endNs - m_originNs) / 1e6, 'f', 3));
            else if (which == Column::RvSent)
                fields.append(QByteArray::number(conflict.rvSent));
            else if (which == Column::RvCurrent)
                fields.append(QByteArray::number(conflict.rvCurrent));
            else if (which == Column::Strategy)
                fields.append(csvField(conflict.strategy));
            else
                fields.append(csvField(displayData(conflict, which).toString()));
        }
        if (device.write(fields.join(',') + '\n') < 0)
            return false;
    }
    return true;
}

int ConflictTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ConflictTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT;
}

QVariant ConflictTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Conflict &conflict = m_rows[std::size_t(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayData(conflict, column);
    case SortRole:
        switch (column) {
        case Column::Time:
            return conflict.endNs;
        case Column::RvSent:
            return conflict.rvSent;
        case Column::RvCurrent:
            return conflict.rvCurrent;
        default:
            return displayData(conflict, column);
        }
    case OperationIdRole:
        return conflict.id;
    case InjectedRole:
        return conflict.injected;
    case Qt::TextAlignmentRole:
        return numeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == Column::RvSent)
            return CONFLICT_COLOUR;
        return {};
    case Qt::FontRole:
        if (column == Column::Overlap && conflict.falseConflict) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::ToolTipRole:
        return tr("#%1 %2 %3 by %4: sent rv %5, the key was at rv %6 (%7)\n%8")
            .arg(conflict.id)
            .arg(conflict.verb, conflict.key, conflict.clientId, rvText(conflict.rvSent), rvText(conflict.rvCurrent),
                 conflict.reason, conflict.message);
    default:
        return {};
    }
}

QVariant ConflictTableModel::displayData(const Conflict &conflict, Column column) const
{
    switch (column) {
    case Column::Time:
        return formatTime(conflict.endNs);
    case Column::Client:
        return conflict.clientId;
    case Column::Strategy:
        return conflict.strategy.isEmpty() ? QStringLiteral("—") : conflict.strategy;
    case Column::Object:
        return conflict.key;
    case Column::RvSent:
        return rvText(conflict.rvSent);
    case Column::RvCurrent:
        return rvText(conflict.rvCurrent);
    case Column::Reason:
        return conflict.injected ? tr("%1 (injected)").arg(conflict.reason) : conflict.reason;
    case Column::Overlap:
        return conflict.overlap;
    case Column::Count:
        break;
    }
    return {};
}

QVariant ConflictTableModel::headerData(int section, Qt::Orientation orientation, int role) const
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
    case Column::Time:
        return tip ? tr("When the 409 was answered, from the first operation of this history") : tr("Time");
    case Column::Client:
        return tr("Client");
    case Column::Strategy:
        return tip ? tr("The client's write strategy (— for HTTP clients)") : tr("Strategy");
    case Column::Object:
        return tr("Object");
    case Column::RvSent:
        return tip ? tr("The resourceVersion the client sent: the version it had read") : tr("RV sent");
    case Column::RvCurrent:
        return tip ? tr("The key's newest revision committed before the 409: what the client lost to")
                   : tr("RV current");
    case Column::Reason:
        return tr("Reason");
    case Column::Overlap:
        return tip ? tr("Fields both the client and the intervening writes changed (filled in once a row is "
                        "inspected); \"false conflict\" when none. For a field ownership conflict "
                        "(FieldManagerConflict): each manager and the fields it owns")
                   : tr("Overlap");
    case Column::Count:
        break;
    }
    return {};
}

} // namespace rvscope::ui
