// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include "BulkWatchSpec.h"
#include "engine/EngineOptions.h"

namespace rvscope::app {

// `rvscope [gui|serve]`: the engine's options, the one options struct of the window, the
// headless server and the Engine (engine/EngineOptions.h holds every default).
using ServeOptions = engine::EngineOptions;

// `rvscope scenario list|run NAME`.
struct ScenarioOptions final {
    bool list = false;
    QString nameOrPath;
    quint64 seed = 1;
    QString exportPath; // JSON Lines history, when set
    bool exportSecrets = false; // Secrets' values in the export (else REDACTED)
    bool check = false; // run the checkers; the exit code says whether they agree with the scenario
};

// `rvscope client`: a group of competing clients against a server over HTTP.
struct ClientOptions final {
    QString server = QStringLiteral("http://127.0.0.1:8001");
    int clients = 1;
    QString strategy = QStringLiteral("retry-default");
    int objects = 1;
    QString objectPrefix = QStringLiteral("counter"); // ConfigMaps <objectPrefix>-0..objects-1
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

// `rvscope check FILE`: the checkers on an exported history.
struct CheckOptions final {
    QString path;
    bool json = false; // print one JSON object instead of the verdict lines
};

// What the command line asks for. Parsing never exits the process; main() acts on it.
struct Command final {
    enum class Kind { Gui, Serve, Scenario, Client, BulkWatch, Check, Help, Version, Error };
    Kind kind = Kind::Gui;
    ServeOptions serve;
    ScenarioOptions scenario;
    ClientOptions client;
    QString error; // for Kind::Error: what was wrong, in one line
    BulkWatchOptions bulkWatch;
    CheckOptions check;
};

Command parseCommandLine(const QStringList &arguments);
// Why the window cannot open with these options, in one line (empty when it can).
QString windowOptionsError(const ServeOptions &options);
// main()'s arguments as parseCommandLine() takes them.
QStringList argumentsOf(int argc, char **argv);
QString usageText();

} // namespace rvscope::app
