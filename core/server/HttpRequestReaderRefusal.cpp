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
    if (m_answersOwed && m_answersOwed()) {
        m_heldRefusal = status; // after the answers before it (answersSettled())
        return;
    }
    writeRefusal(status);
}

void HttpRequestReader::writeHeldRefusal()
{
    if (!m_heldRefusal)
        return;
    const model::Status status = std::move(*m_heldRefusal);
    m_heldRefusal.reset();
    writeRefusal(status);
}

void HttpRequestReader::writeRefusal(const model::Status &status)
{
    // The sending side is shut once the answer is out, and the client gets a moment to
    // read before the connection goes.
    m_socket->write(HttpResponse::from(api::statusResponse(status)).serialize(Persistence::Close));
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
