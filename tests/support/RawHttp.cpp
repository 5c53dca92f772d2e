// SPDX-License-Identifier: MIT
#include "RawHttp.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QRegularExpression>
#include <QtNetwork/QTcpSocket>

namespace rvscope::testing {

QByteArray rawRequest(const QByteArray &method, const QByteArray &path, const QByteArray &body,
                      const QList<QByteArray> &headers, const QByteArray &contentType)
{
    QByteArray out = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (const QByteArray &header : headers)
        out += header + "\r\n";
    if (!body.isEmpty())
        out += "Content-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    return out + "\r\n" + body;
}

bool readUntil(QTcpSocket &socket, QByteArray &buffer, const std::function<bool(const QByteArray &)> &done,
               int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    buffer += socket.readAll();
    while (!done(buffer) && timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (socket.bytesAvailable() == 0)
            socket.waitForReadyRead(10);
        buffer += socket.readAll();
    }
    return done(buffer);
}

bool readUntilClosed(QTcpSocket &socket, QByteArray &buffer, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (socket.state() == QAbstractSocket::ConnectedState && timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (socket.bytesAvailable() == 0)
            socket.waitForReadyRead(10);
        buffer += socket.readAll();
    }
    buffer += socket.readAll();
    return socket.state() != QAbstractSocket::ConnectedState;
}

namespace {
// The answer in `buffer` once it is complete (Content-Length framing), else status 0.
HttpReply completeReply(const QByteArray &buffer)
{
    HttpReply reply;
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return reply;
    const QByteArray headers = buffer.left(end);
    static const QRegularExpression contentLength(QStringLiteral("Content-Length: (\\d+)"),
                                                  QRegularExpression::CaseInsensitiveOption);
    const auto length = contentLength.match(QString::fromLatin1(headers));
    const qsizetype bodyLength = length.hasMatch() ? length.captured(1).toLongLong() : 0;
    if (buffer.size() < end + 4 + bodyLength)
        return reply;
    reply.status = statusOf(buffer);
    reply.headers = headers;
    reply.body = buffer.mid(end + 4, bodyLength);
    return reply;
}
} // namespace

HttpReply readReply(QTcpSocket &socket, int timeoutMs)
{
    QByteArray buffer;
    readUntil(socket, buffer, [](const QByteArray &b) { return completeReply(b).status != 0; }, timeoutMs);
    return completeReply(buffer);
}

HttpReply exchange(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body,
                   const QList<QByteArray> &headers, const QByteArray &contentType)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(rawRequest(method, path, body, QList<QByteArray>(headers) << "Connection: close", contentType));
    QByteArray buffer;
    readUntilClosed(socket, buffer);
    HttpReply reply;
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return reply;
    reply.status = statusOf(buffer);
    reply.headers = buffer.left(end);
    reply.body = buffer.mid(end + 4);
    return reply;
}

int statusOf(const QByteArray &response)
{
    return response.startsWith("HTTP/1.") ? response.mid(9, 3).toInt() : 0;
}

} // namespace rvscope::testing
