// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "LoadGenerator.h"
#include "WatchFanout.h"

// etcd's strongest form as the benchmark's opponent: its native gRPC API (what the apiserver
// itself speaks), not the v3 JSON gateway. The same workloads as over HTTP: the apiserver's
// read-modify-write loop (Range, then Txn(If mod_revision == r Then Put Else Range), retrying
// the Txn with the failure branch's revision, as the etcd3 store does), and a watch fan-out.
namespace rvscope::bench::http {

// Puts a ~1 KB value at `key`; false when etcd does not answer.
bool etcdGrpcPut(int port, const std::string &key);

// `clients` closed-loop clients (a thread each, spread over a few HTTP/2 connections as a
// client-go process shares one) running the CAS loop on `keyOf(client)` for `seconds`.
LoadResult runEtcdGrpcCas(int port, int clients, double seconds, const std::function<std::string(int)> &keyOf);

// `options.watchers` Watch streams on `key` (spread over 10 connections), and
// `options.writers` closed-loop writers putting it; counts events delivered per second and
// the latency from a put to its event at the last watcher.
WatchResult runEtcdGrpcWatchFanout(int port, const std::string &key, const WatchOptions &options);

} // namespace rvscope::bench::http
