// SPDX-License-Identifier: MIT
// librvscope_etcd.so's one entry point, which storage/EtcdBackend.cpp resolves by name.
#include "storage/etcd/EtcdStorage.h"

extern "C" __attribute__((visibility("default"))) const rvscope::storage::EtcdBackend *rvscope_etcd_backend_v1()
{
    return rvscope::storage::linkedEtcdBackend();
}
