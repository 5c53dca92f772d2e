// SPDX-License-Identifier: MIT
#pragma once

#include <QtWidgets/QWidget>

#include "conflicts/FieldOverlap.h"
#include "engine/EngineTypes.h"

class QLabel;
class QPlainTextEdit;

namespace rvscope::ui {

struct PrettyJson;

// The three-way view of one conflicting write: what the client read · what is live · what it
// tried to write, side by side as indented JSON in read-only panes (objectNames readPane,
// livePane, triedPane) that scroll together, above a line (overlapLabel) saying which fields
// overlapped (FieldOverlap). The fields the client changed are tinted in the tried pane, the
// fields the intervening writes changed in the live pane, and overlapping fields in
// the conflict colour in all three. GUI thread only.
class ConflictDiffView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConflictDiffView)

public:
    explicit ConflictDiffView(QWidget *parent = nullptr);
    ~ConflictDiffView() override;

    void showDetail(const engine::OperationDetail &detail);
    // Empties the panes and shows `message` instead ("Loading…", "no longer in the journal").
    void showMessage(const QString &message);
    void clear();

    quint64 operationId() const { return m_operationId; }
    const FieldOverlap &overlap() const { return m_overlap; }
    QString overlapText() const;

private:
    struct Pane final {
        QLabel *title = nullptr;
        QPlainTextEdit *text = nullptr;
    };
    struct Highlight final {
        QStringList paths;
        QColor colour;
    };

    Pane createPane(const QString &objectName);
    void fill(Pane &pane, const QString &title, const QByteArray &json, const QString &missing,
              const QList<Highlight> &highlights);
    void linkScrolling();

    QLabel *m_header = nullptr;
    QLabel *m_overlapLabel = nullptr;
    Pane m_read;
    Pane m_live;
    Pane m_tried;
    quint64 m_operationId = 0;
    FieldOverlap m_overlap;
};

} // namespace rvscope::ui
