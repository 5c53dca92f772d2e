// SPDX-License-Identifier: MIT
#include "server/FreeMemory.h"

#include <dlfcn.h>
#include <malloc.h>

#include <memory>

#include <QtNetwork/QTcpSocket>

namespace rvscope::server {

void releaseFreeMemory()
{
    // Looked up at run time: the core library does not link tcmalloc, the executables do
    // (RVSCOPE_USE_TCMALLOC), and the sanitizer builds run on their own allocator.
    using Release = void (*)();
    static const auto tcmallocRelease =
        reinterpret_cast<Release>(dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory"));
    if (tcmallocRelease)
        tcmallocRelease();
    else
        malloc_trim(0);
}

void releaseFreeMemoryOnceSent(QTcpSocket *socket, QObject *context)
{
    // Queued, so that whatever the caller or Qt still frees on this call stack (the
    // answer's bytes, the socket's buffer) is free by then.
    auto release = [context] { QMetaObject::invokeMethod(context, &releaseFreeMemory, Qt::QueuedConnection); };
    if (socket->bytesToWrite() == 0) {
        release();
        return;
    }
    // Once, whichever comes first: the buffer drained, or the socket gone with it.
    auto drained = std::make_shared<QMetaObject::Connection>();
    auto gone = std::make_shared<QMetaObject::Connection>();
    *drained = QObject::connect(socket, &QIODevice::bytesWritten, context, [socket, drained, gone, release] {
        if (socket->bytesToWrite() > 0)
            return;
        QObject::disconnect(*drained);
        QObject::disconnect(*gone);
        release();
    });
    *gone = QObject::connect(socket, &QObject::destroyed, context, [drained, gone, release] {
        QObject::disconnect(*drained);
        QObject::disconnect(*gone);
        release();
    });
}

} // namespace rvscope::server
