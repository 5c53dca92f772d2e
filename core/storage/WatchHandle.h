// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

namespace rvscope::storage {

// Owns one storage watch: destroying (or stop()ping) it cancels the watch, after which its
// sink is never called again. Move-only. Safe to destroy after the storage is gone.
class WatchHandle final {
public:
    WatchHandle() = default;
    explicit WatchHandle(std::function<void()> cancel);
    WatchHandle(WatchHandle &&other) noexcept;
    WatchHandle &operator=(WatchHandle &&other) noexcept;
    WatchHandle(const WatchHandle &) = delete;
    WatchHandle &operator=(const WatchHandle &) = delete;
    ~WatchHandle();

    bool active() const { return static_cast<bool>(m_cancel); }
    void stop();

private:
    std::function<void()> m_cancel;
};

} // namespace rvscope::storage
