// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtNetwork/QHostAddress>

#include "engine/EngineOptions.h"

// Value types that cross from the core thread to the GUI thread (by queued signals, copied).
namespace rvscope::engine {

// The embedded HTTP server as the GUI shows it.
struct ServerState final {
    bool running = false;
    QHostAddress address;
    quint16 port = 0;
    QString error; // why it is not running, when it failed to start
    bool tls = false;

    QString url() const;
};

// A snapshot of the core, sent at most every ~33 ms.
struct CoreStats final {
    std::int64_t revision = 0;   // the main storage's current revision
    std::size_t objects = 0;     // stored objects
    std::size_t openWatches = 0; // HTTP and WebSocket watches of the embedded server
    std::size_t bulkSessions = 0; // bulk watch websockets of the embedded server
    // Storage watches feeding every watch (the fan-out hub's: one per watched type, plus
    // one per watch resumed from before its type's shared stream).
    std::size_t storageWatches = 0;
    // The separate revision series (EngineOptions::separateStorage) and their current
    // revisions, by name; empty when every type is in the main series.
    QList<std::pair<QString, qint64>> separateRevisions;

    // "revision 41" or "revision 41 (events 7)": which number is which series.
    QString revisionText() const;
    bool operator==(const CoreStats &) const = default;
};

// One journaled operation as the GUI draws it (a value copy of history::OperationRecord
// without the object; the object is fetched on demand for the selected operation).
// Revisions are integers (0: none sent / none produced); times are monotonic ns.
struct OperationSummary final {
    quint64 id = 0;
    QString clientId;
    QString verb;     // get, list, create, update, patch, delete, watch
    QString key;      // "configmaps/default/foo"
    QString strategy; // the client's strategy ("raw-put", "retry-default", ...; empty for HTTP clients)
    qint64 rvSent = 0;
    qint64 rvProduced = 0;
    qint64 startNs = 0;
    qint64 endNs = -1; // -1: pending
    int statusCode = 0;
    QString reason; // "Conflict", "NotFound", ... empty on success
    QString message; // the error's Status message, empty on success
    int casRetries = 0;
    bool noop = false; // a write that changed nothing (same resourceVersion)
    bool apply = false; // a server-side apply (a patch that merges by field ownership)
    bool remote = false; // written by another instance on the same etcd, seen by watch
    QString injected;    // the fault rule's action that acted on it ("conflict", "drop", ...), empty: none

    bool pending() const { return endNs < 0; }
    bool conflict() const { return statusCode == 409; }
    bool isWrite() const
    {
        return verb == QLatin1String("create") || verb == QLatin1String("update") || verb == QLatin1String("patch")
            || verb == QLatin1String("delete");
    }
};

// Operations completed since the last batch, in completion order (sent every ~33 ms).
using OperationBatch = QList<OperationSummary>;

// One event delivered on a watch (HTTP, WebSocket, scenario or GUI-opened), as journaled.
struct WatchEventSummary final {
    QString watcherId;     // "watch-<operation id>" or a scenario's "<client>/<collection>#n"
    quint64 operationId = 0; // the journaled watch request (0: unknown)
    QString type;          // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
    qint64 resourceVersion = 0;
    QString key;           // "configmaps/default/foo" (empty for BOOKMARK and ERROR)
    qint64 timeNs = 0;
    QString message;       // ERROR: "410 Expired: too old resource version: ..."
};
using WatchEventBatch = QList<WatchEventSummary>;

// Everything the journal knows about one operation, for the inspector and the conflicts
// three-way view: the objects are compact JSON (empty when unknown).
struct OperationDetail final {
    OperationSummary summary;
    QByteArray object;      // what the server returned (written, read or deleted object)
    QByteArray request;     // what the client sent (writes)
    QByteArray readObject;  // the key's object at rvSent (what the client had read), if journaled
    QByteArray liveObject;  // the key's newest object committed before this operation ended
    qint64 liveResourceVersion = 0;
    QList<qint64> keyRevisions; // every revision of the key committed in the journal, ascending
    // The revision series its resourceVersions count in ("events"), empty when there is only
    // the main one; "main or events" when the key's resource name is served by both.
    QString revisionSeries;
};

// A watch the GUI opened through Engine::openWatch.
struct WatchChannel final {
    quint64 id = 0;       // its journal operation id; events carry watcherId "watch-<id>"
    QString collection;   // "configmaps/default"
    QString fromResourceVersion;
    int status = 0;       // the watch request's HTTP status (200, or the error's)
    QString error;        // the Status message when it was refused
};

// One open channel of a bulk watch session (api::BulkWatchSession::ChannelInfo as values).
struct BulkChannelSummary final {
    qint64 channel = 0;    // the session's integer channel id (from 1, in the order watches opened)
    QString group;         // API group ("" for the core group)
    QString version;
    QString resource;      // "configmaps"
    QString namespaceName; // empty: every namespace (or a cluster-scoped type)
    QString name;          // from a metadata.name= field selector, else empty
    QString labelSelector;
    QString fieldSelector;
    // The journal's watcher for this channel's events ("watch-<operation id>", as for a
    // regular watch), empty when the journal is off.
    QString watcherId;

    // What it watches, written like a watch's collection: "configmaps/default",
    // "configmaps/default/foo", "deployments.apps" (resource.group outside the core group).
    QString collection() const;
    bool operator==(const BulkChannelSummary &) const = default;
};

// One bulk watch connection of the embedded server (a websocket on
// /apis/bulk.k8s.io/v1/bulkgetoperations) and its open channels.
struct BulkSessionSummary final {
    // Given by the engine when it first sees the session, from 1; never reused while the
    // engine lives (a new connection is a new id).
    quint64 id = 0;
    QString user; // the authenticated user of the connection ("system:anonymous" without access control)
    QString peer; // the client's address, empty when the server does not tell it
    int openChannels = 0;               // every open channel
    QList<BulkChannelSummary> channels; // by channel id; at most MAX_REPORTED channels per report in all
    bool operator==(const BulkSessionSummary &) const = default;

    static constexpr int MAX_REPORTED = 5000;
};
// Every open bulk session, by id. Sent when it changed (a session or a channel opened or
// closed), at most every ~33 ms; empty when the server is off.
using BulkSessionList = QList<BulkSessionSummary>;

// One fault rule the served API applies (core/faults; README "Fault injection"), as the
// Faults panel lists it: the same fields as /rvscope/v1/faults.
struct FaultRuleSummary final {
    quint64 id = 0;
    QString rule;
    quint64 matched = 0; // requests it named
    quint64 fired = 0;   // of those, the ones it acted on
    bool spent = false;  // fired as many times as times=N allows
    bool operator==(const FaultRuleSummary &) const = default;
};
using FaultRuleList = QList<FaultRuleSummary>;

} // namespace rvscope::engine

Q_DECLARE_METATYPE(rvscope::engine::OperationSummary)
Q_DECLARE_METATYPE(rvscope::engine::OperationBatch)
Q_DECLARE_METATYPE(rvscope::engine::WatchEventSummary)
Q_DECLARE_METATYPE(rvscope::engine::WatchEventBatch)
Q_DECLARE_METATYPE(rvscope::engine::WatchChannel)
Q_DECLARE_METATYPE(rvscope::engine::OperationDetail)
Q_DECLARE_METATYPE(rvscope::engine::ServerState)
Q_DECLARE_METATYPE(rvscope::engine::CoreStats)
Q_DECLARE_METATYPE(rvscope::engine::BulkSessionList)
Q_DECLARE_METATYPE(rvscope::engine::FaultRuleList)
