// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "LoadGenerator.h"

// The client scripts of the HTTP benchmark: the same read-modify-write loop against the
// Kubernetes API (rvscope) and against etcd's v3 JSON gateway, and a plain GET.
namespace rvscope::bench::http {

inline constexpr std::size_t OBJECT_BYTES = 1024;

// GET `path` and expect 200.
std::unique_ptr<ClientScript> makeGetScript(const std::string &path);
// GET the ConfigMap, change data.counter in the JSON body, PUT it back with the
// resourceVersion that was read; on 409 re-read and retry (each 409 counts as a conflict).
std::unique_ptr<ClientScript> makeConfigMapUpdateScript(const std::string &name, int client);
// etcd: POST /v3/kv/range to read mod_revision, then POST /v3/kv/txn comparing MOD and
// putting a new ~1 KB value. A failed txn returns the current mod_revision in its failure
// range, and the script retries the txn with it directly, as the apiserver's etcd3 store does
// (one round trip less than rvscope's re-GET: in etcd's favour).
std::unique_ptr<ClientScript> makeEtcdCasScript(const std::string &key, int client);

// A ConfigMap of about OBJECT_BYTES as JSON (for POST).
std::string configMapJson(const std::string &name);
// The body of POST /v3/kv/put for `key` with a ~1 KB value.
std::string etcdPutJson(const std::string &key);

std::string base64(const std::string &bytes);

} // namespace rvscope::bench::http
