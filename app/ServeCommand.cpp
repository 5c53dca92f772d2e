// SPDX-License-Identifier: MIT
#include "ServeCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>

#include "SignalWatcher.h"
#include "server/ApiServer.h"
#include "storage/MemoryStorage.h"

namespace rvscope::app {
namespace {
QString urlHost(const QHostAddress &address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']'
                                                                : address.toString();
}
} // namespace

int runServe(const ServeOptions &options)
{
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::terminationRequested, QCoreApplication::instance(),
                     [](int) { QCoreApplication::quit(); });

    // The store the REST API will serve; it starts empty, like a fresh apiserver's etcd.
    storage::MemoryStorage storage(storage::MemoryStorage::Options{options.watchHistory});

    server::ApiServer server;
    QString error;
    const quint16 port = server.start(options.address, options.port, &error);
    if (port == 0) {
        std::fprintf(stderr, "rvscope: cannot listen on %s:%u: %s\n", qPrintable(urlHost(options.address)),
                     options.port, qPrintable(error));
        return 1;
    }
    std::printf("listening on http://%s:%u\n", qPrintable(urlHost(options.address)), port);
    std::fflush(stdout);
    return QCoreApplication::exec();
}

} // namespace rvscope::app
