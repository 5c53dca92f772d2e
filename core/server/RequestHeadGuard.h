// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include "model/Status.h"
#include "server/ChunkedBodyFraming.h"
#include "server/ClientFrameHeads.h"

class QTcpSocket;
class QTimer;
class QWebSocket;

namespace rvscope::server {

// Bounds the head (request line and header fields) of each HTTP request on one connection,
// reading the bytes before Qt's parser does, which bounds neither:
// - a request line over MAX_REQUEST_HEAD_BYTES is answered 414 URI Too Long;
// - a request line and header fields together over MAX_REQUEST_HEAD_BYTES (Go's
//   http.DefaultMaxHeaderBytes, 1 MiB) get 431 Request Header Fields Too Large;
// - header fields over MAX_HEADER_FIELD_BYTES get 431 as well: Qt 6.4's parser silently
//   drops every header of a request whose header section passes ~96 KiB, so the bound sits
//   below that instead of at Go's 1 MiB.
// A request line that is not METHOD SP TARGET SP HTTP/d.d gets 400, as from Go's server,
// and so do header fields Go refuses and Qt would pass (checkField(): no colon, control
// bytes, a bad or second different Content-Length); HTTP/2+ gets 505, a transfer coding
// other than chunked 501, more than 100 fields (Qt drops the rest) 431, and a
// Content-Length over MAX_REQUEST_BODY_BYTES 413 before Qt buffers the body. A head not
// complete install()'s headTimeoutMs (HEAD_READ_TIMEOUT_MS by default) after the
// connection opened (later requests: after their first byte) closes the connection, as the
// apiserver's ReadHeaderTimeout does.
// A request target whose path has a broken '%' escape gets 400 too (Go's url.ParseRequestURI
// refuses it), and so does a WebSocket upgrade without Sec-WebSocket-Key (the apiserver's
// x/net/websocket handshake answers it 400; Qt's would drop the connection without a word).
// A chunked body is followed to its end (ChunkedBodyFraming) before Qt's parser, which
// reads a broken one as an empty body and what follows as the next request: framing Go's
// chunked reader refuses gets the apiserver's answer to a body it cannot read (500 with the
// reader's error, as limitedReadBody's error reaches scope.err), and more than
// MAX_REQUEST_BODY_BYTES and the 256 KiB Go drains after a handler gets 413.
// The answer is a Status, and the connection closes; nothing of the request reaches the
// API. A guard counts one head (and chunked body) at a time: after the blank line that ends
// it, it waits for nextRequest() (the server got the request) before it counts the next.
// Once an upgrade has made the connection a WebSocket (followWebSocket()), the guard reads
// the client's frame heads ahead of QWebSocket, which takes frames RFC 6455 refuses.
//
// Core thread only; the guard is the socket's child and goes with it.
class RequestHeadGuard final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestHeadGuard)

public:
    ~RequestHeadGuard() override;
    // Starts guarding `socket`. Call before anything else connects to its readyRead, so
    // that an oversized head is refused before another reader sees it.
    static RequestHeadGuard *install(QTcpSocket *socket, int headTimeoutMs);
    // The request whose head was counted has been handed to the server: count the next.
    void nextRequest();
    // Answers the connection's first request with `status` and closes it (a connection past
    // the server's bound): nothing of it reaches the API.
    void refuseConnection(model::Status status);
    // A refusal waits while `owed` says the server still owes answers to the requests
    // before the refused one (HTTP/1.1 answers in request order, and Go reads a request
    // only once the one before it is answered): its request is dropped at once, its answer
    // written at answersSettled(), which the server calls once nothing is owed. The head
    // timeout of a request that came meanwhile starts then too.
    void holdRefusalsWhile(std::function<bool()> owed) { m_answersOwed = std::move(owed); }
    void answersSettled();
    // The answer owed ends the connection (Connection: close): a head begun behind it is
    // timed from now, so a client that never finishes it (or never reads) does not keep it.
    void startWaitingHeadTimer();

    // The guard whose connection's upgrade request became `webSocket` (Qt answered its
    // opening handshake), or null. Each guard is found once.
    static RequestHeadGuard *upgradedTo(const QWebSocket &webSocket);
    // From now on the guard follows the client's frames (ClientFrameHeads) ahead of
    // QWebSocket's reader, and at one that is not masked closes `webSocket` with 1002
    // (protocol error) before Qt reads it. A client that sent anything before its handshake
    // was answered (RFC 6455 section 4.1: it MUST wait) is closed so at once, and false
    // returned: Qt reads such frames before any receiver can be connected, so they would be
    // lost without a word. Call it where Qt hands the WebSocket over: its reader is
    // connected by then, and the guard's own after-read slot must come after it. The socket
    // is deleted once it is disconnected (QWebSocket does not own it), and so is the guard.
    bool followWebSocket(QWebSocket *webSocket);

