// SPDX-License-Identifier: MIT
#include "objects/ObjectRevisionModel.h"

#include <algorithm>

namespace rvscope::ui {

ObjectRevisionModel::ObjectRevisionModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ObjectRevisionModel::setObject(const QString &key, std::vector<ObjectRevision> revisions)
{
    // Both lists are ascending and free of duplicates, so matching first and last old
    // revisions at the same places means the old list is a prefix of the new one.
    const std::size_t old = m_revisions.size();
    const bool onlyAppended = key == m_key && revisions.size() >= old
        && (old == 0 || (revisions.front() == m_revisions.front() && revisions[old - 1] == m_revisions.back()));
    if (!onlyAppended) {
        beginResetModel();
        m_key = key;
        m_revisions = std::move(revisions);
        endResetModel();
        return;
    }
    if (revisions.size() == old)
        return;
    beginInsertRows({}, int(old), int(revisions.size()) - 1);
    m_revisions = std::move(revisions);
    endInsertRows();
}

qint64 ObjectRevisionModel::resourceVersion(int row) const
{
    return row >= 0 && row < rowCount() ? m_revisions[std::size_t(row)].resourceVersion : 0;
}

int ObjectRevisionModel::rowOf(qint64 resourceVersion) const
{
    const auto at = std::lower_bound(m_revisions.begin(), m_revisions.end(), resourceVersion,
                                     [](const ObjectRevision &r, qint64 wanted) { return r.resourceVersion < wanted; });
    return at != m_revisions.end() && at->resourceVersion == resourceVersion ? int(at - m_revisions.begin()) : -1;
}

int ObjectRevisionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_revisions.size());
}

int ObjectRevisionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ObjectRevisionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ObjectRevision &revision = m_revisions[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ResourceVersionColumn:
            return revision.resourceVersion;
        case ChangeColumn:
            return revision.verb == QLatin1String("get") ? tr("seen by get") : revision.verb;
        case ClientColumn:
            return revision.clientId;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() == ResourceVersionColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case ResourceVersionRole:
        return revision.resourceVersion;
    case OperationIdRole:
        return QVariant::fromValue(revision.operationId);
    default:
        return {};
    }
}

QVariant ObjectRevisionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ResourceVersionColumn:
        return tr("RV");
    case ChangeColumn:
        return tr("Change");
    case ClientColumn:
        return tr("Client");
    default:
        return {};
    }
}

} // namespace rvscope::ui
