// SPDX-License-Identifier: MIT
#include "ServeCommand.h"

#include <cstdio>

#include <QtCore/QCoreApplication>

#include "SignalWatcher.h"
#include "api/ApiHandler.h"
#include "registry/Registry.h"
#include "server/ApiServer.h"
#include "storage/MemoryStorage.h"

#include <qcoro/qcorotask.h>

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

    // A fresh apiserver: an empty store holding only the initial namespaces.
    auto storage = std::make_shared<storage::MemoryStorage>(storage::MemoryStorage::Options{options.watchHistory});
    auto registry = std::make_shared<registry::Registry>(storage);
    if (auto booted = QCoro::waitFor(registry->bootstrap()); !booted) {
        std::fprintf(stderr, "rvscope: cannot initialize the store: %s\n", booted.error().message.c_str());
        return 1;
    }
    api::ApiHandler::Options apiOptions;
    auto handler = std::make_shared<api::ApiHandler>(registry, apiOptions);
    server::ApiServer server(handler);
    QString error;
    const quint16 port = server.start(options.address, options.port, &error);
    if (port == 0) {
        std::fprintf(stderr, "rvscope: cannot listen on %s:%u: %s\n", qPrintable(urlHost(options.address)),
                     options.port, qPrintable(error));
        return 1;
    }
    handler->setServerAddress((urlHost(options.address) + u':' + QString::number(port)).toStdString());
    std::printf("listening on http://%s:%u\n", qPrintable(urlHost(options.address)), port);
    std::fflush(stdout);
    const int code = QCoreApplication::exec();
    server.closeWatches();
    return code;
}

} // namespace rvscope::app
