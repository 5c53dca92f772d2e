// SPDX-License-Identifier: MIT
#include "objects/ObjectTreeModel.h"

#include <algorithm>

#include <QtCore/QSet>
#include <QtGui/QFont>
#include <QtGui/QGuiApplication>
#include <QtGui/QPalette>

namespace rvscope::ui {

struct ObjectTreeModel::Node final {
    QString name;
    QString key; // objects only
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children; // sorted by name
    qint64 latestRv = 0;
    bool deleted = false;
    std::vector<ObjectRevision> revisions; // ascending

    bool isObject() const { return !key.isEmpty(); }
    int objectCount() const
    {
        int count = isObject() ? 1 : 0;
        for (const auto &child : children)
            count += child->objectCount();
        return count;
    }
};

namespace {
bool succeeded(const engine::OperationSummary &op)
{
    return !op.pending() && op.statusCode >= 200 && op.statusCode < 300;
}

bool namesCollection(const engine::OperationSummary &op)
{
    return op.verb == QLatin1String("list") || op.verb == QLatin1String("watch");
}
} // namespace

ObjectTreeModel::ObjectTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{
}

ObjectTreeModel::~ObjectTreeModel() = default;

void ObjectTreeModel::append(const engine::OperationBatch &batch)
{
    QStringList updated;
    QSet<Node *> changed;
    for (const engine::OperationSummary &op : batch) {
        if (!succeeded(op) || namesCollection(op) || op.rvProduced <= 0)
            continue;
        Node *object = objectNode(op.key);
        if (object && apply(op, object) && !changed.contains(object)) {
            changed.insert(object);
            updated.append(object->key);
        }
    }
    for (Node *object : std::as_const(changed))
        Q_EMIT dataChanged(indexOfNode(object, ResourceVersionColumn), indexOfNode(object, RevisionsColumn));
    if (!updated.isEmpty())
        Q_EMIT objectsUpdated(updated);
}

bool ObjectTreeModel::apply(const engine::OperationSummary &op, Node *object)
{
    const qint64 rv = op.rvProduced;
    bool changed = false;
    // Writes produce revisions; a get only reveals one that no journaled write produced.
    if (op.isWrite() || rv > object->latestRv) {
        auto &revisions = object->revisions;
        const auto at = std::lower_bound(revisions.begin(), revisions.end(), rv,
                                         [](const ObjectRevision &r, qint64 wanted) { return r.resourceVersion < wanted; });
        const ObjectRevision revision{rv, op.verb, op.clientId, op.id};
        if (at == revisions.end() || at->resourceVersion != rv) {
            revisions.insert(at, revision);
            // The oldest tenth goes at once: dropping one per write moved the whole vector
            // on every write of a hot key (50+ ms batches at 20000 revisions).
            if (revisions.size() > MAX_REVISIONS)
                revisions.erase(revisions.begin(), revisions.begin() + std::ptrdiff_t(MAX_REVISIONS / 10));
            changed = true;
        } else if (op.isWrite() && at->verb == QLatin1String("get")) {
            *at = revision; // the write that produced what a get saw first
            changed = true;
        }
    }
    if (rv >= object->latestRv) {
        const bool deleted = op.isWrite() ? op.verb == QLatin1String("delete") : object->deleted;
        changed = changed || rv > object->latestRv || deleted != object->deleted;
        object->latestRv = rv;
        object->deleted = deleted;
    }
    return changed;
}

ObjectTreeModel::Node *ObjectTreeModel::objectNode(const QString &key)
{
    if (Node *known = m_objects.value(key))
        return known;
    // "resource/namespace/name" or, cluster-scoped, "resource/name" (a subresource's key
    // counts as its object's).
    const QStringList parts = key.split(QLatin1Char('/'));
    if (parts.size() < 2 || parts.contains(QString()))
        return nullptr;
    const bool namespaced = parts.size() >= 3;
    const QString objectKey = namespaced ? parts.mid(0, 3).join(QLatin1Char('/')) : key;
    if (Node *known = m_objects.value(objectKey))
        return known;
    Node *resource = childNamed(m_root.get(), parts[0], {});
    Node *group = namespaced ? childNamed(resource, parts[1], {}) : resource;
    return childNamed(group, parts[namespaced ? 2 : 1], objectKey);
}

ObjectTreeModel::Node *ObjectTreeModel::childNamed(Node *parent, const QString &name, const QString &key)
{
    auto &children = parent->children;
    const auto at = std::lower_bound(children.begin(), children.end(), name,
                                     [](const std::unique_ptr<Node> &child, const QString &wanted) { return child->name < wanted; });
    if (at != children.end() && (*at)->name == name)
        return at->get();
    auto node = std::make_unique<Node>();
    node->name = name;
    node->key = key;
    node->parent = parent;
    Node *created = node.get();
    const int row = int(at - children.begin());
    beginInsertRows(indexOfNode(parent), row, row);
    children.insert(at, std::move(node));
    if (!key.isEmpty())
        m_objects.insert(key, created);
    endInsertRows();
    return created;
}

void ObjectTreeModel::clear()
{
    beginResetModel();
    m_root->children.clear();
    m_objects.clear();
    endResetModel();
}

QModelIndex ObjectTreeModel::indexOf(const QString &key) const
{
    const Node *node = m_objects.value(key);
    return node ? indexOfNode(node) : QModelIndex();
}

QString ObjectTreeModel::keyOf(const QModelIndex &index) const
{
    return index.isValid() ? nodeOf(index)->key : QString();
}

std::vector<ObjectRevision> ObjectTreeModel::revisions(const QString &key) const
{
    const Node *node = m_objects.value(key);
    return node ? node->revisions : std::vector<ObjectRevision>();
}

bool ObjectTreeModel::isDeleted(const QString &key) const
{
    const Node *node = m_objects.value(key);
    return node && node->deleted;
}

ObjectTreeModel::Node *ObjectTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

int ObjectTreeModel::rowOf(const Node *node) const
{
    const auto &siblings = node->parent->children;
    const auto at = std::lower_bound(siblings.begin(), siblings.end(), node->name,
                                     [](const std::unique_ptr<Node> &child, const QString &wanted) { return child->name < wanted; });
    return int(at - siblings.begin());
}

QModelIndex ObjectTreeModel::indexOfNode(const Node *node, int column) const
{
    if (node == m_root.get())
        return {};
    return createIndex(rowOf(node), column, const_cast<Node *>(node));
}

QModelIndex ObjectTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeOf(parent)->children[std::size_t(row)].get());
}