private:
    RequestHeadGuard(QTcpSocket *socket, int headTimeoutMs);
    void handleReadyRead();
    // Counts `bytes`; false when a bound was passed (and the request refused).
    bool count(std::string_view bytes);
    void refuse(int code, const char *reason, const std::string &message);
    void refuse(const model::Status &status);
    void writeRefusal(const model::Status &status);
    // Shuts the sending side once the refusal is written; closes a little later.
    void closeOnceAnswered();

    QTcpSocket *m_socket;
    enum class Part { RequestLine, HeaderFields, ChunkedBody, Rest };
    Part m_part = Part::RequestLine;
    // The request line's first and last bytes, what its well-formedness is judged on.
    void rememberLineEdges(std::string_view bytes);
    static constexpr std::size_t LINE_EDGE = 64;
    std::string m_lineStart;
    std::string m_lineEnd;
    std::size_t m_lineBytes = 0;   // the request line so far
    // The request target's path, as Go's url.ParseRequestURI reads it: every '%' starts an
    // escape of two hex digits. False (and the request refused) at a broken one.
    bool checkTargetByte(char c);
    int m_lineSpaces = 0;      // spaces of the request line so far (the target follows the first)
    bool m_inQuery = false;    // past the target's '?' (the query is not unescaped here)
    std::string m_escape;      // the '%' escape being read, "" when none
    std::size_t m_headerBytes = 0; // the header fields so far
    std::size_t m_fieldLine = 0;   // bytes of the header line being read (0: at a line start)
    bool m_halfClosed = false;
    std::optional<model::Status> m_refusal; // refuseConnection()
    std::function<bool()> m_answersOwed;     // holdRefusalsWhile()
    std::optional<model::Status> m_heldRefusal;
    bool m_headTimerWaits = false; // a head's first byte came while answers were owed
    // The header field line being read (up to MAX_HEADER_FIELD_BYTES), the fields so far,
    // and the request's Content-Length once given.
    bool checkField();
    std::string m_field;
    std::size_t m_fieldCount = 0;
    std::optional<std::uint64_t> m_contentLength;
    // The head has ended: on to its chunked body, or done; false when refused.
    bool endHead();
    // Follows the chunked body through `bytes`; returns how many belonged to it, or npos
    // once the request was refused.
    std::size_t countChunked(std::string_view bytes);
    bool m_chunked = false;            // Transfer-Encoding: chunked
    ChunkedBodyFraming m_chunkedBody;
    // A WebSocket upgrade (Upgrade: websocket, Connection: upgrade) and its key.
    bool m_upgradeWebSocket = false;
    bool m_connectionUpgrade = false;
    bool m_webSocketKey = false;
    // The head timeout: running while a head is awaited (from the first byte on, after
    // the first request).
    QTimer *m_headTimer = nullptr;
    bool m_awaitingFirstByte = false;
    // The WebSocket the connection became (followWebSocket()), and its client's frames.
    // Every readyRead runs handleReadyRead() first, then QWebSocket's reader, then the
    // after-read slot, which notes how much the reader left buffered: m_framesBuffered, the
    // buffered bytes m_frames has read. What is buffered beyond them is new.
    void followFrames();
    void stopFollowing();
    // Qt's HTTP server upgrades the connection right after the guard has read the head,
    // disconnecting every receiver of the socket's signals, the guard's too; reattach(),
    // queued before Qt's handshake reader, connects it again, ahead of QWebSocket's reader.
    void reattach();
    bool m_upgradeEnded = false;      // an upgrade head has just been read
    bool m_awaitingWebSocket = false; // an upgrade head was read, the WebSocket not handed over yet
    bool m_bytesAfterUpgrade = false; // the client sent bytes behind its upgrade request
    std::optional<ClientFrameHeads> m_frames;
    QPointer<QWebSocket> m_webSocket;
    qint64 m_framesBuffered = 0;
    bool m_inRead = false; // between followFrames() and the after-read slot
    QMetaObject::Connection m_afterRead;
};

} // namespace rvscope::server
