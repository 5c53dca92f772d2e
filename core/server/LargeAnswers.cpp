// SPDX-License-Identifier: MIT
#include "server/LargeAnswers.h"

#include <dlfcn.h>
#include <malloc.h>

#include <memory>
#include <string>
#include <vector>

#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtNetwork/QSslSocket>
#include <QtNetwork/QTcpSocket>

namespace rvscope::server {
namespace {
constexpr int LATE_RELEASE_MS = 1000;

// What a socket writes from, held by a child of the socket: it goes when the socket has
// taken it all, and at the latest with the socket, whose buffer (the only reader of the
// bytes) is cleared before its children go. (Not by the connections that watch the socket:
// a QWebSocket that lets go of its socket disconnects every receiver of the socket's
// signals, while the socket goes on writing.)
class HeldBody final : public QObject {
public:
    HeldBody(std::string body, QObject *socket)
        : QObject(socket)
        , m_body(std::move(body))
    {
    }
    // The bytes, as a QByteArray that points at them.
    QByteArray bytes() const { return QByteArray::fromRawData(m_body.data(), qsizetype(m_body.size())); }

private:
    const std::string m_body;
};
} // namespace

void writeAnswer(QTcpSocket *socket, HttpResponse &&http, Persistence persistence, QObject *context)
{
    if (http.omitBody || http.body.size() < LARGE_ANSWER_BYTES) {
        socket->write(http.serialize(persistence));
        return;
    }
    if (qobject_cast<QSslSocket *>(socket)) {
        // A TLS socket copies what it is given into its own buffer, and OpenSSL holds it
        // encrypted besides: the body is let go as soon as it is serialized.
        socket->write(http.serialize(persistence));
        releaseFreeMemoryOnceSent(socket, context);
        return;
    }
    // The head, then the body as it is: a plain socket's buffer keeps a QByteArray of at
    // least a chunk as it is given (a shallow copy), and this one only points at the body.
    http.omitBody = true; // (the head keeps the body's Content-Length)
    socket->write(http.serialize(persistence));
    auto *held = new HeldBody(std::move(http.body), socket);
    socket->write(held->bytes());
    releaseFreeMemoryOnceSent(socket, context, held);
}

void releaseFreeMemory()
{
    // Looked up at run time: the core library does not link tcmalloc, the executables do
    // (RVSCOPE_USE_TCMALLOC), and the sanitizer builds run on their own allocator.
    using Call = void (*)();
    static const auto tcmallocRelease = reinterpret_cast<Call>(dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory"));
    if (tcmallocRelease)
        tcmallocRelease();
    else
        malloc_trim(0);
}

void releaseFreeMemoryOnceSent(QTcpSocket *socket, QObject *context, QObject *held)
{
    // Queued, so that whatever the caller or Qt still frees on this call stack (the
    // answer's bytes, the socket's buffers) is free by then; and once more a second later,
    // for what a TLS socket frees after it says everything is written (measured: a release
    // at the drain alone left a 9 MiB list's buffers in the process).
    auto release = [context, held = QPointer<QObject>(held)] {
        delete held.data(); // (null once gone)
        QMetaObject::invokeMethod(context, &releaseFreeMemory, Qt::QueuedConnection);
        QTimer::singleShot(LATE_RELEASE_MS, context, &releaseFreeMemory);
    };
    auto *tls = qobject_cast<QSslSocket *>(socket);
    // And once when the socket goes: a TLS connection keeps the largest answer it sent,
    // encrypted, in OpenSSL's memory BIO (Qt encrypts all it has buffered before it drains
    // the BIO, and the BIO never shrinks) until it closes.
    static const char *const RELEASES_WHEN_GONE = "rvscopeReleasesWhenGone";
    if (tls && !socket->property(RELEASES_WHEN_GONE).toBool()) {
        socket->setProperty(RELEASES_WHEN_GONE, true);
        QObject::connect(socket, &QObject::destroyed, context, [context] {
            QMetaObject::invokeMethod(context, &releaseFreeMemory, Qt::QueuedConnection);
        });
    }
    // A TLS socket holds the answer twice over: the plain bytes it has still to encrypt
    // (bytesToWrite) and the encrypted ones the kernel has not taken.
    auto unsent = [socket, tls] { return socket->bytesToWrite() + (tls ? tls->encryptedBytesToWrite() : 0); };
    if (unsent() == 0) {
        release();
        return;
    }
    // Once, whichever comes first: everything handed to the kernel, or the socket gone
    // with its buffers.
    auto connections = std::make_shared<std::vector<QMetaObject::Connection>>();
    auto once = [connections, release] {
        for (const QMetaObject::Connection &connection : *connections)
            QObject::disconnect(connection);
        release();
    };
    auto onWritten = [unsent, once] {
        if (unsent() == 0)
            once();
    };
    connections->push_back(QObject::connect(socket, &QIODevice::bytesWritten, context, onWritten));
    if (tls)
        connections->push_back(QObject::connect(tls, &QSslSocket::encryptedBytesWritten, context, onWritten));
    connections->push_back(QObject::connect(socket, &QObject::destroyed, context, once));
}

} // namespace rvscope::server
