// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include <QtCore/QAbstractItemModel>
#include <QtCore/QHash>
#include <QtCore/QStringList>

#include "engine/EngineTypes.h"

namespace rvscope::ui {

// One revision of an object as the journal shows it: produced by a successful write, or
// observed by a successful get when no journaled write produced it (objects older than the
// history).
struct ObjectRevision final {
    qint64 resourceVersion = 0;
    QString verb; // create, update, patch, delete, get
    QString clientId;
    quint64 operationId = 0;
    bool operator==(const ObjectRevision &) const = default;
};

// The objects the journaled operations touched, as a tree: resource type / namespace / name
// for namespaced keys ("configmaps/default/foo"), resource type / name for cluster-scoped
// ones ("namespaces/foo"). Built from successful operations on object keys (lists and
// watches name collections and are skipped). Each object shows its latest resourceVersion
// and keeps its revisions in ascending order (at most MAX_REVISIONS, the oldest dropped); an
// object whose newest revision is a delete is greyed (DeletedRole).
//
// Children are sorted by name; a new node is inserted with its own beginInsertRows. After
// each batch, objectsUpdated names the objects whose revisions changed. GUI thread only.
class ObjectTreeModel final : public QAbstractItemModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectTreeModel)

public:
    enum Column { NameColumn, ResourceVersionColumn, RevisionsColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 1, // QString: the object's key; empty on resource and namespace rows
        DeletedRole,                // bool
        LatestRvRole,               // qint64
    };
    static constexpr std::size_t MAX_REVISIONS = 20000;

    explicit ObjectTreeModel(QObject *parent = nullptr);
    ~ObjectTreeModel() override;

    void append(const engine::OperationBatch &batch);
    void clear();

    // The object row of `key`, invalid if unknown.
    QModelIndex indexOf(const QString &key) const;
    QString keyOf(const QModelIndex &index) const;
    // The object's revisions, ascending (empty for an unknown key).
    std::vector<ObjectRevision> revisions(const QString &key) const;
    bool isDeleted(const QString &key) const;
    int objectCount() const { return int(m_objects.size()); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void objectsUpdated(const QStringList &keys);

private:
    struct Node;
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOfNode(const Node *node, int column = 0) const;
    int rowOf(const Node *node) const;
    Node *childNamed(Node *parent, const QString &name, const QString &key);
    Node *objectNode(const QString &key);
    bool apply(const engine::OperationSummary &op, Node *object);

    std::unique_ptr<Node> m_root;
    QHash<QString, Node *> m_objects;
};

} // namespace rvscope::ui
