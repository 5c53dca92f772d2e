// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <coroutine>
#include <cstdint>
#include <queue>
#include <vector>

#include <qcoro/qcorotask.h>

namespace rvscope::sim {

// The time simulated clients think and back off on. Core thread only.
class Clock {
public:
    virtual ~Clock() = default;
    virtual std::int64_t nowNs() const = 0;
    // Resumes the caller after `duration` of this clock's time; a duration <= 0 yields (other
    // ready work runs first).
    virtual QCoro::Task<> sleep(std::chrono::nanoseconds duration) = 0;
};

// Wall time: sleeping is a QTimer, so clients run concurrently with everything else.
class RealClock final : public Clock {
public:
    std::int64_t nowNs() const override;
    QCoro::Task<> sleep(std::chrono::nanoseconds duration) override;
};

// Virtual time for deterministic runs: a sleeping coroutine parks in a queue ordered by wake
// time (ties in arrival order), and the owner decides when time moves: advanceBy/advanceTo
// resume every sleeper due by then, runNext resumes exactly the next one (a teacher's step),
// runUntilIdle drives everything to completion as fast as the CPU allows. Given the same
// sequence of sleeps, the same interleaving results, whatever the machine's speed.
// Coroutines resumed here run synchronously until they sleep again (in-process requests
// complete without the event loop), so a run is a pure function of its seed.
// Destroying the clock with sleepers parked leaks their frames: cancel() resumes them all
// first (they must check their own stop flag).
class VirtualClock final : public Clock {
public:
    VirtualClock() = default;
    VirtualClock(const VirtualClock &) = delete;
    VirtualClock &operator=(const VirtualClock &) = delete;

    std::int64_t nowNs() const override { return m_nowNs; }
    QCoro::Task<> sleep(std::chrono::nanoseconds duration) override;

    bool idle() const { return m_sleepers.empty(); }
    std::size_t sleeping() const { return m_sleepers.size(); }
    // The wake time of the next sleeper (nowNs() when idle).
    std::int64_t nextWakeNs() const;
    // Resumes the next sleeper, moving time to its wake time. False when idle.
    bool runNext();
    // Resumes every sleeper due at or before `timeNs` (including ones that fall due while
    // doing so), then sets the time to `timeNs`. Returns how many were resumed.
    std::size_t advanceTo(std::int64_t timeNs);
    std::size_t advanceBy(std::chrono::nanoseconds duration) { return advanceTo(m_nowNs + duration.count()); }
    // Runs until no sleeper is left or `maxResumes` were resumed. Returns how many ran.
    std::size_t runUntilIdle(std::size_t maxResumes = SIZE_MAX);
    // Resumes every sleeper now, without moving time (shutdown).
    void cancel();

private:
    struct Sleeper {
        std::int64_t wakeNs;
        std::uint64_t sequence;
        std::coroutine_handle<> handle;
        bool operator>(const Sleeper &other) const
        {
            return wakeNs != other.wakeNs ? wakeNs > other.wakeNs : sequence > other.sequence;
        }
    };
    struct Awaiter;

    std::int64_t m_nowNs = 0;
    std::uint64_t m_sequence = 0;
    std::priority_queue<Sleeper, std::vector<Sleeper>, std::greater<>> m_sleepers;
};

} // namespace rvscope::sim
