// SPDX-License-Identifier: MIT
#include "ServeCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>

#include "SignalWatcher.h"
#include "engine/Engine.h"

namespace rvscope::app {

int runServe(const ServeOptions &options)
{
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::terminationRequested, QCoreApplication::instance(),
                     [](int) { QCoreApplication::quit(); });

    // The same Engine as the GUI: the core (a fresh apiserver's store and the HTTP server)
    // runs in its own thread; this thread only reports and waits for a signal.
    // Whatever the command line said, this is a headless server: its journal is off unless
    // --journal-size asks for one (EngineOptions::journalCapacity()).
    ServeOptions headless = options;
    headless.role = ServeOptions::Role::Server;
    engine::Engine engine(headless);
    int exitCode = 0;
    QObject::connect(&engine, &engine::Engine::serverStateChanged, QCoreApplication::instance(),
                     [&exitCode, &options](const engine::ServerState &state) {
                         if (state.running) {
                             std::printf("listening on %s\n", qPrintable(state.url()));
                             std::fflush(stdout);
                             return;
                         }
                         // Not only a taken port: a bad policy file or data directory ends here too.
                         std::fprintf(stderr, "rvscope: cannot serve on %s:%u: %s\n",
                                      qPrintable(options.address.toString()), options.port, qPrintable(state.error));
                         exitCode = 1;
                         QCoreApplication::exit(1);
                     });
    engine.startServer(options.address, options.port);
    const int code = QCoreApplication::exec();
    return exitCode != 0 ? exitCode : code;
}

} // namespace rvscope::app
