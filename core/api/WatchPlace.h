// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <utility>

namespace rvscope::api {

// A place among the open watches, taken by a watch still being started: admitted, not open
// yet (its storage watch may wait for etcd, an injected delay for its time). It counts
// against the open-watch bounds as an open watch does, so that a thousand watches started
// at once cannot all pass the bound, and is given back once the watch opens (it is counted
// as open from then on) or fails. Move-only; gives its place back when it goes.
class WatchPlace final {
public:
    WatchPlace() = default;
    explicit WatchPlace(std::function<void()> giveBack)
        : m_giveBack(std::move(giveBack))
    {
    }
    WatchPlace(WatchPlace &&other) noexcept
        : m_giveBack(std::exchange(other.m_giveBack, nullptr))
    {
    }
    WatchPlace &operator=(WatchPlace &&other) noexcept
    {
        if (this != &other) {
            giveBack();
            m_giveBack = std::exchange(other.m_giveBack, nullptr);
        }
        return *this;
    }
    WatchPlace(const WatchPlace &) = delete;
    WatchPlace &operator=(const WatchPlace &) = delete;
    ~WatchPlace() { giveBack(); }

    void giveBack()
    {
        if (auto giveBack = std::exchange(m_giveBack, nullptr))
            giveBack();
    }

private:
    std::function<void()> m_giveBack;
};

} // namespace rvscope::api
