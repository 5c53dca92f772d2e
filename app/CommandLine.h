// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtNetwork/QHostAddress>

#include "BulkWatchSpec.h"

namespace rvscope::app {

struct ServeOptions final {
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8001;
    std::size_t watchHistory = 10000;
    // Operations (and watch deliveries) the journal keeps. Off by default: headless, nothing
    // reads the journal (the GUI, which draws it, keeps EngineOptions::journalCapacity).
    std::size_t journalSize = 0;
    QString tokenFile;
    QString policyFile;
    int anonymous = -1; // -1: only on loopback addresses, 0: refused, 1: allowed
    int aclRecheckMs = 1000;
    QString tlsCertificate;
    QString tlsKey;
    // Group resources kept in storages of their own ("events", "leases.coordination.k8s.io").
    QStringList separateStorage;
    std::size_t maxWatchBacklog = 8 * 1024 * 1024; // bytes; 0: unbounded
    QString dataDir; // durable store directory; empty: in memory
};

// `rvscope scenario list|run NAME`.
struct ScenarioOptions final {
    bool list = false;
    QString nameOrPath;
    quint64 seed = 1;
    QString exportPath; // JSON Lines history, when set
    bool check = false; // run the checkers; the exit code says whether they agree with the scenario
};

// `rvscope client`: a group of competing clients against a server over HTTP.
struct ClientOptions final {
    QString server = QStringLiteral("http://127.0.0.1:8001");
    int clients = 1;
    QString strategy = QStringLiteral("retry-default");
    int objects = 1;
    int operations = 100;
    QString thinkTime = QStringLiteral("1-5ms");
    quint64 seed = 1;
    QString namePrefix = QStringLiteral("client-");
    bool json = false; // print only the summary, as one JSON line
};

// `rvscope client bulk-watch`: one bulk watch websocket, one channel per --watch.
struct BulkWatchOptions final {
    QString server; // required: http(s):// or ws(s)://HOST:PORT[/prefix]
    QString token;  // sent as "Authorization: Bearer <token>" on the handshake
    QString certificateAuthority; // PEM file the server's certificate must chain to
    bool insecureSkipTlsVerify = false;
    QList<BulkWatchSpec> watches;
    bool json = false; // print every server frame verbatim instead of readable lines
};

// What the command line asks for. Parsing never exits the process; main() acts on it.
struct Command final {
    enum class Kind { Gui, Serve, Scenario, Client, BulkWatch, Help, Version, Error };
    Kind kind = Kind::Gui;
    ServeOptions serve;
    ScenarioOptions scenario;
    ClientOptions client;
    QString error; // for Kind::Error: what was wrong, in one line
    BulkWatchOptions bulkWatch;
};

Command parseCommandLine(const QStringList &arguments);
QString usageText();

} // namespace rvscope::app
