// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtWidgets/QWidget>

class QComboBox;
class QLabel;
class QSplitter;
class QTableView;
class QTextEdit;
class QTreeView;

namespace rvscope::engine {
class Engine;
}

namespace rvscope::ui {

class ObjectRevisionModel;
class ObjectTreeModel;

// The Objects panel: every object the journaled operations touched, as a tree by resource
// type / namespace / name with its latest resourceVersion (deleted ones greyed); the selected
// object's revisions; and its JSON at the selected revision (Engine::fetchObjectVersion), or
// a line diff between two revisions: two selected rows, or one row and the "compare with"
// revision (older on the left: removed lines red, added lines green).
//
// It connects itself to the engine and forgets everything on historyReset. The panel lays
// its three parts side by side when wide and stacks them when narrow. GUI thread only.
class ObjectsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectsPanel)

public:
    // `engine` must outlive the panel.
    explicit ObjectsPanel(engine::Engine &engine, QWidget *parent = nullptr);
    ~ObjectsPanel() override;

    ObjectTreeModel *objectModel() const { return m_objects; }
    ObjectRevisionModel *revisionModel() const { return m_revisions; }

    // Selects an object by key ("configmaps/default/foo"); an unknown key clears the selection.
    void selectObject(const QString &key);
    QString selectedObject() const;
    // Shows `resourceVersion` of the selected object, compared with `compareWith` unless 0.
    void showRevision(qint64 resourceVersion, qint64 compareWith = 0);

Q_SIGNALS:
    void objectSelected(const QString &key);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void handleObjectSelectionChanged();
    void handleObjectsUpdated(const QStringList &keys);
    void handleObjectVersion(const QString &key, qint64 resourceVersion, const QByteArray &object);
    void handleHistoryReset();
    void handleTreeRowsInserted(const QModelIndex &parent, int first, int last);
    void updateDocument();
    // The object at a revision, fetched from the engine on first use (nullopt until it arrives).
    std::optional<QByteArray> version(const QString &key, qint64 resourceVersion);
    void showJson(const QString &key, qint64 resourceVersion);
    void showDiff(const QString &key, qint64 before, qint64 after);
    void showMessage(const QString &title, const QString &text);

    engine::Engine &m_engine;
    ObjectTreeModel *m_objects = nullptr;
    ObjectRevisionModel *m_revisions = nullptr;
    QSplitter *m_splitter = nullptr;
    QTreeView *m_objectView = nullptr;
    QTableView *m_revisionView = nullptr;
    QComboBox *m_compare = nullptr;
    QLabel *m_title = nullptr;
    QTextEdit *m_text = nullptr;
    QHash<QString, QByteArray> m_versions; // "key@rv" → compact JSON (empty: not journaled)
    QSet<QString> m_requested;
    QString m_shown; // what the text view shows, so that batches do not repaint it for nothing
    QString m_message; // the message it shows when m_shown is empty
};

} // namespace rvscope::ui