QModelIndex ObjectTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOfNode(nodeOf(child)->parent);
}

int ObjectTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int ObjectTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ObjectTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *node = nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return node->name;
        case ResourceVersionColumn:
            return node->isObject() ? QVariant(node->latestRv) : QVariant();
        case RevisionsColumn:
            return node->isObject() ? QVariant(int(node->revisions.size())) : QVariant();
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (node->deleted)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::FontRole:
        if (node->deleted) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() != NameColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        // Names are elided in a narrow panel: every row's tooltip has its whole name.
        if (!node->isObject())
            return node->objectCount() == 1 ? tr("%1\n1 object").arg(node->name)
                                            : tr("%1\n%2 objects").arg(node->name).arg(node->objectCount());
        return node->deleted ? tr("%1\ndeleted at rv %2").arg(node->key).arg(node->latestRv)
                             : tr("%1\nlatest rv %2").arg(node->key).arg(node->latestRv);
    case KeyRole:
        return node->key;
    case DeletedRole:
        return node->deleted;
    case LatestRvRole:
        return node->latestRv;
    default:
        return {};
    }
}

QVariant ObjectTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractItemModel::headerData(section, orientation, role);
    const bool tip = role == Qt::ToolTipRole;
    switch (section) {
    case NameColumn:
        return tip ? tr("Resource type / namespace / name") : tr("Object");
    case ResourceVersionColumn:
        return tip ? tr("The object's latest resourceVersion") : tr("RV");
    case RevisionsColumn:
        // Short: the header is what a narrow panel's number column is measured by.
        return tip ? tr("Revisions of the object in the journal") : tr("Revs");
    default:
        return {};
    }
}

} // namespace rvscope::ui
