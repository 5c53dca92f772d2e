// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QtCore/QtGlobal>

namespace rvscope::ui {

// One client's write latencies in log-spaced buckets (32 per power of two, each ~2.2% wide):
// memory stays bounded however many operations arrive, and a quantile costs one pass over
// the buckets instead of a sort of every latency.
class LatencyHistogram final {
public:
    void add(qint64 ns);
    // The q-quantile (0 <= q <= 1) within the bucket width, clamped to the observed minimum
    // and maximum (so exact for a single value); 0 when empty.
    qint64 quantile(double q) const;
    qint64 count() const { return m_count; }

private:
    std::vector<quint32> m_buckets;
    qint64 m_count = 0;
    qint64 m_min = 0;
    qint64 m_max = 0;
};

} // namespace rvscope::ui
