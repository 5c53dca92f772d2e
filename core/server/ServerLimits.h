// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

#include <QtCore/QtGlobal>

#include "api/BulkWatchSession.h"

// The embedded server's limits, in one place (those on watches are api/WatchLimits.h).
namespace rvscope::server {

// A keep-alive connection with no request in flight is closed after this long, like the
// apiserver's http.Server IdleTimeout (90 s).
inline constexpr int DEFAULT_IDLE_TIMEOUT_MS = 90'000;
// A request head must arrive within this (kube-apiserver's ReadHeaderTimeout, 32 s): a client
// that opens connections and sends nothing, or half a head, cannot hold them.
inline constexpr int HEAD_READ_TIMEOUT_MS = 32'000;
// A request's body must have come whole within this after its head (kube-apiserver's
// --request-timeout, 1 minute, within which its timeout filter answers 504 to a request whose
// handler still waits for the body): past it the answer is that 504 and the connection closes.
inline constexpr int REQUEST_TIMEOUT_MS = 60'000;
// Connections waiting to be accepted (Qt's default is 50; Go takes the system's somaxconn).
inline constexpr int LISTEN_BACKLOG = 4096;
// One WebSocket frame or message a client may send (a watch's clients send none, a bulk
// session's are small): past it the socket closes with 1009, before it is buffered.
inline constexpr qint64 MAX_WEBSOCKET_MESSAGE_BYTES = 3 * 1024 * 1024;
// The request line and the header fields together, as Go's net/http bounds them
// (http.DefaultMaxHeaderBytes): past it the request is answered 431 (414 when the request
// line alone is longer) and the connection closes (server::HttpRequestReader).
inline constexpr std::size_t MAX_REQUEST_HEAD_BYTES = 1024 * 1024;
// The header fields alone: 431 past it. Lower than Go's bound, as when Qt 6.4's parser (which
// dropped every header past ~96 KiB) read them; no client sends more.
inline constexpr std::size_t MAX_HEADER_FIELD_BYTES = 64 * 1024;
// A request body, as the apiserver bounds it (3 MiB): a larger Content-Length is answered
// 413 from the head, before the body is read (api::ApiHandler::Options
// checks what arrives).
inline constexpr std::size_t MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
// Past the body bound, what Go's server still reads and drains after the handler's 413,
// keeping the connection; a body longer than that is refused from the head, then closed.
inline constexpr std::size_t GO_DRAINS_BYTES = 256 * 1024;
// Requests a client may pipeline behind one still being answered, and their bytes: Go's
// server reads the next request only once an answer is out, so TCP holds the rest back;
// rvscope's reader reads every one at once, and they wait in the server. Past either bound the
// connection closes (no client pipelines at all; kubectl and client-go never do).
inline constexpr std::size_t MAX_WAITING_REQUESTS = 100;
inline constexpr std::size_t MAX_WAITING_REQUEST_BYTES = 2 * MAX_REQUEST_BODY_BYTES;

// Connections and requests the server takes at once (`serve --max-connections`,
// `--max-requests-inflight`, `--max-mutating-requests-inflight`). Past a bound the request
// is answered 429 TooManyRequests with Retry-After: 1, and the server goes on serving the
// rest. In flight counts a request from its head until its response (a watch until its
// stream starts), as the apiserver's max-in-flight filter does, whose defaults these are.
struct Limits {
    std::size_t maxConnections = 10'000; // open TCP connections, WebSockets included; 0: none
    std::size_t maxRequestsInFlight = 400;         // GET, HEAD, OPTIONS; 0: none
    std::size_t maxMutatingRequestsInFlight = 200; // POST, PUT, PATCH, DELETE; 0: none
    std::size_t maxBulkChannels = api::BulkWatchSession::DEFAULT_MAX_CHANNELS; // channels of one bulk session
    // How long a request head may take (`serve --request-head-timeout`); HEAD_READ_TIMEOUT_MS
    // as the apiserver, shorter for tests that watch it happen.
    int requestHeadTimeoutMs = HEAD_READ_TIMEOUT_MS;
    // How long a request body may take after its head (`serve --request-timeout`).
    int requestTimeoutMs = REQUEST_TIMEOUT_MS;
};

} // namespace rvscope::server
