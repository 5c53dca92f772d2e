// SPDX-License-Identifier: MIT
#pragma once

#include <utility>
#include <variant>

#include "model/Status.h"

namespace rvscope::model {

// A value or the Kubernetes Status explaining why there is none. Every core layer returns
// this instead of throwing; no exception crosses a layer or a thread.
//
// Default construction yields an InternalError so that the type can sit in containers and
// in QCoro::waitFor, which needs a default-constructible result.
template <typename T>
class [[nodiscard]] Result final {
public:
    Result() : m_value(Status::internalError("result was never set")) {}
    Result(T value) : m_value(std::in_place_index<0>, std::move(value)) {}
    Result(Status error) : m_value(std::in_place_index<1>, std::move(error)) {}

    bool ok() const noexcept { return m_value.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    T &value() & { return std::get<0>(m_value); }
    const T &value() const & { return std::get<0>(m_value); }
    T &&value() && { return std::get<0>(std::move(m_value)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Status &error() const & { return std::get<1>(m_value); }
    Status &&error() && { return std::get<1>(std::move(m_value)); }

private:
    std::variant<T, Status> m_value;
};

// For operations that succeed with nothing to return.
struct Done final {};
using VoidResult = Result<Done>;

} // namespace rvscope::model
