// SPDX-License-Identifier: MIT
#include "objects/ObjectsPanel.h"

#include <algorithm>

#include <QtCore/QJsonDocument>
#include <QtGui/QFontDatabase>
#include <QtGui/QResizeEvent>
#include <QtGui/QTextCursor>
#include <QtGui/QTextFormat>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTextEdit>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QVBoxLayout>

#include "engine/Engine.h"
#include "engine/FieldOwnership.h"
#include "objects/LineDiff.h"
#include "objects/ObjectRevisionModel.h"
#include "objects/ObjectTreeModel.h"

namespace rvscope::ui {
namespace {
// Below this width the three parts are stacked instead of side by side.
constexpr int SIDE_BY_SIDE_WIDTH = 720;
// Fetched versions kept; a long session browsing many revisions starts over past this.
constexpr int MAX_CACHED_VERSIONS = 512;

QString versionKey(const QString &key, qint64 resourceVersion)
{
    return key + QLatin1Char('@') + QString::number(resourceVersion);
}

QStringList prettyLines(const QByteArray &object)
{
    const QJsonDocument document = QJsonDocument::fromJson(object);
    QString text = document.isNull() ? QString::fromUtf8(object) : QString::fromUtf8(document.toJson(QJsonDocument::Indented));
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text.split(QLatin1Char('\n'));
}

struct DiffColours final {
    QColor added;
    QColor removed;
};

DiffColours diffColours(const QPalette &palette)
{
    if (palette.color(QPalette::Base).lightnessF() < 0.5)
        return {QColor(0x1E, 0x4A, 0x2A), QColor(0x5A, 0x22, 0x22)};
    return {QColor(0xD4, 0xF5, 0xDC), QColor(0xFC, 0xDC, 0xDC)};
}
} // namespace

ObjectsPanel::ObjectsPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_objects(new ObjectTreeModel(this))
    , m_revisions(new ObjectRevisionModel(this))
{
    setObjectName(QStringLiteral("objectsPanel"));

    m_objectView = new QTreeView(this);
    m_objectView->setObjectName(QStringLiteral("objectTree"));
    m_objectView->setModel(m_objects);
    m_objectView->setUniformRowHeights(true);
    m_objectView->setAllColumnsShowFocus(true);
    m_objectView->setSelectionMode(QAbstractItemView::SingleSelection);
    // In a narrow dock the names get the room: the numbers take what their digits need (the
    // rows on screen are measured, not the whole tree), the name stretches over the rest and
    // is elided in the middle (the tooltip has it whole), and levels are indented less.
    m_objectView->setTextElideMode(Qt::ElideMiddle);
    m_objectView->setIndentation(m_objectView->fontMetrics().height());
    QHeaderView *objectHeader = m_objectView->header();
    objectHeader->setStretchLastSection(false);
    objectHeader->setMinimumSectionSize(m_objectView->fontMetrics().horizontalAdvance(QStringLiteral("99999")));
    objectHeader->setResizeContentsPrecision(200);
    objectHeader->setSectionResizeMode(ObjectTreeModel::NameColumn, QHeaderView::Stretch);
    objectHeader->setSectionResizeMode(ObjectTreeModel::ResourceVersionColumn, QHeaderView::ResizeToContents);
    objectHeader->setSectionResizeMode(ObjectTreeModel::RevisionsColumn, QHeaderView::ResizeToContents);

    m_revisionView = new QTableView(this);
    m_revisionView->setObjectName(QStringLiteral("revisionView"));
    m_revisionView->setModel(m_revisions);
    m_revisionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_revisionView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_revisionView->setToolTip(tr("Select a revision to see the object; select two (Ctrl+click) to compare them"));
    m_revisionView->setWordWrap(false);
    m_revisionView->verticalHeader()->hide();
    m_revisionView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_revisionView->verticalHeader()->setDefaultSectionSize(m_revisionView->fontMetrics().height() + 6);
    m_revisionView->horizontalHeader()->setSectionResizeMode(ObjectRevisionModel::ClientColumn, QHeaderView::Stretch);
    m_revisionView->horizontalHeader()->setHighlightSections(false);
    // As narrow as their texts ("1234567", "update"): the client's name takes the rest.
    const QFontMetrics revisionMetrics = m_revisionView->fontMetrics();
    m_revisionView->setColumnWidth(ObjectRevisionModel::ResourceVersionColumn,
                                   revisionMetrics.horizontalAdvance(QStringLiteral("1234567")) + 12);
    m_revisionView->setColumnWidth(ObjectRevisionModel::ChangeColumn,
                                   revisionMetrics.horizontalAdvance(QStringLiteral("update")) + 16);

    m_compare = new QComboBox(this);
    m_compare->setObjectName(QStringLiteral("compareCombo"));
    m_compare->setModel(m_revisions);
    m_compare->setModelColumn(ObjectRevisionModel::ResourceVersionColumn);
    m_compare->setPlaceholderText(tr("none"));
    m_compare->setCurrentIndex(-1);
    m_compare->setToolTip(tr("Compare the selected revision with this one"));
    auto *compareLabel = new QLabel(tr("Co&mpare with"), this);
    compareLabel->setBuddy(m_compare);
    auto *compareRow = new QHBoxLayout;
    compareRow->addWidget(compareLabel);
    compareRow->addWidget(m_compare, 1);

    auto *revisionPane = new QWidget(this);
    auto *revisionLayout = new QVBoxLayout(revisionPane);
    revisionLayout->setContentsMargins(0, 0, 0, 0);
    revisionLayout->addWidget(m_revisionView, 1);
    revisionLayout->addLayout(compareRow);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("objectTextTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true); // long keys must not widen a narrow dock
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text = new QTextEdit(this);
    m_text->setObjectName(QStringLiteral("objectTextView"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *textPane = new QWidget(this);
    auto *textLayout = new QVBoxLayout(textPane);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addWidget(m_title);
    textLayout->addWidget(m_text, 1);

    // Stacked until resizeEvent finds room: a side-by-side minimum width would keep a narrow
    // dock from ever getting narrow.
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_objectView);
    m_splitter->addWidget(revisionPane);
    m_splitter->addWidget(textPane);
    // The object tree gets the larger share of the left part: its names are the long texts.
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setStretchFactor(2, 5);
    m_splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_splitter);

    connect(m_objectView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ObjectsPanel::handleObjectSelectionChanged);
    connect(m_revisionView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ObjectsPanel::updateDocument);
    connect(m_compare, &QComboBox::currentIndexChanged, this, &ObjectsPanel::updateDocument);
    connect(m_objects, &ObjectTreeModel::objectsUpdated, this, &ObjectsPanel::handleObjectsUpdated);
    connect(m_objects, &QAbstractItemModel::rowsInserted, this, &ObjectsPanel::handleTreeRowsInserted);

    connect(&m_engine, &engine::Engine::operationsRecorded, m_objects, &ObjectTreeModel::append);
    connect(&m_engine, &engine::Engine::objectVersionReady, this, &ObjectsPanel::handleObjectVersion);
    connect(&m_engine, &engine::Engine::historyReset, this, &ObjectsPanel::handleHistoryReset);

    updateDocument();
}

ObjectsPanel::~ObjectsPanel() = default;

void ObjectsPanel::selectObject(const QString &key)
{
    const QModelIndex index = m_objects->indexOf(key);
    if (!index.isValid()) {
        m_objectView->selectionModel()->clearSelection();
        return;
    }
    m_objectView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_objectView->scrollTo(index);
}

QString ObjectsPanel::selectedObject() const
{
    const QModelIndexList rows = m_objectView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : m_objects->keyOf(rows.first());
}

void ObjectsPanel::showRevision(qint64 resourceVersion, qint64 compareWith)
{
    m_compare->setCurrentIndex(compareWith > 0 ? m_revisions->rowOf(compareWith) : -1);
    const int row = m_revisions->rowOf(resourceVersion);
    if (row < 0) {
        m_revisionView->clearSelection();
        return;
    }
    m_revisionView->selectionModel()->setCurrentIndex(m_revisions->index(row, 0),
                                                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_revisionView->scrollTo(m_revisions->index(row, 0));
}

void ObjectsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_splitter->setOrientation(event->size().width() >= SIDE_BY_SIDE_WIDTH ? Qt::Horizontal : Qt::Vertical);
}

void ObjectsPanel::handleObjectSelectionChanged()
{
    const QString key = selectedObject();
    m_revisions->setObject(key, m_objects->revisions(key));
    m_compare->setCurrentIndex(-1); // the reset made the combo pick its first item
    // The newest revision first: that is what the object is now.
    if (m_revisions->rowCount() > 0)
        showRevision(m_revisions->resourceVersion(m_revisions->rowCount() - 1));
    updateDocument();
    Q_EMIT objectSelected(key);
}

void ObjectsPanel::handleObjectsUpdated(const QStringList &keys)
{
    const QString key = m_revisions->key();
    if (key.isEmpty())
        updateDocument(); // "no objects yet" becomes "select an object"
    if (key.isEmpty() || !keys.contains(key))
        return;
    const bool hadRevisions = m_revisions->rowCount() > 0;
    const qint64 compareWith = m_compare->currentIndex() >= 0 ? m_revisions->resourceVersion(m_compare->currentIndex()) : 0;
    QList<qint64> selected;
    for (const QModelIndex &row : m_revisionView->selectionModel()->selectedRows())
        selected.append(m_revisions->resourceVersion(row.row()));
    m_revisions->setObject(key, m_objects->revisions(key));
    if (!hadRevisions && m_revisions->rowCount() > 0) {
        showRevision(m_revisions->resourceVersion(m_revisions->rowCount() - 1));
    } else if (!selected.isEmpty() && !m_revisionView->selectionModel()->hasSelection()) {
        // The model was reset (its oldest revisions dropped): keep what the user looked at.
        for (const qint64 rv : std::as_const(selected)) {
            if (const int row = m_revisions->rowOf(rv); row >= 0)
                m_revisionView->selectionModel()->select(m_revisions->index(row, 0),
                                                         QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
    // A reset makes the combo pick its first item; keep the user's choice instead.
    m_compare->setCurrentIndex(compareWith > 0 ? m_revisions->rowOf(compareWith) : -1);
    updateDocument();
}

void ObjectsPanel::handleTreeRowsInserted(const QModelIndex &parent, int first, int last)
{
    // Open resource and namespace groups when they get their first children; later the
    // user's collapsing is respected.
    if (parent.isValid() && first == 0 && m_objects->rowCount(parent) == last + 1) {
        m_objectView->expand(parent);
        if (parent.parent().isValid())
            m_objectView->expand(parent.parent());
    }
}

void ObjectsPanel::handleObjectVersion(const QString &key, qint64 resourceVersion, const QByteArray &object)
{
    const QString cacheKey = versionKey(key, resourceVersion);
    if (!m_requested.remove(cacheKey))
        return; // another panel's request
    if (m_versions.size() >= MAX_CACHED_VERSIONS)
        m_versions.clear();
    m_versions.insert(cacheKey, object);
    if (key == m_revisions->key()) {
        m_shown.clear();
        updateDocument();
    }
}

void ObjectsPanel::handleHistoryReset()
{
    m_revisions->clear();
    m_objects->clear();
    m_versions.clear();
    m_requested.clear();
    m_compare->setCurrentIndex(-1);
    updateDocument();
    Q_EMIT objectSelected(QString());
}

void ObjectsPanel::updateDocument()
{
    const QString key = m_revisions->key();
    if (key.isEmpty()) {
        showMessage(QString(), m_objects->objectCount() == 0 ? tr("No objects yet: run a scenario or start clients.")
                                                             : tr("Select an object to see its revisions."));
        return;
    }
    QList<qint64> selected;
    for (const QModelIndex &row : m_revisionView->selectionModel()->selectedRows())
        selected.append(m_revisions->resourceVersion(row.row()));
    std::sort(selected.begin(), selected.end());
    const qint64 compareWith = m_compare->currentIndex() >= 0 ? m_revisions->resourceVersion(m_compare->currentIndex()) : 0;
    if (selected.size() >= 2)
        showDiff(key, selected.first(), selected.last());
    else if (selected.size() == 1 && compareWith > 0 && compareWith != selected.first())
        showDiff(key, std::min(compareWith, selected.first()), std::max(compareWith, selected.first()));
    else if (selected.size() == 1)
        showJson(key, selected.first());
    else
        showMessage(key, tr("Select a revision."));
}

std::optional<QByteArray> ObjectsPanel::version(const QString &key, qint64 resourceVersion)
{
    const QString cacheKey = versionKey(key, resourceVersion);
    const auto cached = m_versions.constFind(cacheKey);
    if (cached != m_versions.constEnd())
        return *cached;
    if (!m_requested.contains(cacheKey)) {
        m_requested.insert(cacheKey);
        m_engine.fetchObjectVersion(key, resourceVersion);
    }
    return std::nullopt;
}

void ObjectsPanel::showJson(const QString &key, qint64 resourceVersion)
{
    const QString shown = QStringLiteral("json %1").arg(versionKey(key, resourceVersion));
    if (shown == m_shown)
        return;
    const std::optional<QByteArray> object = version(key, resourceVersion);
    const QString title = tr("%1 at rv %2").arg(key).arg(resourceVersion);
    if (!object) {
        showMessage(title, tr("Loading…"));
        return;
    }
    if (object->isEmpty()) {
        showMessage(title, tr("This revision is no longer in the journal."));
        return;
    }
    m_shown = shown;
    m_message.clear();
    m_title->setText(title);
    // Who manages which field first (server-side apply's ownership), then the object.
    QStringList lines;
    if (const QStringList owners = engine::fieldOwnership(*object); !owners.isEmpty()) {
        lines << tr("Managed fields (metadata.managedFields):");
        for (const QString &owner : owners)
            lines << QStringLiteral("  ") + owner;
        lines << QString();
    }
    lines << prettyLines(*object);
    m_text->setPlainText(lines.join(QLatin1Char('\n')));
}

void ObjectsPanel::showDiff(const QString &key, qint64 before, qint64 after)
{
    const QString shown = QStringLiteral("diff %1 %2").arg(versionKey(key, before)).arg(after);
    if (shown == m_shown)
        return;
    const std::optional<QByteArray> old = version(key, before);
    const std::optional<QByteArray> now = version(key, after);
    const QString title = tr("%1: rv %2 → rv %3").arg(key).arg(before).arg(after);
    if (!old || !now) {
        showMessage(title, tr("Loading…"));
        return;
    }
    if (old->isEmpty() || now->isEmpty()) {
        showMessage(title, tr("One of these revisions is no longer in the journal."));
        return;
    }
    const QList<LineDiff::Line> lines = LineDiff::diff(prettyLines(*old), prettyLines(*now));
    const DiffColours colours = diffColours(palette());
    int added = 0;
    int removed = 0;
    m_text->clear();
    QTextCursor cursor(m_text->document());
    cursor.beginEditBlock();
    bool first = true;
    for (const LineDiff::Line &line : lines) {
        QTextBlockFormat format;
        QString prefix = QStringLiteral("  ");
        if (line.change == LineDiff::Change::Added) {
            format.setBackground(colours.added);
            prefix = QStringLiteral("+ ");
            ++added;
        } else if (line.change == LineDiff::Change::Removed) {
            format.setBackground(colours.removed);
            prefix = QStringLiteral("- ");
            ++removed;
        }
        if (first)
            cursor.setBlockFormat(format);
        else
            cursor.insertBlock(format);
        first = false;
        cursor.insertText(prefix + line.text);
    }
    cursor.endEditBlock();
    m_text->moveCursor(QTextCursor::Start);
    m_shown = shown;
    m_message.clear();
    m_title->setText(added + removed == 0 ? tr("%1 (no difference)").arg(title)
                                          : tr("%1 (%2 removed, %3 added)").arg(title).arg(removed).arg(added));
}

void ObjectsPanel::showMessage(const QString &title, const QString &text)
{
    // Batches call this for nothing new most of the time: keep the document.
    if (m_shown.isEmpty() && m_message == text && m_title->text() == title)
        return;
    m_message = text;
    m_shown.clear();
    m_title->setText(title);
    m_text->setPlainText(text);
}

} // namespace rvscope::ui
