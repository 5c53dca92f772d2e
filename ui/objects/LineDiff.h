// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace rvscope::ui {

// A line diff for the Objects panel: a longest-common-subsequence alignment of two texts'
// lines. Pure functions.
namespace LineDiff {

enum class Change { Same, Removed, Added };

struct Line final {
    Change change = Change::Same;
    QString text;
    bool operator==(const Line &) const = default;
};

// `before` turned into `after`: unchanged lines once, removed lines before the added lines
// that replace them. The common head and tail are matched first; when what remains is too
// large for the quadratic alignment (over MAX_ALIGNED_CELLS), it is shown as all removed
// then all added.
QList<Line> diff(const QStringList &before, const QStringList &after);

inline constexpr qsizetype MAX_ALIGNED_CELLS = 4'000'000;

} // namespace LineDiff
} // namespace rvscope::ui
