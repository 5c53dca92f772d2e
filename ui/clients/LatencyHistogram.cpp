// SPDX-License-Identifier: MIT
#include "clients/LatencyHistogram.h"

#include <algorithm>
#include <cmath>

namespace rvscope::ui {
namespace {
constexpr double BUCKETS_PER_OCTAVE = 32;

std::size_t bucketOf(qint64 ns)
{
    return ns <= 1 ? 0 : static_cast<std::size_t>(std::log2(double(ns)) * BUCKETS_PER_OCTAVE);
}

// The geometric middle of a bucket.
double middleOf(std::size_t bucket)
{
    return std::exp2((double(bucket) + 0.5) / BUCKETS_PER_OCTAVE);
}
} // namespace

void LatencyHistogram::add(qint64 ns)
{
    ns = std::max<qint64>(ns, 0);
    const std::size_t bucket = bucketOf(ns);
    if (bucket >= m_buckets.size())
        m_buckets.resize(bucket + 1, 0);
    ++m_buckets[bucket];
    m_min = m_count == 0 ? ns : std::min(m_min, ns);
    m_max = m_count == 0 ? ns : std::max(m_max, ns);
    ++m_count;
}

qint64 LatencyHistogram::quantile(double q) const
{
    if (m_count == 0)
        return 0;
    // The nearest-rank definition: the smallest value with at least q * count values at or below it.
    const qint64 rank = std::clamp<qint64>(qint64(std::ceil(std::clamp(q, 0.0, 1.0) * double(m_count))), 1, m_count);
    qint64 seen = 0;
    for (std::size_t bucket = 0; bucket < m_buckets.size(); ++bucket) {
        seen += m_buckets[bucket];
        if (seen >= rank)
            return std::clamp(qint64(std::llround(middleOf(bucket))), m_min, m_max);
    }
    return m_max;
}

} // namespace rvscope::ui
