// SPDX-License-Identifier: MIT
#include "streams/WatchEventModel.h"

#include <algorithm>

#include <QtGui/QColor>
#include <QtGui/QGuiApplication>
#include <QtGui/QPalette>

#include "AlarmColour.h"

namespace rvscope::ui {
namespace {
const QString BOOKMARK = QStringLiteral("BOOKMARK");
const QString ERROR_TYPE = QStringLiteral("ERROR");

// One string per event type instead of one per event: 50k rows share five strings.
QString internedType(const QString &type)
{
    static const QString known[] = {QStringLiteral("ADDED"), QStringLiteral("MODIFIED"), QStringLiteral("DELETED"),
                                    BOOKMARK, ERROR_TYPE};
    for (const QString &candidate : known) {
        if (candidate == type)
            return candidate;
    }
    return type;
}
} // namespace

WatchEventModel::WatchEventModel(QObject *parent, int capacity)
    : QAbstractTableModel(parent)
    , m_capacity(std::max(1, capacity))
{
}

void WatchEventModel::append(const QList<engine::WatchEventSummary> &events)
{
    if (events.isEmpty())
        return;
    std::vector<Row> added;
    added.reserve(std::size_t(events.size()));
    for (const engine::WatchEventSummary &event : events) {
        Row row;
        row.type = internedType(event.type);
        row.key = event.key;
        row.resourceVersion = event.resourceVersion;
        row.timeNs = event.timeNs;
        row.previousRv = m_lastRv;
        row.message = event.message;
        if (m_initialState && event.type == QLatin1String("ADDED")) {
            m_lastRv = std::max(m_lastRv, row.resourceVersion);
            m_hasLastRv = true;
        } else if (row.type == ERROR_TYPE) {
            m_initialState = false;
            row.anomaly = Anomaly::Error;
            m_closedWithError = true;
        } else if (row.type != BOOKMARK) {
            m_initialState = false;
            if (m_hasLastRv && row.resourceVersion <= m_lastRv) {
                row.anomaly = Anomaly::OutOfOrder;
                ++m_outOfOrder;
            }
            m_lastRv = row.resourceVersion;
            m_hasLastRv = true;
        }
        added.push_back(std::move(row));
    }
    m_total += quint64(added.size());

    // Only the newest `capacity` rows of a huge batch can stay.
    const auto keepFromBatch = std::min<std::size_t>(added.size(), std::size_t(m_capacity));
    const auto firstKept = added.end() - std::ptrdiff_t(keepFromBatch);
    const int overflow = int(m_rows.size() + keepFromBatch) - m_capacity;
    if (overflow > 0) {
        beginRemoveRows({}, 0, overflow - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(keepFromBatch) - 1);
    m_rows.insert(m_rows.end(), std::make_move_iterator(firstKept), std::make_move_iterator(added.end()));
    endInsertRows();
}

engine::WatchEventBatch WatchEventModel::summaries(const QString &watcherId, quint64 operationId) const
{
    engine::WatchEventBatch batch;
    batch.reserve(qsizetype(m_rows.size()));
    for (const Row &row : m_rows) {
        engine::WatchEventSummary event;
        event.watcherId = watcherId;
        event.operationId = operationId;
        event.type = row.type;
        event.resourceVersion = row.resourceVersion;
        event.key = row.key;
        event.timeNs = row.timeNs;
        event.message = row.message;
        batch.append(std::move(event));
    }
    return batch;
}

void WatchEventModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_lastRv = 0;
    m_hasLastRv = false;
    m_total = 0;
    m_outOfOrder = 0;
    m_closedWithError = false;
    endResetModel();
}

void WatchEventModel::setOriginNs(qint64 originNs)
{
    m_originNs = originNs;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, ArrivalColumn), index(rowCount() - 1, ArrivalColumn), {Qt::DisplayRole});
}

int WatchEventModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int WatchEventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WatchEventModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TypeColumn:
            return row.type;
        case ResourceVersionColumn:
            return row.resourceVersion > 0 ? QVariant(row.resourceVersion) : QVariant(QString());
        case KeyColumn:
            return row.key;
        case ArrivalColumn:
            return QString::number(double(row.timeNs - m_originNs) / 1e9, 'f', 6);
        case NoteColumn:
            return noteOf(row);
        default:
            return {};
        }
    case Qt::ForegroundRole:
        return row.anomaly != Anomaly::None ? QVariant(alarmColour()) : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == ResourceVersionColumn || index.column() == ArrivalColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        return row.anomaly != Anomaly::None ? noteOf(row) : QVariant();
    case AnomalyRole:
        return int(row.anomaly);
    case ResourceVersionRole:
        return row.resourceVersion;
    case TimeRole:
        return row.timeNs;
    default:
        return {};
    }
}

QString WatchEventModel::noteOf(const Row &row) const
{
    switch (row.anomaly) {
    case Anomaly::OutOfOrder:
        return row.resourceVersion == row.previousRv
            ? tr("duplicate: rv %1 again").arg(row.resourceVersion)
            : tr("out of order: rv %1 after %2").arg(row.resourceVersion).arg(row.previousRv);
    case Anomaly::Error:
        return row.message.isEmpty() ? tr("channel closed by the server") : tr("closed: %1").arg(row.message);
    case Anomaly::None:
        break;
    }
    return {};
}

QVariant WatchEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TypeColumn:
        return tr("Type");
    case ResourceVersionColumn:
        return tr("RV");
    case KeyColumn:
        return tr("Object");
    case ArrivalColumn:
        return tr("Arrival (s)");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}

} // namespace rvscope::ui
