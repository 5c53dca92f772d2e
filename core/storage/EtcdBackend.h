// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <qcoro/qcorotask.h>

#include "model/Result.h"
#include "storage/Storage.h"
#include "storage/StorageLimits.h"

namespace rvscope::storage {

// Where a storage on etcd connects, and how it waits (storage/etcd/EtcdStorage.h).
struct EtcdOptions {
    EtcdOptions() = default;
    std::vector<std::string> endpoints; // "http://127.0.0.1:2379", ...
    std::string prefix = "/registry";
    // Change events kept in memory for watch and resume (`serve --watch-history`).
    std::size_t historyLimit = DEFAULT_WATCH_HISTORY;
    std::chrono::milliseconds requestTimeout{10000};
    // How long a write waits for its own event before it answers anyway (feed down).
    std::chrono::milliseconds feedWaitTimeout{5000};
};

// EtcdStorage as the core reaches it. It and its gRPC client are a module of their own
// (librvscope_etcd.so, beside the executables), loaded the first time a storage on etcd is
// made: gRPC and the 48 libraries it loads cost every start of rvscope about 16 ms here
// (docs/BENCHMARKS.md), and most starts never touch etcd. The executables export the core's
// symbols (ENABLE_EXPORTS), so the module shares the process's one core. A test executable
// links the same code and hands it over (setEtcdBackend(linkedEtcdBackend())).
struct EtcdBackend {
    // A storage on etcd, not connected yet.
    std::shared_ptr<Storage> (*create)(EtcdOptions options);
    // Waits until `storage` (one create made) has its watch feed, etcd having answered: an
    // error when no endpoint answers within the request timeout.
    QCoro::Task<model::Result<Revision>> (*ready)(std::shared_ptr<Storage> storage);
};

// The backend handed over, else the module's (loaded once, never unloaded). The error names
// the file that could not be loaded and why.
model::Result<const EtcdBackend *> etcdBackend();
void setEtcdBackend(const EtcdBackend *backend);

} // namespace rvscope::storage
