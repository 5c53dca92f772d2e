// SPDX-License-Identifier: MIT
#include "server/RequestHeadGuard.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <utility>
#include <string>
#include <vector>

#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>
#include <QtWebSockets/QWebSocket>

#include "model/Status.h"
#include "server/HeaderTokens.h"
#include "server/ServerLimits.h"

namespace rvscope::server {
namespace {
// How long a WebSocket's socket may go on writing what was sent before the WebSocket went.
constexpr int WEBSOCKET_LINGER_MS = 10'000;

// The guards whose request head was a WebSocket upgrade, until the WebSocket Qt makes of it
// is handed over (upgradedTo()) or they go. Core thread; rarely more than one.
thread_local std::vector<QPointer<RequestHeadGuard>> t_upgrades;

// Peeks every buffered byte of `socket` and hands them to `use` (a string_view).
template<typename Use>
void peekBuffered(QTcpSocket *socket, qint64 available, Use &&use)
{
    if (available <= 0 || !socket->isOpen())
        return;
    std::array<char, 16 * 1024> small;
    if (available <= qint64(small.size())) {
        const qint64 got = socket->peek(small.data(), available);
        use(std::string_view(small.data(), std::size_t(std::max<qint64>(got, 0))));
        return;
    }
    const QByteArray bytes = socket->peek(available);
    use(std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Go's parseRequestLine and ParseHTTPVersion: METHOD SP TARGET SP HTTP/d.d, the method a
// token. Judged on the line's first and last bytes (`start`, `end`, without the line end)
// and its `length`, so that a long line is never copied.
bool wellFormedRequestLine(std::string_view start, std::string_view end, std::size_t length)
{
    const std::size_t space = start.find(' ');
    if (space == std::string_view::npos || space == 0)
        return false;
    if (!std::all_of(start.begin(), start.begin() + std::ptrdiff_t(space), isTokenChar))
        return false;
    constexpr std::size_t VERSION = 9; // " HTTP/d.d"
    if (length <= space + VERSION || end.size() < VERSION)
        return false;
    const std::string_view version = end.substr(end.size() - VERSION);
    return version.substr(0, 6) == " HTTP/" && std::isdigit(static_cast<unsigned char>(version[6]))
        && version[7] == '.' && std::isdigit(static_cast<unsigned char>(version[8]));
}
} // namespace

RequestHeadGuard *RequestHeadGuard::install(QTcpSocket *socket, int headTimeoutMs)
{
    return new RequestHeadGuard(socket, headTimeoutMs);
}

RequestHeadGuard::RequestHeadGuard(QTcpSocket *socket, int headTimeoutMs)
    : QObject(socket)
    , m_socket(socket)
    , m_headTimer(new QTimer(this))
{
    connect(socket, &QIODevice::readyRead, this, &RequestHeadGuard::handleReadyRead);
    m_headTimer->setSingleShot(true);
    m_headTimer->setInterval(headTimeoutMs);
    connect(m_headTimer, &QTimer::timeout, this, [this] {
        if (m_part != Part::Rest) // no answer, as Go's server on a header read timeout
            m_socket->abort();
    });
    m_headTimer->start();
}

void RequestHeadGuard::nextRequest()
{
    m_headTimer->stop();
    if (m_awaitingWebSocket)
        return; // the upgrade request: the connection becomes a WebSocket, no more heads
    m_part = Part::RequestLine;
    m_lineStart.clear();
    m_lineEnd.clear();
    m_lineBytes = 0;
    m_lineSpaces = 0;
    m_inQuery = false;
    m_escape.clear();
    m_headerBytes = 0;
    m_fieldLine = 0;
    m_field.clear();
    m_fieldCount = 0;
    m_contentLength.reset();
    m_chunked = false;
    m_chunkedBody = ChunkedBodyFraming();
    m_upgradeWebSocket = false;
    m_connectionUpgrade = false;
    m_webSocketKey = false;
    m_headTimer->stop();
    m_awaitingFirstByte = true; // the idle timeout guards the wait for it
    m_headTimerWaits = false;   // (a whole head came while answers were owed: nothing to time)
}

void RequestHeadGuard::refuseConnection(model::Status status)
{
    m_refusal = std::move(status);
}

void RequestHeadGuard::handleReadyRead()
{
    if (m_refusal && m_part != Part::Rest) {
        refuse(*m_refusal);
        return;
    }
    if (m_awaitingWebSocket) {
        // Bytes after the upgrade request, before its 101 was even written (Qt answers the
        // handshake on a later pass and hands the WebSocket over at once): a client that
        // did not wait (or Qt reading them: the same).
        m_bytesAfterUpgrade = true;
        return;
    }
    if (m_frames) {
        followFrames();
        return;
    }
    if (m_part == Part::Rest)
        return;
    // The bytes no reader has taken yet (Qt's parser reads inside a transaction, so what it
    // read before stays buffered behind the read position); peeked, never consumed.
    bool refused = false;
    peekBuffered(m_socket, m_socket->bytesAvailable(), [this, &refused](std::string_view bytes) {
        refused = !bytes.empty() && !count(bytes);
    });
    if (m_upgradeEnded) {
        m_upgradeEnded = false;
        if (!refused) {
            m_awaitingWebSocket = true;
            QMetaObject::invokeMethod(this, &RequestHeadGuard::reattach, Qt::QueuedConnection);
        }
    }
}

void RequestHeadGuard::reattach()
{
    // (Unique: if Qt did not upgrade, the guard is still connected.)
    connect(m_socket, &QIODevice::readyRead, this, &RequestHeadGuard::handleReadyRead, Qt::UniqueConnection);
    // Qt's own deleteLater at disconnection went with the rest: a handshake Qt refuses
    // closes the socket, which must still go (and the guard with it).
    connect(m_socket, &QAbstractSocket::disconnected, m_socket, &QObject::deleteLater, Qt::UniqueConnection);
}

RequestHeadGuard::~RequestHeadGuard()
{
    std::erase(t_upgrades, QPointer<RequestHeadGuard>(this));
}

RequestHeadGuard *RequestHeadGuard::upgradedTo(const QWebSocket &webSocket)
{
    for (auto it = t_upgrades.begin(); it != t_upgrades.end(); ++it) {
        const QTcpSocket *socket = (*it)->m_socket;
        if (socket->state() == QAbstractSocket::ConnectedState && socket->peerPort() == webSocket.peerPort()
            && socket->localPort() == webSocket.localPort() && socket->peerAddress() == webSocket.peerAddress()) {
            RequestHeadGuard *guard = *it;
            t_upgrades.erase(it);
            return guard;
        }
    }
    return nullptr;
}

bool RequestHeadGuard::followWebSocket(QWebSocket *webSocket)
{
    // QWebSocket holds the socket without owning it (a guarded pointer), and when deleted
    // disconnects every receiver of the socket's signals. So the socket goes once the
    // WebSocket is disconnected (and the guard with it, giving back its place in
    // --max-connections). A WebSocket deleted while its socket still writes (the server
    // ended a watch; the client reads slowly) leaves the socket to finish within
    // WEBSOCKET_LINGER_MS, as the kernel goes on sending after Go's close.
    connect(webSocket, &QWebSocket::disconnected, m_socket, &QObject::deleteLater);
    connect(webSocket, &QObject::destroyed, m_socket, [socket = m_socket] {
        if (socket->state() == QAbstractSocket::UnconnectedState) {
            socket->deleteLater();
            return;
        }
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        QTimer::singleShot(WEBSOCKET_LINGER_MS, socket, &QAbstractSocket::abort);
    });
    m_awaitingWebSocket = false;
    if (m_bytesAfterUpgrade || m_socket->bytesAvailable() > 0) {
        m_socket->skip(m_socket->bytesAvailable());
        // Closed on the next pass: QWebSocket has queued its first read of the socket (it
        // finds nothing now), and reading a socket closed before it, Qt logs a warning.
        QMetaObject::invokeMethod(
            webSocket,
            [webSocket] {
                webSocket->close(QWebSocketProtocol::CloseCodeProtocolError,
                                 QStringLiteral("the client sent data before its opening handshake was answered"));
            },
            Qt::QueuedConnection);
        return false;
    }
    m_webSocket = webSocket;
    m_frames.emplace();
    m_framesBuffered = 0;
    m_afterRead = connect(m_socket, &QIODevice::readyRead, this, [this] {
        m_framesBuffered = m_socket->bytesAvailable();
        m_inRead = false;
    });
    return true;
}

void RequestHeadGuard::followFrames()
{
    const qint64 available = m_socket->bytesAvailable();
    if (!m_webSocket || available < m_framesBuffered || m_inRead) {
        // Gone, read outside a readyRead, or a readyRead within QWebSocket's read: where
        // frames start is no longer known, and a wrong guess would close a good client.
        stopFollowing();
        return;
    }
    m_inRead = true;
    const std::uint64_t fresh = std::uint64_t(available - m_framesBuffered);
    const std::uint64_t passed = std::min(fresh, m_frames->payloadLeft());
    m_frames->skip(passed);
    std::string breach;
    if (passed < fresh) {
        const std::size_t from = std::size_t(m_framesBuffered) + std::size_t(passed);
        peekBuffered(m_socket, available, [&](std::string_view bytes) {
            if (bytes.size() > from)
                breach = m_frames->feed(bytes.substr(from));
        });
    }
    m_framesBuffered = available;
    if (breach.empty())
        return;
    // Nothing of it reaches QWebSocket's reader, next on this readyRead.
    QPointer<QWebSocket> webSocket = m_webSocket;
    stopFollowing();
    m_socket->skip(available);
    if (webSocket)
        webSocket->close(QWebSocketProtocol::CloseCodeProtocolError, QString::fromStdString(breach));
}

void RequestHeadGuard::stopFollowing()
{
    m_frames.reset();
    m_webSocket.clear();
    disconnect(m_afterRead);
}

bool RequestHeadGuard::count(std::string_view bytes)
{
    if (m_awaitingFirstByte && !bytes.empty()) {
        m_awaitingFirstByte = false;
        // Go reads (and times) the next head only once the answer before it is out: a head
        // pipelined behind a watch or a waiting write is not timed until then.
        if (m_answersOwed && m_answersOwed())
            m_headTimerWaits = true; // answersSettled()
        else
            m_headTimer->start();
    }
    while (!bytes.empty() && m_part != Part::Rest) {
        if (m_part == Part::ChunkedBody) {
            const std::size_t used = countChunked(bytes);
            if (used == std::string_view::npos)
                return false;
            bytes.remove_prefix(used);
            continue;
        }
        const char *newline = static_cast<const char *>(std::memchr(bytes.data(), '\n', bytes.size()));
        const std::size_t upTo = newline ? std::size_t(newline - bytes.data()) + 1 : bytes.size();
        if (m_part == Part::RequestLine && m_lineBytes == 0 && (bytes.front() == '\r' || bytes.front() == '\n')) {
            bytes.remove_prefix(1); // an empty line before a request (after a body, say) is no request line
            continue;
        }
        if (m_part == Part::RequestLine) {
            const std::string_view piece = bytes.substr(0, upTo);
            if (std::any_of(piece.begin(), piece.end(), [](char c) { return c == '\0'; })) {
                refuse(400, "BadRequest", "malformed HTTP request line: a NUL byte");
                return false;
            }
            for (const char c : piece) {
                if (!checkTargetByte(c))
                    return false;
            }
            m_lineBytes += upTo;
            if (m_lineBytes > MAX_REQUEST_HEAD_BYTES) {
                refuse(414, "RequestURITooLong",
                       "the request line is longer than " + std::to_string(MAX_REQUEST_HEAD_BYTES) + " bytes");
                return false;
            }
            rememberLineEdges(bytes.substr(0, upTo));
            if (newline) {
                std::string_view end = m_lineEnd;
                std::size_t length = m_lineBytes;
                while (!end.empty() && (end.back() == '\n' || end.back() == '\r')) {
                    end.remove_suffix(1);
                    --length;
                }
                // Not HTTP at all: Go's server answers 400 and closes, and so does this one,
                // instead of leaving Qt's parser to drop the connection without a word.
                if (!wellFormedRequestLine(m_lineStart, end, length)) {
                    refuse(400, "BadRequest", "malformed HTTP request line");
                    return false;
                }
                if (end.substr(end.size() - 3, 1) != "1") { // HTTP/d.d: Go serves major version 1 only
                    refuse(505, "HTTPVersionNotSupported", "unsupported protocol version " + std::string(end.substr(end.size() - 8)));
                    return false;
                }
                m_part = Part::HeaderFields;
            }
        } else {
            m_headerBytes += upTo;
            for (std::size_t i = 0; i < upTo; ++i)
                m_fieldLine += bytes[i] != '\r' && bytes[i] != '\n';
            if (m_field.size() < MAX_HEADER_FIELD_BYTES)
                m_field.append(bytes.substr(0, std::min(upTo, MAX_HEADER_FIELD_BYTES - m_field.size())));
            if (m_lineBytes + m_headerBytes > MAX_REQUEST_HEAD_BYTES) {
                refuse(431, "RequestHeaderFieldsTooLarge",
                       "the request line and header fields are longer than " + std::to_string(MAX_REQUEST_HEAD_BYTES)
                           + " bytes");
                return false;
            }
            if (m_headerBytes > MAX_HEADER_FIELD_BYTES) {
                refuse(431, "RequestHeaderFieldsTooLarge",
                       "the header fields are longer than " + std::to_string(MAX_HEADER_FIELD_BYTES) + " bytes");
                return false;
            }
            if (newline) {
                // An empty line ends the head; the body (and any pipelined request) follows.
                if (m_fieldLine == 0) {
                    if (!endHead())
                        return false;
                }
                else if (!checkField())
                    return false;
                m_fieldLine = 0;
                m_field.clear();
            }
        }
        bytes.remove_prefix(upTo);
    }
    if (m_part == Part::Rest && m_upgradeWebSocket && !bytes.empty())
        m_bytesAfterUpgrade = true;
    return true;
}

bool RequestHeadGuard::endHead()
{
    m_headTimer->stop();
    if (m_upgradeWebSocket && m_connectionUpgrade && !m_webSocketKey) {
        refuse(400, "BadRequest", "mismatch challenge/response"); // x/net/websocket's ErrChallengeResponse
        return false;
    }
    m_part = m_chunked ? Part::ChunkedBody : Part::Rest;
    if (m_upgradeWebSocket && m_connectionUpgrade) {
        m_upgradeEnded = true;
        if (std::find(t_upgrades.begin(), t_upgrades.end(), QPointer<RequestHeadGuard>(this)) == t_upgrades.end())
            t_upgrades.emplace_back(this); // until the WebSocket is handed over, or the guard goes
    }
    return true;
}

std::size_t RequestHeadGuard::countChunked(std::string_view bytes)
{
    const std::size_t used = m_chunkedBody.feed(bytes);
    // Up to GO_DRAINS_BYTES over the bound the handler answers 413 and Go's server drains
    // the rest, keeping the connection (as for a Content-Length, checkField()); past that, it closes.
    // The bound is checked against what the chunks announce, not only what arrived: Qt's
    // parser reads a size of 2^63 or more as 0, the last chunk, and would take the bytes after
    // it for the next request (smuggling); a client that sends the data gets the same 413.
    if (m_chunkedBody.announcedBytes() > MAX_REQUEST_BODY_BYTES + GO_DRAINS_BYTES) {
        refuse(413, "RequestEntityTooLarge",
               "Request entity too large: limit is " + std::to_string(MAX_REQUEST_BODY_BYTES));
        return std::string_view::npos;
    }
    switch (m_chunkedBody.state()) {
    case ChunkedBodyFraming::State::Reading:
        break;
    case ChunkedBodyFraming::State::Complete:
        if (m_chunkedBody.hasTrailerFields()) {
            // Go reads trailer fields; Qt 6.4's parser takes the two bytes after the last
            // chunk for the end and parses the trailer as the next request (smuggling). No
            // Kubernetes client sends trailers: refused, and the connection closed.
            refuse(400, "BadRequest", "chunked request bodies with trailer fields are not supported");
            return std::string_view::npos;
        }
        m_part = Part::Rest;
        break;
    case ChunkedBodyFraming::State::Malformed:
        // The apiserver reads the body in its handler (limitedReadBody) and answers the read
        // error as any error that is no Status: 500, no reason, the error's text. Go's server
        // then closes the connection, since the body was not read to its end. (A GET, whose
        // handler reads no body, would be served before that close; it is refused here too.)
        refuse(500, "", m_chunkedBody.error());
        return std::string_view::npos;
    }
    return used;
}

// One header field line, as Go's textproto and net/http judge it, for what Qt's parser lets
// through: a line without a colon, a name that is no token, a control byte in a value, a
// Content-Length that is no number or differs from an earlier one, a transfer coding other
// than chunked, and more fields than Qt keeps (it drops those past 100 without a word, the
// body's length among them: request smuggling).
bool RequestHeadGuard::checkField()
{
    constexpr std::size_t MAX_FIELDS = 100;
    std::string_view line = m_field;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    if (++m_fieldCount > MAX_FIELDS) {
        refuse(431, "RequestHeaderFieldsTooLarge", "more than " + std::to_string(MAX_FIELDS) + " header fields");
        return false;
    }
    const std::size_t colon = line.find(':');
    const std::string_view name = line.substr(0, colon);
    if (colon == std::string_view::npos || name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar)) {
        refuse(400, "BadRequest", "malformed MIME header line: " + std::string(line.substr(0, LINE_EDGE)));
        return false;
    }
    std::string_view value = line.substr(colon + 1);
    if (std::any_of(value.begin(), value.end(), [](char c) {
            const auto byte = static_cast<unsigned char>(c);
            return (byte < 0x20 && c != '\t') || byte == 0x7f;
        })) {
        refuse(400, "BadRequest", "invalid header field value for \"" + std::string(name) + '"');
        return false;
    }
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
        value.remove_suffix(1);
    const auto named = [&name](std::string_view wanted) { return equalsIgnoringCase(name, wanted); };
    if (named("content-length")) {
        const bool digits = !value.empty() && value.size() <= 18
            && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits) {
            refuse(400, "BadRequest", "bad Content-Length \"" + std::string(value.substr(0, LINE_EDGE)) + '"');
            return false;
        }
        const std::uint64_t length = std::stoull(std::string(value));
        if (m_contentLength && *m_contentLength != length) {
            refuse(400, "BadRequest", "message cannot contain multiple Content-Length headers");
            return false;
        }
        m_contentLength = length;
        // Refused before Qt's parser buffers it: it reads a whole body before anyone sees it.
        // Up to GO_DRAINS_BYTES over the bound, the apiserver reads it, answers 413 and Go's
        // server drains the rest, keeping the connection; so does this one (the handler's 413).
        if (length > MAX_REQUEST_BODY_BYTES + GO_DRAINS_BYTES) {
            refuse(413, "RequestEntityTooLarge",
                   "Request entity too large: limit is " + std::to_string(MAX_REQUEST_BODY_BYTES));
            return false;
        }
    } else if (named("transfer-encoding")) {
        // Go's net/http takes one Transfer-Encoding field only (request smuggling hides in
        // a second one), and of that, only chunked.
        if (m_chunked) {
            refuse(501, "NotImplemented", "too many transfer encodings: [\"chunked\" \""
                                               + std::string(value.substr(0, LINE_EDGE)) + "\"]");
            return false;
        }
        if (!equalsIgnoringCase(value, "chunked")) {
            refuse(501, "NotImplemented", "unsupported transfer encoding: \"" + std::string(value.substr(0, LINE_EDGE)) + '"');
            return false;
        }
        m_chunked = true;
    } else if (named("upgrade")) {
        m_upgradeWebSocket = equalsIgnoringCase(value, "websocket");
    } else if (named("connection")) {
        // Every Connection field counts (Qt joins them), not only the last.
        m_connectionUpgrade = m_connectionUpgrade || hasHeaderToken(value, "upgrade");
    } else if (named("sec-websocket-key")) {
        m_webSocketKey = !value.empty();
    }
    return true;
}

bool RequestHeadGuard::checkTargetByte(char c)
{
    const bool inPath = m_lineSpaces == 1 && !m_inQuery;
    const bool endsPath = c == ' ' || c == '\r' || c == '\n' || c == '?';
    if (c == ' ' || c == '\r' || c == '\n')
        ++m_lineSpaces;
    if (!inPath)
        return true;
    if (!m_escape.empty()) {
        // Judged on the three bytes from the '%', or what the path has of them, as Go's
        // unescape judges it (and names it in its url.EscapeError).
        if (!endsPath)
            m_escape += c;
        if (endsPath || m_escape.size() == 3) {
            const bool valid = m_escape.size() == 3 && std::isxdigit(static_cast<unsigned char>(m_escape[1]))
                && std::isxdigit(static_cast<unsigned char>(m_escape[2]));
            if (!valid) { // Go's server answers 400 and closes, before any handler
                refuse(400, "BadRequest", "invalid URL escape \"" + m_escape + '"');
                return false;
            }
            m_escape.clear();
        }
        if (!endsPath)
            return true;
    }
    if (c == '%')
        m_escape = "%";
    else if (c == '?')
        m_inQuery = true;
    return true;
}

void RequestHeadGuard::rememberLineEdges(std::string_view bytes)
{
    if (m_lineStart.size() < LINE_EDGE)
        m_lineStart.append(bytes.substr(0, LINE_EDGE - m_lineStart.size()));
    m_lineEnd.append(bytes.substr(bytes.size() - std::min(bytes.size(), LINE_EDGE)));
    if (m_lineEnd.size() > LINE_EDGE)
        m_lineEnd.erase(0, m_lineEnd.size() - LINE_EDGE);
}

} // namespace rvscope::server
