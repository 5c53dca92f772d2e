// SPDX-License-Identifier: MIT
// HttpRequestReader's refusals: the request dropped at once, its Status answered once the
// answers before it are out, and the connection closed as Go's closeWriteAndWait does.
#include "server/HttpRequestReader.h"

#include <utility>

#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>

#include <sys/socket.h>

#include "api/Responses.h"
#include "model/Status.h"
#include "server/HttpResponse.h"

namespace rvscope::server {
namespace {
// How long a refused client may go on reading the answer (Go waits 500 ms too).
constexpr int CLOSE_GRACE_MS = 500;
} // namespace

void HttpRequestReader::refuse(int code, const char *reason, const std::string &message)
{
    model::Status status;
    status.code = code;
    status.reason = reason;
    status.message = message;
    refuse(status);
}

void HttpRequestReader::refuse(const model::Status &status)
{
    // Nothing of this request is handed over, and what came is dropped. As Go's
    // closeWriteAndWait: closing with unread request bytes would reset the connection and
    // could destroy the answer before the client reads it, so the rest of the request is
    // read and dropped too.
    stopReading();
    m_socket->readAll();
    QTcpSocket *socket = m_socket;
    connect(socket, &QIODevice::readyRead, this, [socket] { socket->readAll(); });
    // Go writes its refusals of malformed requests as fixed HTTP/1.1 text, whatever the
    // request's version; the 413 stands for the apiserver handler's and the 417 for
    // sendExpectationFailed, and the 504 for the timeout filter's, which go through the
    // response writer and so answer HTTP/1.0 in its status line (all come after the request
    // line is read).
    const bool http10 = !m_http11 && (status.code == 413 || status.code == 417 || status.code == 504);
    if (m_answersOwed && m_answersOwed()) {
        m_heldRefusal = status; // after the answers before it (answersSettled())
        m_heldRefusalHttp10 = http10;
        return;
    }
    writeRefusal(status, http10);
}

void HttpRequestReader::writeHeldRefusal()
{
    if (!m_heldRefusal)
        return;
    const model::Status status = std::move(*m_heldRefusal);
    m_heldRefusal.reset();
    writeRefusal(status, m_heldRefusalHttp10);
}

void HttpRequestReader::writeRefusal(const model::Status &status, bool http10)
{
    // The sending side is shut once the answer is out, and the client gets a moment to
    // read before the connection goes.
    HttpResponse response = HttpResponse::from(api::statusResponse(status));
    if (http10 && status.code == 417)
        response.headers.emplace_back("Connection", "close"); // sendExpectationFailed sets it, for any version
    m_socket->write(response.serialize(http10 ? Persistence::CloseHttp10 : Persistence::Close));
    connect(m_socket, &QIODevice::bytesWritten, this, &HttpRequestReader::closeOnceAnswered);
    m_socket->flush();
    closeOnceAnswered();
}

void HttpRequestReader::closeOnceAnswered()
{
    if (m_halfClosed || m_socket->bytesToWrite() > 0)
        return;
    m_halfClosed = true;
    ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
    QTimer::singleShot(CLOSE_GRACE_MS, m_socket, &QAbstractSocket::abort);
}

} // namespace rvscope::server
