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
#include <QtWebSockets/QWebSocketServer>

#include "api/ApiTypes.h"
#include "model/Status.h"
#include "server/ChunkedBodyFraming.h"
#include "server/ClientFrameHeads.h"
#include "server/HttpResponse.h"

class QTcpSocket;
class QTimer;
class QWebSocket;

namespace rvscope::server {

// rvscope's HTTP/1.1 reader: it reads each request of one connection (head, then a body of
// Content-Length bytes or chunked) by Go's net/http rules and hands it over whole as an
// api::ApiRequest. Qt 6.4's own parser (QtHttpServer) is not used: it reads a head a byte at
// a time (a fifth of the core thread under load), bounds neither the head nor the body, and
// lets through what Go refuses. The bounds:
// - a request line over MAX_REQUEST_HEAD_BYTES is answered 414 URI Too Long;
// - a request line and header fields together over MAX_REQUEST_HEAD_BYTES (Go's
//   http.DefaultMaxHeaderBytes, 1 MiB) get 431 Request Header Fields Too Large;
// - header fields over MAX_HEADER_FIELD_BYTES get 431 as well.
// A request line that is not METHOD SP TARGET SP HTTP/d.d gets 400, as from Go's server,
// and so do header fields Go refuses (checkField(): no colon, control bytes, a bad or second
// different Content-Length), an HTTP/1.1 head without Host or with two, and a target Go's
// url.ParseRequestURI refuses (a broken '%' escape, a control byte, neither "/...", "*" nor
// absolute); HTTP/2+ gets 505, a transfer coding other than
// chunked 501, more than 100 fields 431, and a Content-Length over MAX_REQUEST_BODY_BYTES
// 413 before the body is read. A head not complete install()'s headMs
// (HEAD_READ_TIMEOUT_MS by default) after the connection opened (later requests: after
// their first byte) closes the connection, as the apiserver's ReadHeaderTimeout does; a body
// not complete bodyMs (REQUEST_TIMEOUT_MS) after its head (or its "100 Continue", or the
// answers owed before it) is answered 504 Timeout, as by the apiserver's timeout filter, and
// the connection closes.
// A WebSocket upgrade the apiserver's x/net/websocket handshake refuses gets its answer: 405
// for a method other than GET, 400 without Sec-WebSocket-Key or with a version other than 13.
// A chunked body is decoded as Go's chunked reader does (ChunkedBodyFraming): framing it
// refuses gets the apiserver's answer to a body it cannot read (500 with the reader's
// error, as limitedReadBody's error reaches scope.err), trailer fields 400, and more than
// MAX_REQUEST_BODY_BYTES and the 256 KiB Go drains after a handler gets 413.
// A refusal's answer is a Status, and the connection closes; nothing of the request reaches
// the API. Requests a client pipelines are read and handed over in order.
// An upgrade request (Upgrade: websocket, Connection: upgrade) that the server takes goes
// back into the socket and to a QWebSocketServer, which answers its handshake; from then on
// (followWebSocket()) the reader follows the client's frame heads ahead of QWebSocket,
// which takes frames RFC 6455 refuses.
//
// Core thread only; the reader is the socket's child and goes with it.
class HttpRequestReader final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpRequestReader)

public:
    ~HttpRequestReader() override;
    // A whole request, whether it is a WebSocket upgrade, and what its answer does with the
    // connection. For an upgrade, true hands the connection to the WebSocket server; false
    // closes it.
    using Deliver = std::function<bool(api::ApiRequest request, bool upgrade, Persistence persistence)>;
    struct Timeouts {
        int headMs; // a request head, from the connection's start or the head's first byte
        int bodyMs; // a request body, from the end of its head
    };
    // Starts reading `socket`'s requests, handing each to `deliver`, and its WebSocket
    // upgrades to `webSockets`. Call before anything else connects to its readyRead.
    static HttpRequestReader *install(QTcpSocket *socket, Timeouts timeouts, Deliver deliver,
                                     QWebSocketServer *webSockets);
    // Answers the connection's first request with `status` and closes it (a connection past
    // the server's bound): nothing of it reaches the API.
    void refuseConnection(model::Status status);
    // A refusal waits while `owed` says the server still owes answers to the requests
    // before the refused one (HTTP/1.1 answers in request order, and Go reads a request
    // only once the one before it is answered): its request is dropped at once, its answer
    // written at answersSettled(), which the server calls once nothing is owed. The head
    // timeout of a request that came meanwhile starts then too.
    // A "100 Continue" owed to a request that came meanwhile is written then too, and an
    // upgrade that came meanwhile goes on (the pass after).
    void holdRefusalsWhile(std::function<bool()> owed) { m_answersOwed = std::move(owed); }
    void answersSettled();
    // The answer owed ends the connection (Connection: close): a head begun behind it is
    // timed from now, so a client that never finishes it (or never reads) does not keep it.
    void startWaitingHeadTimer();

    // The reader whose connection's upgrade request became `webSocket` (the WebSocket server
    // answered its opening handshake), or null. Each is found once.
    static HttpRequestReader *upgradedTo(const QWebSocket &webSocket);
    // From now on the reader follows the client's frames (ClientFrameHeads) ahead of
    // QWebSocket's reader, and at one that is not masked closes `webSocket` with 1002
    // (protocol error) before Qt reads it. A client that sent anything before its handshake
    // was answered (RFC 6455 section 4.1: it MUST wait) is closed so at once, and false
    // returned: Qt reads such frames before any receiver can be connected, so they would be
    // lost without a word. Call it where Qt hands the WebSocket over: its reader is
    // connected by then, and the reader's own after-read slot must come after it. The socket
    // is deleted once it is disconnected (QWebSocket does not own it), and so is the reader.
    bool followWebSocket(QWebSocket *webSocket);
    // The upgrade request as the reader read it (path, query, headers), once.
    api::ApiRequest takeUpgradeRequest() { return std::exchange(m_upgradeRequest, api::ApiRequest()); }

