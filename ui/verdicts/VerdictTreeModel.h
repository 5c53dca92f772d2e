// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QAbstractItemModel>
#include <QtGui/QColor>
#include <QtGui/QIcon>

#include "engine/ScenarioValues.h"

namespace rvscope::ui {

// The checkers' verdicts on the history (Engine::verdictsReady): one top-level row per
// verdict (checker, key, outcome, expected outcome, summary), with its findings as child
// rows whose text is in the first column. Outcomes are told apart by colour, icon shape
// (pass: filled circle, fail: square, unknown: triangle) and text. GUI thread only.
class VerdictTreeModel final : public QAbstractItemModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerdictTreeModel)

public:
    enum class Column { Checker, Key, Outcome, Expected, Summary, Count };
    enum class Outcome { Pass, Fail, Unknown, NoHistory };
    enum Role {
        OutcomeRole = Qt::UserRole + 1, // int(Outcome), on top-level rows
        AsExpectedRole,                 // bool, on top-level rows
    };

    explicit VerdictTreeModel(QObject *parent = nullptr);
    ~VerdictTreeModel() override;

    // Replaces every verdict (each verdictsReady is a complete answer).
    void setVerdicts(const engine::VerdictList &verdicts);
    void clear();
    const engine::VerdictList &verdicts() const { return m_verdicts; }
    // The top-level row of a checker's verdict on `key` (empty: not key-specific), -1 if none.
    int rowOf(const QString &checker, const QString &key = {}) const;

    static Outcome outcomeOf(const QString &outcome);
    // The outcome's colour for the palette's Base colour (Okabe–Ito, brighter when dark).
    static QColor colourOf(Outcome outcome, const QColor &base);
    // Drawn for the palette at construction: a shape per outcome, in its colour.
    QIcon iconOf(Outcome outcome) const { return m_icons[int(outcome)]; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant verdictData(const engine::VerdictReport &verdict, Column column, int role) const;
    QVariant findingData(const engine::VerdictReport &verdict, int finding, Column column, int role) const;

    engine::VerdictList m_verdicts;
    QIcon m_icons[4];
};

} // namespace rvscope::ui
