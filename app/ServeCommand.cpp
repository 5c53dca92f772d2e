// SPDX-License-Identifier: MIT
#include "ServeCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>

#include "SignalWatcher.h"
#include "engine/Engine.h"

namespace rvscope::app {

int runServe(const ServeOptions &options)
{
    // The same Engine as the GUI: the core (a fresh apiserver's store and the HTTP server)
    // runs in its own thread; this thread only reports and waits for a signal.
    // Whatever the command line said, this is a headless server: its journal is off unless
    // --journal-size or --export asks for one (EngineOptions::journalCapacity()).
    ServeOptions headless = options;
    headless.role = ServeOptions::Role::Server;
    engine::Engine engine(headless);
    int exitCode = 0;
    bool stopping = false;
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::terminationRequested, QCoreApplication::instance(), [&](int) {
        if (stopping)
            return; // the export is being written; it ends the process
        stopping = true;
        if (options.exportPath.isEmpty()) {
            QCoreApplication::quit();
            return;
        }
        // Requests first stop (the core runs these in order), so that the file holds every
        // operation a client was answered.
        engine.stopServer();
        engine.exportHistory(options.exportPath, options.exportSecrets);
    });
    QObject::connect(&engine, &engine::Engine::historyExported, QCoreApplication::instance(),
                     [&exitCode](const QString &path, const QString &error) {
                         if (error.isEmpty()) {
                             std::printf("history written to %s\n", qPrintable(path));
                             std::fflush(stdout);
                         } else {
                             std::fprintf(stderr, "rvscope: cannot export the history: %s\n", qPrintable(error));
                             exitCode = 1;
                         }
                         QCoreApplication::quit();
                     });
    QObject::connect(&engine, &engine::Engine::serverStateChanged, QCoreApplication::instance(),
                     [&exitCode, &stopping, &options](const engine::ServerState &state) {
                         if (state.running) {
                             std::printf("listening on %s\n", qPrintable(state.url()));
                             std::fflush(stdout);
                             return;
                         }
                         if (stopping)
                             return; // stopped on our request, before the export
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
