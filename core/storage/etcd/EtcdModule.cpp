// SPDX-License-Identifier: MIT
// EtcdStorage behind the core's EtcdBackend (storage/EtcdBackend.h).
#include "storage/etcd/EtcdStorage.h"

namespace rvscope::storage {
namespace {
std::shared_ptr<Storage> createEtcdStorage(EtcdOptions options)
{
    return std::make_shared<EtcdStorage>(std::move(options));
}

// Holds the storage until etcd has answered.
QCoro::Task<model::Result<Revision>> readyEtcdStorage(std::shared_ptr<Storage> storage)
{
    auto ready = co_await static_cast<EtcdStorage &>(*storage).ready();
    co_return ready;
}

constexpr EtcdBackend BACKEND{createEtcdStorage, readyEtcdStorage};
} // namespace

const EtcdBackend *linkedEtcdBackend()
{
    return &BACKEND;
}

} // namespace rvscope::storage
