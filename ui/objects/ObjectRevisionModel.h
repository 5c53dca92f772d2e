// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QAbstractTableModel>

#include "objects/ObjectTreeModel.h"

namespace rvscope::ui {

// The revisions of the object selected in the Objects panel, oldest first. setObject()
// appends when the object only gained newer revisions (the common case while clients write)
// and resets otherwise. GUI thread only.
class ObjectRevisionModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectRevisionModel)

public:
    enum Column { ResourceVersionColumn, ChangeColumn, ClientColumn, ColumnCount };
    enum Role {
        ResourceVersionRole = Qt::UserRole + 1, // qint64
        OperationIdRole,                        // quint64
    };

    explicit ObjectRevisionModel(QObject *parent = nullptr);

    void setObject(const QString &key, std::vector<ObjectRevision> revisions);
    void clear() { setObject({}, {}); }

    const QString &key() const { return m_key; }
    qint64 resourceVersion(int row) const;
    // The row of a revision, -1 if the object has no such revision.
    int rowOf(qint64 resourceVersion) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_key;
    std::vector<ObjectRevision> m_revisions;
};

} // namespace rvscope::ui