private:
    HttpRequestReader(QTcpSocket *socket, Timeouts timeouts, Deliver deliver, QWebSocketServer *webSockets);
    void handleReadyRead();
    // Reads what the socket has, and hands over every request it completes.
    void readRequests();
    // Reads `bytes` (the next unread bytes of m_buffer) up to the end of the current
    // request; returns how many it took, or npos when a bound was passed (and the request
    // refused). The request is complete when m_part is Rest.
    std::size_t count(std::string_view bytes);
    // Hands the complete request (m_buffer's first m_counted bytes) over; false when no
    // more requests are to be read now (an upgrade, a closed connection).
    bool deliverRequest();
    // The upgrade request goes to the server and, taken, to the WebSocket server.
    void handOverUpgrade();
    void writeContinue(); // "100 Continue"
    void writeHeldRefusal();
    // Ready for the connection's next request.
    void startNextRequest();
    // The request line (without its line end): method and target; false when refused.
    bool takeRequestLine(std::string_view line);
    void refuse(int code, const char *reason, const std::string &message);
    void refuse(const model::Status &status);
    // `http10`: in HTTP/1.0's status line (see refuse()).
    void writeRefusal(const model::Status &status, bool http10);
    // Shuts the sending side once the refusal is written; closes a little later.
    void closeOnceAnswered();
    // Reads no more requests on this connection.
    void stopReading();
    // Closes the connection without a word (an upgrade the server does not take).
    void closeQuietly();

    QTcpSocket *m_socket;
    Deliver m_deliver;
    QPointer<QWebSocketServer> m_webSockets;
    // Bytes read from the socket and not handed over yet; the first m_counted are read.
    std::string m_buffer;
    std::size_t m_counted = 0;
    api::ApiRequest m_request;   // the request being read: its line and fields so far
    std::size_t m_bodyStart = 0; // where its body starts in m_buffer
    std::uint64_t m_bodyLeft = 0; // Content-Length bytes still to come
    std::string m_chunkedData;   // a chunked body's data
    bool m_http11 = true;          // HTTP/1.1 (not 1.0)
    int m_hostFields = 0;          // Host fields so far
    bool m_expectContinue = false; // Expect: 100-continue
    bool m_continueOwed = false;   // ... written once the answers before it are out
    enum class Part { RequestLine, HeaderFields, Body, ChunkedBody, Rest };
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
    bool m_halfClosed = false;
    std::optional<model::Status> m_refusal; // refuseConnection()
    std::function<bool()> m_answersOwed;     // holdRefusalsWhile()
    std::optional<model::Status> m_heldRefusal;
    bool m_heldRefusalHttp10 = false;
    bool m_headTimerWaits = false; // a head's first byte came while answers were owed
    bool m_bodyTimerWaits = false; // a body's head came while answers were owed
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
    // The Connection tokens, from every Connection field (as Go reads them, not one value).
    bool m_connectionUpgrade = false;
    bool m_connectionClose = false;
    bool m_connectionKeepAlive = false;
    bool m_webSocketKey = false;
    bool m_webSocketVersion13 = false;
    // The head timeout: running while a head is awaited (from the first byte on, after
    // the first request).
    QTimer *m_headTimer = nullptr;
    QTimer *m_bodyTimer = nullptr; // runs while a body is awaited
    bool m_awaitingFirstByte = false;
    // The WebSocket the connection became (followWebSocket()), and its client's frames.
    // Every readyRead runs handleReadyRead() first, then QWebSocket's reader, then the
    // after-read slot, which notes how much the reader left buffered: m_framesBuffered, the
    // buffered bytes m_frames has read. What is buffered beyond them is new.
    void followFrames();
    void stopFollowing();
    bool m_upgradeHeld = false;       // an upgrade waits for the answers before it
    api::ApiRequest m_upgradeRequest; // takeUpgradeRequest()
    bool m_awaitingWebSocket = false; // an upgrade went to the WebSocket server, not handed over yet
    qint64 m_handshakeBytes = 0;      // its head, put back into the socket for the WebSocket server
    bool m_bytesAfterUpgrade = false; // the client sent bytes behind its upgrade request
    std::optional<ClientFrameHeads> m_frames;
    QPointer<QWebSocket> m_webSocket;
    qint64 m_framesBuffered = 0;
    bool m_inRead = false; // between followFrames() and the after-read slot
    QMetaObject::Connection m_afterRead;
};

} // namespace rvscope::server
