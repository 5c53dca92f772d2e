// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

#include <QtCore/QByteArray>
#include <QtCore/QList>

class QTcpSocket;

// HTTP/1.1 by hand over real sockets on 127.0.0.1, for the tests that check the wire: one
// way to build a request and to read its answer. Every wait runs the event loop, so a server
// in the test's own thread answers meanwhile (one in another thread or process does anyway).
namespace rvscope::testing {

// METHOD PATH HTTP/1.1 with Host, each of `headers` ("Name: value"), and, with a body, its
// Content-Type and Content-Length.
QByteArray rawRequest(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                      const QList<QByteArray> &headers = {}, const QByteArray &contentType = "application/json");

struct HttpReply {
    int status = 0; // 0: no answer
    QByteArray headers;
    QByteArray body;
};

// Reads into `buffer` until `done(buffer)` holds; false after `timeoutMs` without it.
bool readUntil(QTcpSocket &socket, QByteArray &buffer, const std::function<bool(const QByteArray &)> &done,
               int timeoutMs = 5000);
// Reads into `buffer` until the peer closes the connection; false if it stays open.
bool readUntilClosed(QTcpSocket &socket, QByteArray &buffer, int timeoutMs = 5000);
// One Content-Length-framed answer from a (keep-alive) connection.
HttpReply readReply(QTcpSocket &socket, int timeoutMs = 5000);
// One request on a connection of its own (Connection: close) and all of its answer.
HttpReply exchange(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                   const QList<QByteArray> &headers = {}, const QByteArray &contentType = "application/json");
// The status code of a raw answer ("HTTP/1.1 409 Conflict..." -> 409).
int statusOf(const QByteArray &response);

} // namespace rvscope::testing
