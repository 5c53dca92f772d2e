// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>

#include <qcoro/qcorotask.h>

#include "model/Object.h"

// Helpers shared by the test executables (the KeePassXC testsupport / fmt test-main idea).
namespace rvscope::testing {

// A ConfigMap in `ns` named `name`, with `data`.
model::Object configMap(const std::string &name, const std::string &ns = "default",
                        const std::map<std::string, std::string> &data = {});
// A ConfigMap whose JSON encoding is about `bytes` long (for benchmarks and size tests).
model::Object configMapOfSize(const std::string &name, std::size_t bytes);
std::string configMapKey(const std::string &name, const std::string &ns = "default");

// Runs a task to completion on the current thread (a nested event loop if it suspends).
template <typename T>
T run(QCoro::Task<T> &&task)
{
    return QCoro::waitFor(std::move(task));
}

} // namespace rvscope::testing
