// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>

#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtNetwork/QHostAddress>

#include "api/WatchLimits.h"
#include "server/ServerLimits.h"
#include "storage/StorageLimits.h"

namespace rvscope::engine {

// Everything a person can choose about the core, with its defaults: the one options struct
// of the command line (`rvscope [gui|serve] ...`, app/CommandLine), the window and the
// Engine. A default lives here and nowhere else (the help text prints these).
struct EngineOptions final {
    // What this process is: the lab (the window, `scenario run`), which draws and checks the
    // history journal, or a headless apiserver (`serve`), where nothing reads it.
    enum class Role { Lab, Server };
    Role role = Role::Lab;

    // Where the embedded server listens (port 0: any free port).
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 8001;

    // Operations (and watch deliveries) the history journal keeps, oldest dropped first; 0:
    // off. Unset (no --journal-size), it follows the role: LAB_JOURNAL_SIZE for the lab, off
    // for a server, where it would cost 5-15% of the request rate for nobody, unless the
    // server exports its history (exportPath).
    std::optional<std::size_t> journalSize;
    static constexpr std::size_t LAB_JOURNAL_SIZE = 250'000;
    std::size_t journalCapacity() const
    {
        return journalSize.value_or(role == Role::Lab || !exportPath.isEmpty() ? LAB_JOURNAL_SIZE : 0);
    }
    // `serve --export FILE`: at a clean stop (SIGINT/SIGTERM) the journal is written there as
    // JSON Lines, Secrets' values redacted unless exportSecrets (app/ServeCommand).
    QString exportPath;
    bool exportSecrets = false;

    std::size_t watchHistory = storage::DEFAULT_WATCH_HISTORY;
    // The executable started for `rvscope client` processes (default: this program).
    QString clientProgram;
    // Access control (all empty: none, every request is system:anonymous and allowed).
    QString tokenFile;  // the apiserver's static token file (token,user,uid,"groups")
    QString policyFile; // rvscope's rule file; empty: every authenticated user may do anything
    enum class Anonymous { LoopbackOnly, Allowed, Refused };
    Anonymous anonymous = Anonymous::LoopbackOnly;
    int aclRecheckMs = 1000; // how often open watches are re-authorized
    QString tlsCertificate;  // PEM; with tlsKey: serve HTTPS
    QString tlsKey;
    // Group resources kept in storages of their own, each its own revision series
    // ("events", "leases.coordination.k8s.io"; registry::Registry::Options::separateStorage).
    QStringList separateStorage;
    // Bytes a watch's client may leave unread before the watch ends with ERROR 410; 0: unbounded.
    std::size_t maxWatchBacklog = api::DEFAULT_MAX_WATCH_BACKLOG;
    // Bounds on connections, requests in flight and bulk channels (server/ServerLimits.h),
    // on one user's watches and request rate (0: none).
    server::Limits serverLimits;
    std::size_t maxWatchesPerUser = api::DEFAULT_MAX_WATCHES_PER_USER;
    std::size_t userRequestsPerSecond = 0;
    // `serve --data-dir`: the served store is durable there (one snapshot and log per
    // revision series, storage::CommitLog). Empty: in memory only. A scenario (which starts
    // from a fresh core) always runs in memory.
    QString dataDir;
    // `serve --storage etcd`: the served store is a real etcd v3 (storage::EtcdStorage) at
    // etcdEndpoints (cluster members, failed over in turn), every key under etcdPrefix, so
    // several rvscope instances on one etcd serve one state. Memory: MemoryStorage (durable
    // with dataDir). A scenario always runs in memory.
    enum class StorageKind { Memory, Etcd };
    StorageKind storageKind = StorageKind::Memory;
    QStringList etcdEndpoints{QStringLiteral("http://127.0.0.1:2379")};
    QString etcdPrefix = QStringLiteral("/registry");
    // kube-apiserver's --etcd-servers-overrides: group resource -> the endpoints of another
    // etcd cluster that keeps it (with --storage etcd). Each such type is also in
    // separateStorage: a revision series of its own, truly apart on its own cluster.
    QMap<QString, QStringList> etcdServersOverrides;

    // `--fault RULE` (repeatable; core/faults/FaultRule.h): fault rules the served API applies
    // from the start, in this order. More come and go at /rvscope/v1/faults.
    QStringList faults;

    bool accessControlled() const { return !tokenFile.isEmpty() || !policyFile.isEmpty(); }
};

} // namespace rvscope::engine
