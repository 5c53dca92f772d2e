// SPDX-License-Identifier: MIT
// HttpRequestReader's reading of a request by Go's net/http rules: the request line and its
// target, the header fields, the end of the head, and the body's framing.
#include "server/HttpRequestReader.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>

#include "model/Status.h"
#include "server/HeaderTokens.h"
#include "server/RequestTarget.h"
#include "server/ServerLimits.h"

namespace rvscope::server {
namespace {
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

std::size_t HttpRequestReader::count(std::string_view bytes)
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
    const std::size_t given = bytes.size();
    const auto taken = [&] { return given - bytes.size(); };
    while (!bytes.empty() && m_part != Part::Rest) {
        if (m_part == Part::ChunkedBody) {
            const std::size_t used = countChunked(bytes);
            if (used == std::string_view::npos)
                return used;
            bytes.remove_prefix(used);
            continue;
        }
        if (m_part == Part::Body) {
            const std::size_t used = std::size_t(std::min<std::uint64_t>(m_bodyLeft, bytes.size()));
            m_bodyLeft -= used;
            bytes.remove_prefix(used);
            if (m_bodyLeft == 0)
                m_part = Part::Rest;
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
            if (std::memchr(piece.data(), '\0', piece.size())) {
                refuse(400, "BadRequest", "malformed HTTP request line: a NUL byte");
                return std::string_view::npos;
            }
            for (const char c : piece) {
                if (!checkTargetByte(c))
                    return std::string_view::npos;
            }
            m_lineBytes += upTo;
            if (m_lineBytes > MAX_REQUEST_HEAD_BYTES) {
                refuse(414, "RequestURITooLong",
                       "the request line is longer than " + std::to_string(MAX_REQUEST_HEAD_BYTES) + " bytes");
                return std::string_view::npos;
            }
            rememberLineEdges(piece);
            if (newline) {
                std::string_view end = m_lineEnd;
                std::size_t length = m_lineBytes;
                while (!end.empty() && (end.back() == '\n' || end.back() == '\r')) {
                    end.remove_suffix(1);
                    --length;
                }
                // Not HTTP at all: Go's server answers 400 and closes, and so does this one.
                if (!wellFormedRequestLine(m_lineStart, end, length)) {
                    refuse(400, "BadRequest", "malformed HTTP request line");
                    return std::string_view::npos;
                }
                if (end.substr(end.size() - 3, 1) != "1") { // HTTP/d.d: Go serves major version 1 only
                    refuse(505, "HTTPVersionNotSupported", "unsupported protocol version " + std::string(end.substr(end.size() - 8)));
                    return std::string_view::npos;
                }
                m_http11 = end.back() != '0';
                // The whole line is in m_buffer (nothing of a request is handed over before
                // its end), ending at this newline.
                if (!takeRequestLine(std::string_view(newline + 1 - m_lineBytes, length)))
                    return std::string_view::npos;
                m_part = Part::HeaderFields;
            }
        } else {
            m_headerBytes += upTo;
            if (m_field.size() < MAX_HEADER_FIELD_BYTES)
                m_field.append(bytes.substr(0, std::min(upTo, MAX_HEADER_FIELD_BYTES - m_field.size())));
            if (m_lineBytes + m_headerBytes > MAX_REQUEST_HEAD_BYTES) {
                refuse(431, "RequestHeaderFieldsTooLarge",
                       "the request line and header fields are longer than " + std::to_string(MAX_REQUEST_HEAD_BYTES)
                           + " bytes");
                return std::string_view::npos;
            }
            if (m_headerBytes > MAX_HEADER_FIELD_BYTES) {
                refuse(431, "RequestHeaderFieldsTooLarge",
                       "the header fields are longer than " + std::to_string(MAX_HEADER_FIELD_BYTES) + " bytes");
                return std::string_view::npos;
            }
            if (newline) {
                // An empty line ends the head; the body (and any pipelined request) follows.
                // Only "\r\n" or "\n" (Go's ReadLine takes off one line end: "\r\r\n" is a
                // field line without a colon).
                if (m_field == "\r\n" || m_field == "\n") {
                    m_bodyStart = m_counted + taken() + upTo;
                    if (!endHead())
                        return std::string_view::npos;
                }
                else if (!checkField())
                    return std::string_view::npos;
                m_field.clear();
            }
        }
        bytes.remove_prefix(upTo);
    }
    return taken();
}

bool HttpRequestReader::takeRequestLine(std::string_view line)
{
    // Go's parseRequestLine: the method up to the first space, the target up to the next,
    // and the rest is the version.
    const std::size_t methodEnd = line.find(' ');
    const std::size_t targetEnd = line.find(' ', methodEnd + 1);
    if (targetEnd != line.size() - 9) {
        refuse(400, "BadRequest", "malformed HTTP version \"" + std::string(line.substr(targetEnd + 1, LINE_EDGE)) + '"');
        return false;
    }
    m_request.method.assign(line.substr(0, methodEnd));
    const std::string_view target = line.substr(methodEnd + 1, targetEnd - methodEnd - 1);
    if (std::string error = readRequestTarget(target, m_request); !error.empty()) {
        refuse(400, "BadRequest", error);
        return false;
    }
    return true;
}

bool HttpRequestReader::endHead()
{
    m_headTimer->stop();
    if (m_http11 && m_hostFields == 0 && m_request.method != "CONNECT") {
        refuse(400, "BadRequest", "missing required Host header"); // Go's server, for HTTP/1.1
        return false;
    }
    // Go's server answers 100-continue (below) and refuses any other expectation before a
    // handler sees the request (RFC 9110 allows 417), closing the connection.
    const std::string expect = m_request.header("expect");
    m_expectContinue = hasHeaderToken(expect, "100-continue");
    if (!m_expectContinue && !expect.empty()) {
        refuse(417, "ExpectationFailed", "unsupported expectation \"" + expect.substr(0, LINE_EDGE) + '"');
        return false;
    }
    // A WebSocket upgrade as the apiserver tells one (wsstream.IsWebSocketRequest) and
    // x/net/websocket's handshake reads it: each field by Header.Get, its first value.
    m_upgradeWebSocket = equalsIgnoringCase(m_request.header("upgrade"), "websocket");
    m_connectionUpgrade = hasHeaderToken(m_request.header("connection"), "upgrade");
    m_webSocketKey = !m_request.header("sec-websocket-key").empty();
    m_webSocketVersion13 = m_request.header("sec-websocket-version") == "13";
    if (m_upgradeWebSocket && m_connectionUpgrade) {
        // What the apiserver's x/net/websocket handshake refuses, in its order (Qt's would
        // drop the connection without a word).
        if (m_request.method != "GET") {
            refuse(405, "MethodNotAllowed", "bad method"); // ErrBadRequestMethod
            return false;
        }
        if (!m_webSocketKey) {
            refuse(400, "BadRequest", "mismatch challenge/response"); // ErrChallengeResponse
            return false;
        }
        if (!m_webSocketVersion13) {
            refuse(400, "BadRequest", "missing or bad WebSocket Version"); // ErrBadWebSocketVersion
            return false;
        }
    }
    if (m_upgradeWebSocket && m_connectionUpgrade) {
        m_part = Part::Rest; // the WebSocket server reads the rest
        return true;
    }
    if (m_chunked) {
        m_chunkedBody.setDataSink(&m_chunkedData);
        m_part = Part::ChunkedBody;
    } else if (m_contentLength.value_or(0) > 0) {
        m_bodyLeft = *m_contentLength;
        m_part = Part::Body;
    } else {
        m_part = Part::Rest;
    }
    // Go answers "100 Continue" when the handler first reads a body the client waits to send
    // (not before the answers the connection owes: it reads this request only after them).
    if (m_expectContinue && m_http11 && m_part != Part::Rest) {
        if (m_answersOwed && m_answersOwed())
            m_continueOwed = true; // and the body is timed from the "100 Continue" on
        else
            writeContinue();
    } else if (m_part != Part::Rest) {
        // Go reads (and times) a request only once the answers before it are out.
        if (m_answersOwed && m_answersOwed())
            m_bodyTimerWaits = true; // answersSettled()
        else
            m_bodyTimer->start();
    }
    return true;
}

std::size_t HttpRequestReader::countChunked(std::string_view bytes)
{
    const std::size_t used = m_chunkedBody.feed(bytes);
    // Up to GO_DRAINS_BYTES over the bound the handler answers 413 and Go's server drains
    // the rest, keeping the connection (as for a Content-Length, checkField()); past that, it closes.
    // The bound is checked against what the chunks announce, not only what arrived: a
    // client that announces more is refused before it sends the data.
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
            // Go reads trailer fields (and the apiserver ignores them). No Kubernetes client
            // sends any: refused, and the connection closed.
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

// One header field line, as Go's textproto and net/http judge it: a line without a colon, a
// name that is no token, a control byte in a value, a Content-Length that is no number or
// differs from an earlier one, a transfer coding other than chunked, and more than 100
// fields are refused; the field is kept in the request.
bool HttpRequestReader::checkField()
{
    constexpr std::size_t MAX_FIELDS = 100;
    std::string_view line = m_field;
    line.remove_suffix(line.ends_with("\r\n") ? 2 : 1); // one line end, as Go's ReadLine (a CR left is a control byte)
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
        // Refused before the body is read. Up to GO_DRAINS_BYTES over the bound, the apiserver reads it, answers 413 and Go's
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
    } else if (named("connection")) {
        // Whether the connection closes: every Connection field counts, as in Go's
        // shouldClose. (Whether it upgrades is read from the first one, at the head's end.)
        m_connectionClose = m_connectionClose || hasHeaderToken(value, "close");
        m_connectionKeepAlive = m_connectionKeepAlive || hasHeaderToken(value, "keep-alive");
    } else if (named("host")) {
        if (++m_hostFields > 1) { // Go's readRequest
            refuse(400, "BadRequest", "too many Host headers");
            return false;
        }
    }
    std::string lowerName(name);
    for (char &c : lowerName) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    m_request.headers.try_emplace(std::move(lowerName), value); // a repeated field: its first value, as Go's Header.Get
    return true;
}

bool HttpRequestReader::checkTargetByte(char c)
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

void HttpRequestReader::rememberLineEdges(std::string_view bytes)
{
    if (m_lineStart.size() < LINE_EDGE)
        m_lineStart.append(bytes.substr(0, LINE_EDGE - m_lineStart.size()));
    m_lineEnd.append(bytes.substr(bytes.size() - std::min(bytes.size(), LINE_EDGE)));
    if (m_lineEnd.size() > LINE_EDGE)
        m_lineEnd.erase(0, m_lineEnd.size() - LINE_EDGE);
}

} // namespace rvscope::server
