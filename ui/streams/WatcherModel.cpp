// SPDX-License-Identifier: MIT
#include "streams/WatcherModel.h"

#include <algorithm>
#include <climits>

#include <QtGui/QColor>
#include <QtGui/QFont>
#include <QtGui/QGuiApplication>
#include <QtGui/QPalette>

#include "AlarmColour.h"
#include "streams/WatchEventModel.h"

namespace rvscope::ui {
namespace {
// Watch requests are remembered only to name their watchers; a run that opens more than
// this many watches forgets the older ones (their watchers are already described).
constexpr int MAX_REMEMBERED_REQUESTS = 10000;

QString channelWatcherId(quint64 channelId)
{
    return QStringLiteral("watch-%1").arg(channelId);
}
} // namespace

WatcherModel::WatcherModel(QObject *parent, int eventCapacity)
    : QAbstractItemModel(parent)
    , m_eventCapacity(eventCapacity)
{
}

WatcherModel::~WatcherModel() = default;

WatcherModel::Watcher &WatcherModel::watcherFor(const engine::WatchEventSummary &event, int &newRows)
{
    const auto found = m_rowById.constFind(event.watcherId);
    if (found != m_rowById.constEnd())
        return m_watchers[std::size_t(*found)];
    Watcher watcher;
    watcher.id = event.watcherId;
    watcher.operationId = event.operationId;
    watcher.events = new WatchEventModel(this, m_eventCapacity);
    watcher.events->setOriginNs(m_originNs);
    describe(watcher);
    m_rowById.insert(watcher.id, int(m_watchers.size()));
    m_watchers.push_back(std::move(watcher));
    ++newRows;
    return m_watchers.back();
}

void WatcherModel::appendEvents(const engine::WatchEventBatch &batch)
{
    if (batch.isEmpty())
        return;
    if (!m_hasOrigin) {
        m_hasOrigin = true;
        m_originNs = batch.first().timeNs;
        for (const Watcher &watcher : m_watchers)
            watcher.events->setOriginNs(m_originNs);
    }
    // Demultiplex, keeping each watcher's delivery order and the order watchers first appear.
    QHash<QString, QList<engine::WatchEventSummary>> byWatcher;
    QStringList order;
    for (const engine::WatchEventSummary &event : batch) {
        auto &events = byWatcher[event.watcherId];
        if (events.isEmpty())
            order.append(event.watcherId);
        events.append(event);
    }
    int newRows = 0;
    for (const QString &id : std::as_const(order)) {
        if (!m_rowById.contains(id))
            ++newRows;
    }
    if (newRows > 0) {
        const int first = int(m_watchers.size());
        beginInsertRows({}, first, first + newRows - 1);
        int created = 0;
        for (const QString &id : std::as_const(order))
            watcherFor(byWatcher.value(id).first(), created);
        endInsertRows();
    }
    int low = INT_MAX;
    int high = -1;
    for (const QString &id : std::as_const(order)) {
        const int row = m_rowById.value(id);
        const QList<engine::WatchEventSummary> &events = byWatcher[id];
        Watcher &watcher = m_watchers[std::size_t(row)];
        watcher.events->append(events);
        if (watcher.operationId == 0 && events.first().operationId != 0) {
            watcher.operationId = events.first().operationId;
            describe(watcher);
        }
        low = std::min(low, row);
        high = std::max(high, row);
    }
    Q_EMIT dataChanged(index(low, 0), index(high, ColumnCount - 1));
}

void WatcherModel::noteOperations(const engine::OperationBatch &batch)
{
    int low = INT_MAX;
    int high = -1;
    for (const engine::OperationSummary &op : batch) {
        if (op.verb != QLatin1String("watch"))
            continue;
        if (m_requests.size() >= MAX_REMEMBERED_REQUESTS)
            m_requests.clear();
        m_requests.insert(op.id, WatchRequest{op.clientId, op.key});
        // Watchers whose events came before their request was batched.
        for (std::size_t row = 0; row < m_watchers.size(); ++row) {
            Watcher &watcher = m_watchers[row];
            if (watcher.operationId == op.id && watcher.client.isEmpty()) {
                describe(watcher);
                low = std::min(low, int(row));
                high = std::max(high, int(row));
            }
        }
    }
    if (high >= 0)
        Q_EMIT dataChanged(index(low, 0), index(high, ColumnCount - 1));
}

int WatcherModel::addOpenedWatch(const engine::WatchChannel &channel)
{
    const QString id = channelWatcherId(channel.id);
    int row = rowOf(id);
    if (row < 0) {
        row = int(m_watchers.size());
        beginInsertRows({}, row, row);
        engine::WatchEventSummary first;
        first.watcherId = id;
        first.operationId = channel.id;
        int created = 0;
        watcherFor(first, created);
        endInsertRows();
    }
    Watcher &watcher = m_watchers[std::size_t(row)];
    watcher.channelId = channel.id;
    watcher.collection = channel.collection;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return row;
}

void WatcherModel::markClosed(int row)
{
    if (row < 0 || row >= watcherCount())
        return;
    m_watchers[std::size_t(row)].closedHere = true;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void WatcherModel::clear()
{
    beginResetModel();
    for (const Watcher &watcher : m_watchers)
        delete watcher.events;
    m_watchers.clear();
    m_rowById.clear();
    m_requests.clear();
    m_hasOrigin = false;
    m_originNs = 0;
    endResetModel();
}

QString WatcherModel::watcherId(int row) const
{
    return row >= 0 && row < watcherCount() ? m_watchers[std::size_t(row)].id : QString();
}

quint64 WatcherModel::channelId(int row) const
{
    return row >= 0 && row < watcherCount() ? m_watchers[std::size_t(row)].channelId : 0;
}

bool WatcherModel::isOpen(int row) const
{
    if (row < 0 || row >= watcherCount())
        return false;
    const Watcher &watcher = m_watchers[std::size_t(row)];
    return watcher.channelId != 0 && !watcher.closedHere && !watcher.events->closedWithError();
}

WatchEventModel *WatcherModel::events(int row) const
{
    return row >= 0 && row < watcherCount() ? m_watchers[std::size_t(row)].events : nullptr;
}

engine::WatchEventBatch WatcherModel::deliveries(int row) const
{
    if (row < 0 || row >= watcherCount())
        return {};
    const Watcher &watcher = m_watchers[std::size_t(row)];
    return watcher.events->summaries(watcher.id, watcher.operationId);
}

void WatcherModel::describe(Watcher &watcher) const
{
    const auto request = m_requests.constFind(watcher.operationId);
    if (request == m_requests.constEnd())
        return;
    watcher.client = request->client;
    if (watcher.collection.isEmpty())
        watcher.collection = request->collection;
}

QString WatcherModel::stateOf(const Watcher &watcher) const
{
    QStringList parts;
    if (watcher.events->closedWithError())
        parts << tr("closed: ERROR");
    else if (watcher.closedHere)
        parts << tr("closed");
    else if (watcher.channelId != 0)
        parts << tr("open");
    if (const int outOfOrder = watcher.events->outOfOrderCount(); outOfOrder > 0)
        parts << tr("%n out of order", nullptr, outOfOrder);
    return parts.join(QStringLiteral(" · "));
}

int WatcherModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant WatcherModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (kindOf(index) != Kind::Watcher)
        return bulkData(index, role);
    const Watcher &watcher = m_watchers[std::size_t(index.row())];
    const bool alarming = watcher.events->closedWithError() || watcher.events->outOfOrderCount() > 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case WatcherColumn:
            return watcher.id;
        case CollectionColumn:
            return watcher.collection;
        case ClientColumn:
            return watcher.channelId != 0 ? tr("opened here") : watcher.client;
        case EventsColumn:
            return QVariant::fromValue(watcher.events->totalEvents());
        case StateColumn:
            return stateOf(watcher);
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() == StateColumn && alarming)
            return alarmColour();
        return {};
    case Qt::FontRole:
        if (index.column() == WatcherColumn && watcher.channelId != 0) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == EventsColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (watcher.channelId != 0)
            return tr("%1\nopened from this panel on %2").arg(watcher.id, watcher.collection);
        if (watcher.client.isEmpty())
            return watcher.id;
        return tr("%1\nwatch by %2 on %3").arg(watcher.id, watcher.client, watcher.collection);
    case WatcherIdRole:
        return watcher.id;
    case ChannelIdRole:
        return QVariant::fromValue(watcher.channelId);
    case OpenRole:
        return isOpen(index.row());
    case KindRole:
        return int(Kind::Watcher);
    default:
        return {};
    }
}

QVariant WatcherModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case WatcherColumn:
        return tr("Watcher");
    case CollectionColumn:
        return tr("Collection");
    case ClientColumn:
        return tr("Client");
    case EventsColumn:
        return tr("Events");
    case StateColumn:
        return tr("State");
    default:
        return {};
    }
}

} // namespace rvscope::ui
