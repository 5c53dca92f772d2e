// SPDX-License-Identifier: MIT
#include "sim/Clock.h"

#include <qcoro/qcorotimer.h>

namespace rvscope::sim {

std::int64_t RealClock::nowNs() const
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QCoro::Task<> RealClock::sleep(std::chrono::nanoseconds duration)
{
    // A zero sleep still goes through the event loop: a client loop with no think time must
    // yield, or it would hold the core thread until it finished.
    // QTimer has millisecond resolution; round up so that a sleep never ends early.
    const auto milliseconds = std::max(std::chrono::milliseconds(0), std::chrono::ceil<std::chrono::milliseconds>(duration));
    co_await QCoro::sleepFor(milliseconds);
}

struct VirtualClock::Awaiter {
    VirtualClock *clock;
    std::int64_t wakeNs;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> handle)
    {
        clock->m_sleepers.push(Sleeper{wakeNs, clock->m_sequence++, handle});
    }
    void await_resume() const noexcept {}
};

QCoro::Task<> VirtualClock::sleep(std::chrono::nanoseconds duration)
{
    // Even a zero sleep parks: it lets every other sleeper due now run first, which is what
    // a yield in a real scheduler would do.
    co_await Awaiter{this, m_nowNs + std::max<std::int64_t>(0, duration.count())};
}

std::int64_t VirtualClock::nextWakeNs() const
{
    return m_sleepers.empty() ? m_nowNs : std::max(m_nowNs, m_sleepers.top().wakeNs);
}

bool VirtualClock::runNext()
{
    if (m_sleepers.empty())
        return false;
    const Sleeper next = m_sleepers.top();
    m_sleepers.pop();
    m_nowNs = std::max(m_nowNs, next.wakeNs);
    next.handle.resume();
    return true;
}

std::size_t VirtualClock::advanceTo(std::int64_t timeNs)
{
    std::size_t resumed = 0;
    while (!m_sleepers.empty() && m_sleepers.top().wakeNs <= timeNs) {
        runNext();
        ++resumed;
    }
    m_nowNs = std::max(m_nowNs, timeNs);
    return resumed;
}

std::size_t VirtualClock::runUntilIdle(std::size_t maxResumes)
{
    std::size_t resumed = 0;
    while (resumed < maxResumes && runNext())
        ++resumed;
    return resumed;
}

void VirtualClock::cancel()
{
    while (!m_sleepers.empty()) {
        const Sleeper next = m_sleepers.top();
        m_sleepers.pop();
        next.handle.resume();
    }
}

} // namespace rvscope::sim
