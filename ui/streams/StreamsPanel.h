// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QPersistentModelIndex>
#include <QtWidgets/QWidget>

#include "engine/EngineTypes.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTreeView;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

class WatchEventModel;
class WatcherModel;

// The Streams panel (UI.md "Streams panel"): on the left a tree of every watcher seen in the
// engine's watch event batches, then the server's bulk watch sessions with their open channels
// (Engine::bulkSessionsChanged); on the right the selected watcher's events with reorders,
// duplicates and ERROR events in red (bulk channels have none: the server does not journal
// them). A form opens a watch on a collection from a resourceVersion (Engine::openWatch) and
// shows the server's refusal; watches opened here can be closed.
//
// It connects itself to the engine and forgets every watcher on historyReset. GUI thread only.
class StreamsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StreamsPanel)

public:
    // `engine` must outlive the panel.
    explicit StreamsPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~StreamsPanel() override;

    WatcherModel *watcherModel() const { return m_watchers; }
    // The events shown on the right (an empty model when no watcher is selected).
    WatchEventModel *shownEvents() const;

    // Selects a watcher by id ("watch-12"); an unknown id clears the selection.
    void selectWatcher(const QString &watcherId);
    QString selectedWatcher() const;

    // Opens a watch as the form's Open button does ("" = now, "0" = current state first).
    void openWatch(const QString &collection, const QString &fromResourceVersion);
    // A watcher's events as the panel holds them (the newest, up to its cap), for the
    // timeline's watch overlay; empty for an unknown watcher.
    engine::WatchEventBatch deliveries(const QString &watcherId) const;

Q_SIGNALS:
    // The user selected a watcher (empty: none), e.g. for the timeline's watch overlay.
    void watcherSelected(const QString &watcherId);

private:
    void handleWatchOpened(const engine::WatchChannel &channel);
    void handleHistoryReset();
    void handleWatcherSelectionChanged();
    void handleEventsInserted();
    void openFromForm();
    void closeSelected();
    void updateCloseButton();
    void showEvents(WatchEventModel *events);
    void showBulkSummary(const QModelIndex &row);
    void handleRowsInserted(const QModelIndex &parent, int first, int last);
    QModelIndex selectedRow() const;
    int selectedWatcherRow() const; // -1: none, or a bulk row

    engine::Engine &m_engine;
    WatcherModel *m_watchers = nullptr;
    WatchEventModel *m_noEvents = nullptr;
    QComboBox *m_collection = nullptr;
    QLineEdit *m_fromResourceVersion = nullptr;
    QPushButton *m_openButton = nullptr;
    QPushButton *m_closeButton = nullptr;
    QLabel *m_status = nullptr;
    QTreeView *m_watcherView = nullptr;
    QTableView *m_eventView = nullptr;
    QCheckBox *m_followTail = nullptr;
    QLabel *m_eventSummary = nullptr;
    int m_pendingOpens = 0;
    QPersistentModelIndex m_shownRow; // the selected row, to notice it going away
    bool m_hadSelection = false;
};

} // namespace rvscope::ui
