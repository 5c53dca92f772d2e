// SPDX-License-Identifier: MIT
#include "objects/LineDiff.h"

#include <algorithm>
#include <vector>

namespace rvscope::ui::LineDiff {

QList<Line> diff(const QStringList &before, const QStringList &after)
{
    qsizetype head = 0;
    while (head < before.size() && head < after.size() && before[head] == after[head])
        ++head;
    qsizetype tail = 0;
    while (tail < before.size() - head && tail < after.size() - head
           && before[before.size() - 1 - tail] == after[after.size() - 1 - tail])
        ++tail;

    QList<Line> lines;
    lines.reserve(before.size() + after.size() - head - tail);
    for (qsizetype i = 0; i < head; ++i)
        lines.append({Change::Same, before[i]});

    const qsizetype n = before.size() - head - tail;
    const qsizetype m = after.size() - head - tail;
    if (n * m > MAX_ALIGNED_CELLS) {
        for (qsizetype i = 0; i < n; ++i)
            lines.append({Change::Removed, before[head + i]});
        for (qsizetype j = 0; j < m; ++j)
            lines.append({Change::Added, after[head + j]});
    } else {
        // lcs[i][j]: the longest common subsequence of the middles' suffixes from i and j.
        const auto width = std::size_t(m + 1);
        std::vector<int> lcs(std::size_t(n + 1) * width, 0);
        for (qsizetype i = n - 1; i >= 0; --i) {
            for (qsizetype j = m - 1; j >= 0; --j) {
                const std::size_t at = std::size_t(i) * width + std::size_t(j);
                lcs[at] = before[head + i] == after[head + j] ? lcs[at + width + 1] + 1
                                                               : std::max(lcs[at + width], lcs[at + 1]);
            }
        }
        qsizetype i = 0;
        qsizetype j = 0;
        while (i < n || j < m) {
            const std::size_t at = std::size_t(i) * width + std::size_t(j);
            if (i < n && j < m && before[head + i] == after[head + j]) {
                lines.append({Change::Same, before[head + i]});
                ++i;
                ++j;
            } else if (i < n && (j == m || lcs[at + width] >= lcs[at + 1])) {
                lines.append({Change::Removed, before[head + i]});
                ++i;
            } else {
                lines.append({Change::Added, after[head + j]});
                ++j;
            }
        }
    }
    for (qsizetype i = after.size() - tail; i < after.size(); ++i)
        lines.append({Change::Same, after[i]});
    return lines;
}

} // namespace rvscope::ui::LineDiff
