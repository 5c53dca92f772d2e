// SPDX-License-Identifier: MIT
#include "streams/StreamsPanel.h"

#include <algorithm>

#include <QtGui/QGuiApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QVBoxLayout>

#include "AlarmColour.h"
#include "engine/Engine.h"
#include "streams/WatchEventModel.h"
#include "streams/WatcherModel.h"

namespace rvscope::ui {
namespace {
void setAlarming(QLabel *label, bool alarming)
{
    QPalette palette = label->parentWidget()->palette();
    if (alarming)
        palette.setColor(QPalette::WindowText, alarmColour(palette));
    label->setPalette(palette);
}

// The status line takes room only when it has something to say.
void showStatus(QLabel *label, const QString &text, bool alarming = false)
{
    setAlarming(label, alarming);
    label->setText(text);
    label->setVisible(!text.isEmpty());
}
} // namespace

StreamsPanel::StreamsPanel(engine::Engine &engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(engine)
    , m_watchers(new WatcherModel(this))
    , m_noEvents(new WatchEventModel(this))
{
    setObjectName(QStringLiteral("streamsPanel"));

    m_collection = new QComboBox(this);
    m_collection->setObjectName(QStringLiteral("watchCollectionCombo"));
    m_collection->setEditable(true);
    m_collection->addItems({QStringLiteral("configmaps/default"), QStringLiteral("configmaps"),
                            QStringLiteral("leases/default"), QStringLiteral("secrets/default"),
                            QStringLiteral("pods/default")});
    m_collection->setMinimumContentsLength(18);
    m_collection->setToolTip(tr("The collection to watch: resource/namespace, or a resource for all namespaces"));
    m_fromResourceVersion = new QLineEdit(this);
    m_fromResourceVersion->setObjectName(QStringLiteral("watchFromRvEdit"));
    m_fromResourceVersion->setPlaceholderText(tr("now"));
    m_fromResourceVersion->setFixedWidth(m_fromResourceVersion->fontMetrics().horizontalAdvance(QLatin1Char('9')) * 10 + 12);
    m_fromResourceVersion->setToolTip(tr("resourceVersion to watch from: empty = from now, 0 = the current state "
                                         "first, N = every change after revision N"));
    m_openButton = new QPushButton(tr("Open watch"), this);
    m_openButton->setObjectName(QStringLiteral("openWatchButton"));
    m_closeButton = new QPushButton(tr("Close watch"), this);
    m_closeButton->setObjectName(QStringLiteral("closeWatchButton"));
    m_closeButton->setToolTip(tr("Close the selected watch (only watches opened here)"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("watchStatusLabel"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setTextFormat(Qt::PlainText);
    // Refusals can be long: they wrap on their own line instead of widening the panel.
    m_status->setWordWrap(true);

    auto *form = new QHBoxLayout;
    auto *collectionLabel = new QLabel(tr("&Collection"), this);
    collectionLabel->setBuddy(m_collection);
    auto *fromLabel = new QLabel(tr("&from RV"), this);
    fromLabel->setBuddy(m_fromResourceVersion);
    form->addWidget(collectionLabel);
    form->addWidget(m_collection);
    form->addWidget(fromLabel);
    form->addWidget(m_fromResourceVersion);
    form->addWidget(m_openButton);
    form->addWidget(m_closeButton);
    form->addStretch(1);

    m_watcherView = new QTreeView(this);
    m_watcherView->setObjectName(QStringLiteral("watcherView"));
    m_watcherView->setModel(m_watchers);
    // Watchers are leaves; bulk sessions open into their channels.
    m_watcherView->setRootIsDecorated(true);
    m_watcherView->setUniformRowHeights(true);
    m_watcherView->setAllColumnsShowFocus(true);
    m_watcherView->setSelectionMode(QAbstractItemView::SingleSelection);
    // The first column is as wide as its deepest rows need ("channel 12" under a session,
    // "Bulk sessions" in bold); the collection takes what the others leave; long texts are
    // elided in the middle (ids and keys differ at their ends) and whole in the tooltips.
    const QFontMetrics metrics = m_watcherView->fontMetrics();
    QFont bold = m_watcherView->font();
    bold.setBold(true);
    const int indent = metrics.height();
    m_watcherView->setIndentation(indent);
    m_watcherView->setTextElideMode(Qt::ElideMiddle);
    const int idWidth = std::max(QFontMetrics(bold).horizontalAdvance(tr("Bulk sessions")) + indent,
                                 metrics.horizontalAdvance(tr("channel 99")) + 3 * indent)
        + 8;
    QHeaderView *header = m_watcherView->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(WatcherModel::CollectionColumn, QHeaderView::Stretch);
    m_watcherView->setColumnWidth(WatcherModel::WatcherColumn, idWidth);
    m_watcherView->setColumnWidth(WatcherModel::ClientColumn, 96);
    m_watcherView->setColumnWidth(WatcherModel::EventsColumn, 42);
    m_watcherView->setColumnWidth(WatcherModel::StateColumn, 78);

    m_eventView = new QTableView(this);
    m_eventView->setObjectName(QStringLiteral("watchEventView"));
    m_eventView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventView->setWordWrap(false);
    m_eventView->setTextElideMode(Qt::ElideMiddle); // keys differ at their end
    m_eventView->verticalHeader()->hide();
    // Fixed row heights: the view never measures thousands of new rows.
    m_eventView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_eventView->verticalHeader()->setDefaultSectionSize(m_eventView->fontMetrics().height() + 6);
    m_eventView->horizontalHeader()->setHighlightSections(false);

    m_followTail = new QCheckBox(tr("Follow &tail"), this);
    m_followTail->setObjectName(QStringLiteral("followTailCheck"));
    m_followTail->setChecked(true);
    m_eventSummary = new QLabel(this);
    m_eventSummary->setObjectName(QStringLiteral("watchEventSummary"));
    m_eventSummary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *eventPane = new QWidget(this);
    auto *eventLayout = new QVBoxLayout(eventPane);
    eventLayout->setContentsMargins(0, 0, 0, 0);
    auto *eventHeader = new QHBoxLayout;
    eventHeader->addWidget(m_eventSummary, 1);
    eventHeader->addWidget(m_followTail);
    eventLayout->addLayout(eventHeader);
    eventLayout->addWidget(m_eventView, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_watcherView);
    splitter->addWidget(eventPane);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_openButton, &QPushButton::clicked, this, &StreamsPanel::openFromForm);
    connect(m_fromResourceVersion, &QLineEdit::returnPressed, this, &StreamsPanel::openFromForm);
    connect(m_closeButton, &QPushButton::clicked, this, &StreamsPanel::closeSelected);
    connect(m_followTail, &QCheckBox::toggled, this, [this](bool follow) {
        if (follow)
            m_eventView->scrollToBottom();
    });
    connect(m_watcherView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &StreamsPanel::handleWatcherSelectionChanged);
    connect(m_watchers, &QAbstractItemModel::dataChanged, this, [this] {
        updateCloseButton();
        handleEventsInserted();
    });

    connect(&m_engine, &engine::Engine::watchEventsRecorded, m_watchers, &WatcherModel::appendEvents);
    connect(&m_engine, &engine::Engine::operationsRecorded, m_watchers, &WatcherModel::noteOperations);
    connect(&m_engine, &engine::Engine::watchOpened, this, &StreamsPanel::handleWatchOpened);
    connect(&m_engine, &engine::Engine::historyReset, this, &StreamsPanel::handleHistoryReset);
    connect(&m_engine, &engine::Engine::bulkSessionsChanged, m_watchers, &WatcherModel::setBulkSessions);
    connect(m_watchers, &QAbstractItemModel::rowsInserted, this, &StreamsPanel::handleRowsInserted);
    connect(m_watchers, &QAbstractItemModel::rowsRemoved, this, [this] {
        // A selected bulk row that closed leaves the selection without a selectionChanged.
        if (m_hadSelection && !m_shownRow.isValid())
            handleWatcherSelectionChanged();
        else
            handleEventsInserted(); // the summary may say the tree is empty now
    });
    m_watchers->setBulkSessions(m_engine.bulkSessions());

    showEvents(m_noEvents);
    showStatus(m_status, QString());
    updateCloseButton();
}

StreamsPanel::~StreamsPanel() = default;

WatchEventModel *StreamsPanel::shownEvents() const
{
    return static_cast<WatchEventModel *>(m_eventView->model());
}

void StreamsPanel::selectWatcher(const QString &watcherId)
{
    const int row = m_watchers->rowOf(watcherId);
    if (row < 0) {
        m_watcherView->selectionModel()->clearSelection();
        return;
    }
    const QModelIndex index = m_watchers->index(row, 0);
    m_watcherView->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_watcherView->scrollTo(index);
}

QString StreamsPanel::selectedWatcher() const
{
    const QModelIndex row = selectedRow();
    return row.isValid() ? row.data(WatcherModel::WatcherIdRole).toString() : QString();
}

QModelIndex StreamsPanel::selectedRow() const
{
    const QModelIndexList rows = m_watcherView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QModelIndex() : rows.first();
}

int StreamsPanel::selectedWatcherRow() const
{
    const QModelIndex row = selectedRow();
    if (!row.isValid())
        return -1;
    // A bulk channel shows the events journaled for it, under its watcher id.
    if (m_watchers->kindOf(row) == WatcherModel::Kind::BulkChannel)
        return m_watchers->rowOf(row.data(WatcherModel::WatcherIdRole).toString());
    return m_watchers->kindOf(row) == WatcherModel::Kind::Watcher ? row.row() : -1;
}

engine::WatchEventBatch StreamsPanel::deliveries(const QString &watcherId) const
{
    return m_watchers->deliveries(m_watchers->rowOf(watcherId));
}

void StreamsPanel::handleRowsInserted(const QModelIndex &parent, int first, int last)
{
    // Open the bulk sessions' branch and each new session, so that their channels show.
    const QModelIndex group = m_watchers->bulkSessionsIndex();
    if (!group.isValid())
        return;
    if (!parent.isValid() && group.row() >= first && group.row() <= last) {
        m_watcherView->expand(group);
        for (int row = 0; row < m_watchers->rowCount(group); ++row)
            m_watcherView->expand(m_watchers->index(row, 0, group));
    } else if (parent == group) {
        for (int row = first; row <= last; ++row)
            m_watcherView->expand(m_watchers->index(row, 0, group));
    }
}

void StreamsPanel::openWatch(const QString &collection, const QString &fromResourceVersion)
{
    ++m_pendingOpens;
    showStatus(m_status, tr("Opening a watch on %1…").arg(collection));
    m_engine.openWatch(collection, fromResourceVersion);
}

void StreamsPanel::openFromForm()
{
    const QString collection = m_collection->currentText().trimmed();
    if (collection.isEmpty()) {
        showStatus(m_status, tr("Name a collection to watch, e.g. configmaps/default"), true);
        return;
    }
    openWatch(collection, m_fromResourceVersion->text().trimmed());
}

void StreamsPanel::handleWatchOpened(const engine::WatchChannel &channel)
{
    const bool requestedHere = m_pendingOpens > 0;
    if (requestedHere)
        --m_pendingOpens;
    if (channel.status != 200) {
        showStatus(m_status, tr("Watch on %1 refused (%2): %3").arg(channel.collection).arg(channel.status).arg(channel.error),
                   true);
        return;
    }
    const int row = m_watchers->addOpenedWatch(channel);
    const QString from = channel.fromResourceVersion.isEmpty() ? tr("now") : tr("rv %1").arg(channel.fromResourceVersion);
    showStatus(m_status, tr("Watching %1 from %2 as %3").arg(channel.collection, from, m_watchers->watcherId(row)));
    if (requestedHere)
        selectWatcher(m_watchers->watcherId(row));
}

void StreamsPanel::closeSelected()
{
    const int row = selectedWatcherRow();
    if (!m_watchers->isOpen(row))
        return;
    m_engine.closeWatch(m_watchers->channelId(row));
    m_watchers->markClosed(row);
    showStatus(m_status, tr("Closed %1").arg(m_watchers->watcherId(row)));
}

void StreamsPanel::handleHistoryReset()
{
    // Detach the view before the per-watcher models are deleted.
    showEvents(m_noEvents);
    m_watchers->clear();
    m_pendingOpens = 0;
    showStatus(m_status, QString());
    updateCloseButton();
    Q_EMIT watcherSelected(QString());
}

void StreamsPanel::handleWatcherSelectionChanged()
{
    m_shownRow = selectedRow();
    m_hadSelection = m_shownRow.isValid();
    WatchEventModel *events = m_watchers->events(selectedWatcherRow());
    showEvents(events ? events : m_noEvents);
    updateCloseButton();
    Q_EMIT watcherSelected(selectedWatcher());
}

void StreamsPanel::showEvents(WatchEventModel *events)
{
    if (m_eventView->model() != events) {
        if (auto *old = m_eventView->model())
            disconnect(old, &QAbstractItemModel::rowsInserted, this, &StreamsPanel::handleEventsInserted);
        // setModel() leaves the old selection model to its caller.
        QItemSelectionModel *oldSelection = m_eventView->selectionModel();
        m_eventView->setModel(events);
        delete oldSelection;
        // The object takes what the other columns leave.
        QHeaderView *header = m_eventView->horizontalHeader();
        header->setSectionResizeMode(WatchEventModel::KeyColumn, QHeaderView::Stretch);
        const int widths[] = {76, 50, 0, 74, 110};
        for (int column = 0; column < WatchEventModel::ColumnCount; ++column) {
            if (widths[column] > 0)
                m_eventView->setColumnWidth(column, widths[column]);
        }
        connect(events, &QAbstractItemModel::rowsInserted, this, &StreamsPanel::handleEventsInserted);
    }
    handleEventsInserted();
}

void StreamsPanel::handleEventsInserted()
{
    if (m_followTail->isChecked())
        m_eventView->scrollToBottom();
    const WatchEventModel *events = shownEvents();
    const QString watcher = selectedWatcher();
    // Bulk sessions have no events of their own; a bulk channel has its journaled watcher's
    // (unless the journal is off).
    if (const QModelIndex row = selectedRow(); row.isValid() && m_watchers->kindOf(row) != WatcherModel::Kind::Watcher
        && (m_watchers->kindOf(row) != WatcherModel::Kind::BulkChannel || watcher.isEmpty())) {
        showBulkSummary(row);
        return;
    }
    if (watcher.isEmpty()) {
        m_eventSummary->setText(m_watchers->rowCount() == 0 ? tr("No watch events yet: open a watch or run a scenario")
                                                            : tr("Select a watcher to see its events"));
        setAlarming(m_eventSummary, false);
        return;
    }
    QString text = events->totalEvents() == 1 ? tr("%1: 1 event").arg(watcher)
                                              : tr("%1: %2 events").arg(watcher).arg(events->totalEvents());
    if (events->totalEvents() > quint64(events->rowCount()))
        text += tr(" (the last %1 shown)").arg(events->rowCount());
    if (events->outOfOrderCount() > 0)
        text += tr(" · %n out of order", nullptr, events->outOfOrderCount());
    if (events->closedWithError())
        text += tr(" · closed by the server (ERROR)");
    m_eventSummary->setText(text);
    m_eventSummary->setToolTip(text);
    setAlarming(m_eventSummary, events->outOfOrderCount() > 0 || events->closedWithError());
}

void StreamsPanel::updateCloseButton()
{
    m_closeButton->setEnabled(m_watchers->isOpen(selectedWatcherRow()));
}

void StreamsPanel::showBulkSummary(const QModelIndex &row)
{
    // Bulk rows have no events here: say what they are and why.
    QString text;
    switch (m_watchers->kindOf(row)) {
    case WatcherModel::Kind::BulkSessions:
        text = tr("Bulk watch: %1, %2 open").arg(m_watchers->index(row.row(), WatcherModel::CollectionColumn).data().toString(),
                                                 m_watchers->index(row.row(), WatcherModel::StateColumn).data().toString());
        break;
    case WatcherModel::Kind::BulkSession:
        text = tr("Bulk session %1 of %2: %3")
                   .arg(row.data(WatcherModel::BulkSessionIdRole).toULongLong())
                   .arg(m_watchers->index(row.row(), WatcherModel::ClientColumn, row.parent()).data().toString(),
                        m_watchers->index(row.row(), WatcherModel::CollectionColumn, row.parent()).data().toString());
        break;
    default:
        text = tr("Channel %1 on %2 (session %3): events not journaled (the journal is off)")
                   .arg(row.data(WatcherModel::BulkChannelIdRole).toLongLong())
                   .arg(m_watchers->index(row.row(), WatcherModel::CollectionColumn, row.parent()).data().toString())
                   .arg(row.data(WatcherModel::BulkSessionIdRole).toULongLong());
        break;
    }
    m_eventSummary->setText(text);
    m_eventSummary->setToolTip(row.data(Qt::ToolTipRole).toString());
    setAlarming(m_eventSummary, false);
}

} // namespace rvscope::ui
