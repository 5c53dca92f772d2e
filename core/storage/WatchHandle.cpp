// SPDX-License-Identifier: MIT
#include "storage/WatchHandle.h"

#include <utility>

namespace rvscope::storage {

WatchHandle::WatchHandle(std::function<void()> cancel)
    : m_cancel(std::move(cancel))
{
}

WatchHandle::WatchHandle(WatchHandle &&other) noexcept
    : m_cancel(std::exchange(other.m_cancel, {}))
{
}

WatchHandle &WatchHandle::operator=(WatchHandle &&other) noexcept
{
    if (this != &other) {
        stop();
        m_cancel = std::exchange(other.m_cancel, {});
    }
    return *this;
}

WatchHandle::~WatchHandle()
{
    stop();
}

void WatchHandle::stop()
{
    if (auto cancel = std::exchange(m_cancel, {}))
        cancel();
}

} // namespace rvscope::storage
